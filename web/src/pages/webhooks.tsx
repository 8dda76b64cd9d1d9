import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'preact/hooks';
import { data, get } from '../api';
import type { Data, Schemas } from '../api-types';
import { CsvButton } from '../csv';
import { useCanWrite } from '../session';
import { Empty, ErrorBox, Field, Loading, Section } from '../ui';

type Webhook = Schemas['Webhook'];
type Delivery = Schemas['WebhookDelivery'];
type Account = Data<'/v1/account'>;
const EVENTS = ['action.checkpoint', 'action.completed', 'action.failed'];

export function Plan() {
  const q = useQuery({ queryKey: ['account'], queryFn: () => get<Account>('/account') });
  const a = q.data;
  return (
    <Section title="Plan and credits">
      {q.isPending ? <Loading /> : null}
      <ErrorBox error={q.error} />
      {a ? (
        <dl class="facts" data-plan={a.plan}>
          <dt>Plan</dt>
          <dd>{a.plan}</dd>
          <dt>Credits ({a.credits_month})</dt>
          <dd data-credits-left={a.credits_left}>
            {a.credits_used} used, {a.credits_left} left of {a.credits_included}
          </dd>
          <dt>Rate-limit tier</dt>
          <dd>{a.rate_limit_tier}</dd>
          <dt>Limits</dt>
          <dd>
            {a.max_projects} projects, {a.max_active_prompts} active prompts
          </dd>
        </dl>
      ) : null}
    </Section>
  );
}

function Deliveries({ id }: { id: string }) {
  const q = useQuery({ queryKey: ['deliveries', id], queryFn: () => get<Delivery[]>(`/webhooks/${id}/deliveries?limit=20`) });
  if (q.isPending) return <Loading />;
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data?.length) return <Empty>No delivery yet.</Empty>;
  return (
    <div class="table-wrap">
      <table data-table="deliveries">
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last answer</th>
            <th scope="col">When</th>
          </tr>
        </thead>
        <tbody>
          {q.data.map((d) => (
            <tr key={d.id}>
              <td>{d.event}</td>
              <td>{d.status}</td>
              <td>{d.attempts}</td>
              <td class="wrap">{d.last_status_code ?? d.last_error ?? '–'}</td>
              <td>{d.created_at.replace('T', ' ').slice(0, 16)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Webhooks() {
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const list = useQuery({ queryKey: ['webhooks'], queryFn: () => get<Webhook[]>('/webhooks') });
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const write = useMutation({
    mutationFn: (x: { method: string; path: string; body?: unknown }) => data<{ secret?: string }>(x.method, x.path, x.body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['webhooks'] }),
  });
  const add = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const events = EVENTS.filter((ev) => f.get(ev));
    write.mutate({ method: 'POST', path: '/webhooks', body: { url: String(f.get('url')).trim(), events } }, { onSuccess: (r) => setSecret(r.secret ?? null) });
  };
  return (
    <Section
      title="Webhooks"
      actions={list.data ? <CsvButton filename="webhooks.csv" header={['id', 'url', 'events', 'is_active', 'created_at']} rows={() => list.data.map((w) => [w.id, w.url, w.events.join(' '), w.is_active, w.created_at])} /> : null}
    >
      {list.isPending ? <Loading /> : null}
      <ErrorBox error={list.error} />
      <ErrorBox error={write.error} />
      {secret ? (
        <div class="notice" role="status">
          <Field label="Signing secret (shown once)">
            <input readOnly value={secret} class="mono" />
          </Field>
        </div>
      ) : null}
      {list.data?.length === 0 ? <Empty>No webhook registered.</Empty> : null}
      {list.data?.map((w) => (
        <div key={w.id} class="webhook" data-webhook={w.id}>
          <p>
            <strong class="wrap">{w.url}</strong> <span class="muted small">{w.events.join(', ')}</span>
          </p>
          <div class="row-actions">
            <button type="button" class="secondary small" aria-expanded={open === w.id} onClick={() => setOpen(open === w.id ? null : w.id)}>
              {open === w.id ? 'Hide deliveries' : 'Show deliveries'}
            </button>
            <button type="button" class="danger small" disabled={!canWrite} onClick={() => confirm('Delete this webhook?') && write.mutate({ method: 'DELETE', path: `/webhooks/${w.id}` })}>
              Delete
            </button>
          </div>
          {open === w.id ? <Deliveries id={w.id} /> : null}
        </div>
      ))}
      <form onSubmit={add} aria-label="Register a webhook">
        <fieldset disabled={!canWrite}>
          <Field label="Webhook URL (HTTPS)">
            <input name="url" type="url" required placeholder="https://hooks.example.com/sightline" />
          </Field>
          <fieldset class="providers">
            <legend>Events</legend>
            {EVENTS.map((ev) => (
              <label key={ev} class="check">
                <input type="checkbox" name={ev} defaultChecked />
                {ev}
              </label>
            ))}
          </fieldset>
          <button type="submit">Register webhook</button>
        </fieldset>
      </form>
    </Section>
  );
}
