import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { data, get } from '../api';
import type { Data } from '../api-types';
import { CsvButton } from '../csv';
import { useCanWrite } from '../session';
import { ListTable } from '../list-table';
import { BrandMark, ErrorBox, Field, Loading, Section, formatInterval, formatFigure, formatPercent, iconDomain, measured, } from '../ui';
import { useWindow } from '../window';
import { TopBar } from '../top-bar';
import { Suggestions } from './suggestions';
import { Themes } from './themes';

export function Competitors({ projectId }: { projectId: string }) {
  const viewWindow = useWindow();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const list = useQuery({ queryKey: ['competitors', projectId, viewWindow.query], queryFn: () => get<Data<'/v1/projects/{project_id}/competitors'>>(`/projects/${projectId}/competitors${viewWindow.query}`) });
  const write = useMutation({
    mutationFn: (x: { method: string; path: string; body?: unknown }) => data(x.method, x.path, x.body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['competitors', projectId] }),
  });
  const rows = list.data?.active_competitors ?? [];
  const add = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const formData = new FormData(form);
    write.mutate(
      { method: 'POST', path: `/projects/${projectId}/competitors`, body: { competitors: [{ name: String(formData.get('name')).trim(), website: String(formData.get('website')).trim() }] } },
      { onSuccess: () => form.reset() },
    );
  };
  return (
    <>
      <TopBar title="Competitors" filters />
      <Section
        title="Brands compared"
        actions={
          <CsvButton
            filename="competitors.csv"
            header={['competitor_id', 'name', 'website', 'own_brand', 'visibility', 'visibility_ci_low', 'visibility_ci_high', 'share_of_voice', 'position', 'sentiment', 'mentions', 'responses']}
            rows={() =>
              rows.map((row) => [row.competitor_id, row.name, row.website, row.is_own_brand, row.metrics?.visibility, row.metrics?.visibility_ci?.[0], row.metrics?.visibility_ci?.[1], row.metrics?.share_of_voice, row.metrics?.position, row.metrics?.sentiment, row.metrics?.mention_count, row.metrics?.responses])
            }
          />
        }
      >
        {list.isPending ? <Loading /> : null}
        <ErrorBox error={list.error} />
        <ErrorBox error={write.error} />
        {list.data ? (
          <ListTable
            name="competitors"
            label="Brands compared"
            rows={rows}
            rowKey={(row) => row.competitor_id}
            rowHeader="brand"
            highlight={(row) => row.is_own_brand}
            rowAttributes={(row) => ({ 'data-competitor': row.name })}
            empty="No brand tracked yet."
            columns={[
              {
                key: 'brand',
                header: 'Brand',
                cell: (row) => (
                  <>
                    <BrandMark name={row.name} domain={iconDomain(row.icon_url)} color={row.is_own_brand ? 'var(--accent)' : undefined} />
                    {row.name} {row.is_own_brand ? <span class="tag">you</span> : null}
                    <br />
                    <span class="muted small">{row.website}</span>
                  </>
                ),
              },
              {
                key: 'visibility',
                header: 'Visibility',
                numeric: true,
                cellAttributes: (row) => ({ 'data-value': row.metrics?.visibility ?? '' }),
                cell: (row) => (
                  <>
                    {formatPercent(measured(row.metrics)?.visibility)} <span class="muted small">{formatInterval(row.metrics?.visibility_ci)}</span>
                  </>
                ),
              },
              {
                key: 'share',
                header: 'Share of voice',
                numeric: true,
                cell: (row) => (
                  <>
                    {formatPercent(measured(row.metrics)?.share_of_voice)} <span class="muted small">{formatInterval(row.metrics?.share_of_voice_ci)}</span>
                  </>
                ),
              },
              { key: 'position', header: 'Position', numeric: true, cell: (row) => formatFigure(row.metrics?.position) },
              { key: 'sentiment', header: 'Sentiment', numeric: true, cell: (row) => formatFigure(row.metrics?.sentiment) },
              { key: 'mentions', header: 'Mentions', numeric: true, cell: (row) => row.metrics?.mention_count ?? 0 },
              {
                key: 'actions',
                header: 'Actions',
                className: 'row-actions',
                cell: (row) =>
                  row.is_own_brand ? null : (
                    <>
                      <button
                        type="button"
                        class="secondary small"
                        disabled={!canWrite}
                        onClick={() => {
                          const name = prompt('New name', row.name);
                          if (name?.trim() && name !== row.name) write.mutate({ method: 'PATCH', path: `/projects/${projectId}/competitors/${row.competitor_id}`, body: { name: name.trim() } });
                        }}
                      >
                        Rename
                      </button>
                      <button
                        type="button"
                        class="danger small"
                        disabled={!canWrite}
                        onClick={() => confirm(`Stop tracking ${row.name}?`) && write.mutate({ method: 'DELETE', path: `/projects/${projectId}/competitors/${row.competitor_id}` })}
                      >
                        Remove
                      </button>
                    </>
                  ),
              },
            ]}
          />
        ) : null}
      </Section>
      {rows.length ? <Themes projectId={projectId} brands={rows} w={viewWindow} /> : null}
      <Suggestions projectId={projectId} onAdded={() => queryClient.invalidateQueries({ queryKey: ['competitors', projectId] })} />
      <Section title="Add a competitor">
        <form onSubmit={add} class="grid-form" aria-label="Add a competitor">
          <fieldset disabled={!canWrite}>
            <Field label="Competitor name">
              <input name="name" required maxLength={200} />
            </Field>
            <Field label="Competitor website">
              <input name="website" required placeholder="rival.com" />
            </Field>
            <button type="submit">Add competitor</button>
          </fieldset>
        </form>
      </Section>
    </>
  );
}
