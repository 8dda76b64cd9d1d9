import { useQuery } from '@tanstack/react-query';
import { get, queryString } from '../api';
import type { Data } from '../api-types';
import { CsvButton } from '../csv';
import { setQuery, useLocation } from '../router';
import { useCanWrite } from '../session';
import { ListTable } from '../list-table';
import { Empty, ErrorBox, Field, Loading, Section } from '../ui';

// The team's audit log (admins): filters by actor, action and dates live in the URL, so a
// copied link shows the same view; paged; the page shown can be saved as CSV.

type Page = Data<'/v1/team/audit'>;

const PAGE_SIZE = 50;
const FILTERS = ['actor', 'action', 'date_from', 'date_to'] as const;

export function Audit() {
  const canWrite = useCanWrite();
  const { query } = useLocation();
  const filters = Object.fromEntries(FILTERS.map((filter) => [filter, query.get(filter) ?? ''])) as Record<(typeof FILTERS)[number], string>;
  const page = Math.max(1, Number(query.get('page') ?? 1) || 1);
  const log = useQuery({
    queryKey: ['team', 'audit', filters, page],
    queryFn: () => get<Page>(`/team/audit${queryString({ ...filters, page, page_size: PAGE_SIZE })}`),
    enabled: canWrite,
  });
  if (!canWrite) return <Empty>The audit log is for team admins.</Empty>;
  const apply = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setQuery({ ...Object.fromEntries(FILTERS.map((filter) => [filter, String(form.get(filter) ?? '').trim() || null])), page: null });
  };
  const logPage = log.data;
  const pages = logPage ? Math.max(1, Math.ceil(logPage.total / logPage.page_size)) : 1;
  const header = ['created_at', 'actor', 'actor_user_id', 'actor_key_id', 'action', 'target_type', 'target_id', 'ip', 'request_id'];
  return (
    <>
      <h1>Audit log</h1>
      <p class="muted">Every write of a person or key in this team, kept 400 days. No secret is ever recorded.</p>
      <form onSubmit={apply} class="grid-form" aria-label="Filter the audit log">
        <Field label="Actor" hint="Email, key prefix, user or key id">
          <input name="actor" value={filters.actor} maxLength={254} />
        </Field>
        <Field label="Action" hint="member.remove, or a family: member">
          <input name="action" value={filters.action} maxLength={100} />
        </Field>
        <Field label="From">
          <input name="date_from" type="date" value={filters.date_from} />
        </Field>
        <Field label="To">
          <input name="date_to" type="date" value={filters.date_to} />
        </Field>
        <button type="submit">Filter</button>
      </form>
      <Section
        title={logPage ? `${logPage.total} entr${logPage.total === 1 ? 'y' : 'ies'}` : 'Entries'}
        actions={
          logPage?.items.length ? (
            <CsvButton
              filename={`audit-page-${page}.csv`}
              header={header}
              rows={() => logPage.items.map((i) => [i.created_at, i.actor.label, i.actor.user_id, i.actor.key_id, i.action, i.target_type, i.target_id, i.ip, i.request_id])}
            />
          ) : null
        }
      >
        {log.isLoading ? <Loading /> : null}
        <ErrorBox error={log.error} />
        {logPage ? (
          <ListTable
            name="audit"
            label="Audit log"
            rows={logPage.items}
            rowKey={(entry) => entry.id}
            rowAttributes={(entry) => ({ 'data-action': entry.action })}
            empty="No entries match."
            columns={[
              { key: 'when', header: 'When (UTC)', cell: (entry) => entry.created_at.replace('T', ' ').slice(0, 19) },
              { key: 'actor', header: 'Actor', cell: (entry) => entry.actor.label },
              { key: 'action', header: 'Action', className: 'mono', cell: (entry) => entry.action },
              { key: 'record', header: 'Record', className: 'mono small', cell: (entry) => (entry.target_id ? `${entry.target_type ?? ''} ${entry.target_id}` : '–') },
              { key: 'address', header: 'Address', cell: (entry) => entry.ip ?? '–' },
              { key: 'request', header: 'Request', className: 'mono small', cell: (entry) => entry.request_id ?? '–' },
            ]}
          />
        ) : null}
        {logPage && pages > 1 ? (
          <nav class="row-actions" aria-label="Pages">
            <button type="button" class="secondary small" disabled={page <= 1} onClick={() => setQuery({ page: String(page - 1) })}>
              Previous
            </button>
            <span class="muted small">
              Page {page} of {pages}
            </span>
            <button type="button" class="secondary small" disabled={page >= pages} onClick={() => setQuery({ page: String(page + 1) })}>
              Next
            </button>
          </nav>
        ) : null}
      </Section>
    </>
  );
}
