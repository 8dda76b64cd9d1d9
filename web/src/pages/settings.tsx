import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'preact/hooks';
import { data, get } from '../api';
import type { Data, Item } from '../api-types';
import { CsvButton } from '../csv';
import { useCanWrite, useSession } from '../session';
import { ListTable } from '../list-table';
import { Empty, ErrorBox, Field, Loading, Section } from '../ui';
import { Credits } from './credits';
import { DigestSetting } from './digest-setting';
import { Plan, Webhooks } from './webhooks';

type Key = Item<Data<'/v1/keys'>>;

export function Settings() {
  const { session } = useSession();
  const canWrite = useCanWrite();
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => get<Key[]>('/keys'), enabled: canWrite });
  const [created, setCreated] = useState<string | null>(null);
  const write = useMutation({
    mutationFn: (x: { method: string; path: string; body?: unknown }) => data<{ api_key?: string }>(x.method, x.path, x.body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['keys'] }),
  });
  const create = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const expires = String(form.get('expires') ?? '');
    const body = { scope: String(form.get('scope')), ...(String(form.get('name')).trim() ? { name: String(form.get('name')).trim() } : {}), ...(expires ? { expires_at: new Date(`${expires}T23:59:59Z`).toISOString() } : {}) };
    write.mutate({ method: 'POST', path: '/keys', body }, { onSuccess: (created) => setCreated(created.api_key ?? null) });
  };
  return (
    <>
      <h1>Settings</h1>
      <Section title="This session">
        <p>
          Signed in as <strong>{session?.email ?? 'an API key'}</strong> with <strong>{session?.scope}</strong> rights until {session?.expires_at.replace('T', ' ').slice(0, 16)} UTC.
        </p>
      </Section>
      <DigestSetting />
      <Credits />
      <Section
        title="API keys"
        actions={keys.data ? <CsvButton filename="keys.csv" header={['id', 'key_prefix', 'name', 'scope', 'is_active', 'expires_at', 'created_at']} rows={() => keys.data.map((apiKey) => [apiKey.id, apiKey.key_prefix, apiKey.name, apiKey.scope, apiKey.is_active, apiKey.expires_at, apiKey.created_at])} /> : null}
      >
        {!canWrite ? <Empty>Keys are managed by an admin.</Empty> : null}
        {keys.isLoading ? <Loading /> : null}
        <ErrorBox error={keys.error} />
        <ErrorBox error={write.error} />
        {created ? (
          <div class="notice" role="status">
            <Field label="New API key (shown once)">
              <input readOnly value={created} class="mono" data-new-key />
            </Field>
            <button type="button" class="secondary small" onClick={() => navigator.clipboard?.writeText(created)}>
              Copy key
            </button>
          </div>
        ) : null}
        {keys.data?.length ? (
          <ListTable
            name="keys"
            label="API keys"
            rows={keys.data}
            rowKey={(apiKey) => apiKey.id}
            rowAttributes={(apiKey) => ({ 'data-key': apiKey.id })}
            columns={[
              { key: 'key', header: 'Key', className: 'mono', cell: (apiKey) => `${apiKey.key_prefix}…` },
              { key: 'name', header: 'Name', cell: (apiKey) => apiKey.name ?? '–' },
              { key: 'scope', header: 'Scope', cell: (apiKey) => apiKey.scope },
              { key: 'state', header: 'State', cell: (apiKey) => (apiKey.is_active ? 'active' : 'inactive') },
              { key: 'expires', header: 'Expires', cell: (apiKey) => apiKey.expires_at.slice(0, 10) },
              {
                key: 'actions',
                header: 'Actions',
                className: 'row-actions',
                cell: (apiKey) => (
                  <>
                    <button type="button" class="secondary small" onClick={() => write.mutate({ method: 'PATCH', path: `/keys/${apiKey.id}`, body: { is_active: !apiKey.is_active } })}>
                      {apiKey.is_active ? 'Deactivate' : 'Activate'}
                    </button>
                    <button type="button" class="danger small" onClick={() => confirm('Delete this key? Sessions opened with it end too.') && write.mutate({ method: 'DELETE', path: `/keys/${apiKey.id}` })}>
                      Delete
                    </button>
                  </>
                ),
              },
            ]}
          />
        ) : null}
        {canWrite ? (
          <form onSubmit={create} class="grid-form" aria-label="Create an API key">
            <Field label="Key name">
              <input name="name" maxLength={100} />
            </Field>
            <Field label="Scope">
              <select name="scope">
                <option value="viewer">viewer (read-only)</option>
                <option value="admin">admin</option>
              </select>
            </Field>
            <Field label="Expires on" hint="Empty: one year.">
              <input name="expires" type="date" />
            </Field>
            <button type="submit">Create key</button>
          </form>
        ) : null}
      </Section>
      <Plan />
      <Webhooks />
    </>
  );
}
