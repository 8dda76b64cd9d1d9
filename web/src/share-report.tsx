import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'preact/hooks';
import { data, get } from './api';
import type { Data } from './api-types';
import { useCanWrite } from './session';
import { CopyButton, ErrorBox, Field, Loading } from './ui';
import './share-report.css';

// The overview's Share button: a read-only, expiring link to the overview of the window
// shown (POST /reports), its URL to copy (shown once: the server keeps only its hash) and
// the project's links, each revocable. Creating and revoking need an admin.

type Created = Data<'/v1/projects/{project_id}/reports', 'post'>;
type Listed = Data<'/v1/projects/{project_id}/reports'>;

const EXPIRY_CHOICES = [7, 30, 90, 365];
const day = (iso: string) => iso.slice(0, 10);

export function ShareReport({ projectId, windowDays }: { projectId: string; windowDays: number }) {
  const [open, setOpen] = useState(false);
  return (
    <div class="share-report">
      <button type="button" class="secondary small" aria-expanded={open ? 'true' : 'false'} aria-controls="share-panel" onClick={() => setOpen(!open)}>
        Share
      </button>
      {open ? <SharePanel projectId={projectId} windowDays={Math.min(365, Math.max(1, windowDays))} /> : null}
    </div>
  );
}

function SharePanel({ projectId, windowDays }: { projectId: string; windowDays: number }) {
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const base = `/projects/${projectId}/reports`;
  const [expires, setExpires] = useState(30);
  const [created, setCreated] = useState<Created | null>(null);
  const list = useQuery({ queryKey: ['reports', projectId], queryFn: () => get<Listed>(base) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['reports', projectId] });
  const create = useMutation({
    mutationFn: () => data<Created>('POST', base, { window_days: windowDays, expires_in_days: expires }),
    onSuccess: (created) => {
      setCreated(created);
      void refresh();
    },
  });
  const revoke = useMutation({ mutationFn: (id: string) => data('DELETE', `${base}/${id}`), onSuccess: refresh });
  const links = list.data ?? [];
  return (
    <section id="share-panel" class="share-panel card" aria-label="Share a report">
      <p class="small">
        A read-only page of this overview for the last {windowDays} day{windowDays === 1 ? '' : 's'}, for anyone with the link: no sign-in, ready to print or save as PDF.
      </p>
      <div class="inline share-create">
        <Field label="Link expires after">
          <select value={String(expires)} onChange={(event) => setExpires(Number((event.currentTarget as HTMLSelectElement).value))} disabled={!canWrite}>
            {EXPIRY_CHOICES.map((expiryChoice) => (
              <option key={expiryChoice} value={expiryChoice}>
                {expiryChoice} days
              </option>
            ))}
          </select>
        </Field>
        <button type="button" class="small" disabled={!canWrite || create.isPending} onClick={() => create.mutate()}>
          {create.isPending ? 'Creating…' : 'Create link'}
        </button>
      </div>
      {canWrite ? null : <p class="muted small">Report links are created by an admin.</p>}
      <ErrorBox error={create.error} />
      {created ? (
        <div class="notice" role="status" data-report-url={created.url}>
          <Field label="Report link (shown once: copy it now)">
            <input readOnly value={created.url} class="mono" onFocus={(event) => (event.currentTarget as HTMLInputElement).select()} />
          </Field>
          <div class="inline">
            <CopyButton text={created.url} label="Copy link" />
            <span class="muted small">Expires on {day(created.expires_at)}.</span>
          </div>
        </div>
      ) : null}
      <h3 class="share-list-title">Links of this project</h3>
      {list.isPending ? <Loading shape="lines" /> : null}
      <ErrorBox error={list.error} />
      <ErrorBox error={revoke.error} />
      {list.data && links.length === 0 ? <p class="muted small">No link made yet.</p> : null}
      {links.length ? (
        <ul class="share-links">
          {links.map((link) => (
            <li key={link.report_id} data-report={link.report_id} data-status={link.status}>
              <span>
                {link.window_days} days, made {day(link.created_at)}, {link.status === 'active' ? `expires ${day(link.expires_at)}` : link.status === 'expired' ? `expired ${day(link.expires_at)}` : 'revoked'}
              </span>
              {link.status === 'active' ? (
                <button type="button" class="danger small" disabled={!canWrite || revoke.isPending} onClick={() => confirm('Revoke this link? Anyone opening it will see "not found".') && revoke.mutate(link.report_id)}>
                  Revoke
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
