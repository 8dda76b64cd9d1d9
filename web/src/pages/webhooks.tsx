import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'preact/hooks';
import { data, get } from '../api';
import type { Data, Schemas } from '../api-types';
import { CsvButton } from '../csv';
import { ListTable } from '../list-table';
import { useCanWrite } from '../session';
import { Empty, ErrorBox, Field, Loading, Section } from '../ui';

type Webhook = Schemas['Webhook'];
type Delivery = Schemas['WebhookDelivery'];
type Account = Data<'/v1/account'>;
const EVENTS = ['action.checkpoint', 'action.completed', 'action.failed'];

export function Plan() {
  const accountQuery = useQuery({ queryKey: ['account'], queryFn: () => get<Account>('/account') });
  const account = accountQuery.data;
  return (
    <Section title="Plan and credits">
      {accountQuery.isPending ? <Loading shape="lines" /> : null}
      <ErrorBox error={accountQuery.error} />
      {account ? (
        <dl class="facts" data-plan={account.plan}>
          <dt>Plan</dt>
          <dd>{account.plan}</dd>
          <dt>Credits ({account.credits_month})</dt>
          <dd data-credits-left={account.credits_left}>
            {account.credits_used} used, {account.credits_left} left of {account.credits_included}
          </dd>
          <dt>Rate-limit tier</dt>
          <dd>{account.rate_limit_tier}</dd>
          <dt>Limits</dt>
          <dd>
            {account.max_projects} projects, {account.max_active_prompts} active prompts
          </dd>
        </dl>
      ) : null}
    </Section>
  );
}

function Deliveries({ id }: { id: string }) {
  const deliveriesQuery = useQuery({ queryKey: ['deliveries', id], queryFn: () => get<Delivery[]>(`/webhooks/${id}/deliveries?limit=20`) });
  if (deliveriesQuery.isPending) return <Loading />;
  if (deliveriesQuery.error) return <ErrorBox error={deliveriesQuery.error} />;
  return (
    <ListTable
      name="deliveries"
      label="Deliveries"
      rows={deliveriesQuery.data ?? []}
      rowKey={(delivery) => delivery.id}
      empty="No delivery yet."
      columns={[
        { key: 'event', header: 'Event', cell: (delivery) => delivery.event },
        { key: 'status', header: 'Status', cell: (delivery) => delivery.status },
        { key: 'attempts', header: 'Attempts', numeric: true, cell: (delivery) => delivery.attempts },
        { key: 'answer', header: 'Last answer', className: 'wrap', cell: (delivery) => delivery.last_status_code ?? delivery.last_error ?? '–' },
        { key: 'when', header: 'When', cell: (delivery) => delivery.created_at.replace('T', ' ').slice(0, 16) },
      ]}
    />
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
  const add = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const formData = new FormData(form);
    const events = EVENTS.filter((event) => formData.get(event));
    write.mutate({ method: 'POST', path: '/webhooks', body: { url: String(formData.get('url')).trim(), events } }, { onSuccess: (created) => setSecret(created.secret ?? null) });
  };
  return (
    <Section
      title="Webhooks"
      actions={list.data ? <CsvButton filename="webhooks.csv" header={['id', 'url', 'events', 'is_active', 'created_at']} rows={() => list.data.map((webhook) => [webhook.id, webhook.url, webhook.events.join(' '), webhook.is_active, webhook.created_at])} /> : null}
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
      {list.data?.map((webhook) => (
        <div key={webhook.id} class="webhook" data-webhook={webhook.id}>
          <p>
            <strong class="wrap">{webhook.url}</strong> <span class="muted small">{webhook.events.join(', ')}</span>
          </p>
          <div class="row-actions">
            <button type="button" class="secondary small" aria-expanded={open === webhook.id} onClick={() => setOpen(open === webhook.id ? null : webhook.id)}>
              {open === webhook.id ? 'Hide deliveries' : 'Show deliveries'}
            </button>
            <button type="button" class="danger small" disabled={!canWrite} onClick={() => confirm('Delete this webhook?') && write.mutate({ method: 'DELETE', path: `/webhooks/${webhook.id}` })}>
              Delete
            </button>
          </div>
          {open === webhook.id ? <Deliveries id={webhook.id} /> : null}
        </div>
      ))}
      <form onSubmit={add} aria-label="Register a webhook">
        <fieldset disabled={!canWrite}>
          <Field label="Webhook URL (HTTPS)">
            <input name="url" type="url" required placeholder="https://hooks.example.com/sightline" />
          </Field>
          <fieldset class="providers">
            <legend>Events</legend>
            {EVENTS.map((event) => (
              <label key={event} class="check">
                <input type="checkbox" name={event} defaultChecked />
                {event}
              </label>
            ))}
          </fieldset>
          <button type="submit">Register webhook</button>
        </fieldset>
      </form>
    </Section>
  );
}
