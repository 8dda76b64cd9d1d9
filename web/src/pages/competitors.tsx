import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { data, get } from '../api';
import type { Data } from '../api-types';
import { CsvButton } from '../csv';
import { useCanWrite } from '../session';
import { BrandMark, Empty, ErrorBox, Field, Loading, Section, formatInterval, formatFigure, iconDomain } from '../ui';
import { WindowControls, useWindow } from '../window';
import { Suggestions } from './suggestions';
import { Themes } from './themes';

export function Competitors({ projectId }: { projectId: string }) {
  const w = useWindow();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const list = useQuery({ queryKey: ['competitors', projectId, w.query], queryFn: () => get<Data<'/v1/projects/{project_id}/competitors'>>(`/projects/${projectId}/competitors${w.query}`) });
  const write = useMutation({
    mutationFn: (x: { method: string; path: string; body?: unknown }) => data(x.method, x.path, x.body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['competitors', projectId] }),
  });
  const rows = list.data?.active_competitors ?? [];
  const add = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    write.mutate(
      { method: 'POST', path: `/projects/${projectId}/competitors`, body: { competitors: [{ name: String(f.get('name')).trim(), website: String(f.get('website')).trim() }] } },
      { onSuccess: () => form.reset() },
    );
  };
  return (
    <>
      <h1>Competitors</h1>
      <WindowControls />
      <Section
        title="Brands compared"
        actions={
          <CsvButton
            filename="competitors.csv"
            header={['competitor_id', 'name', 'website', 'own_brand', 'visibility', 'visibility_ci_low', 'visibility_ci_high', 'share_of_voice', 'position', 'sentiment', 'mentions', 'responses']}
            rows={() =>
              rows.map((c) => [c.competitor_id, c.name, c.website, c.is_own_brand, c.metrics?.visibility, c.metrics?.visibility_ci?.[0], c.metrics?.visibility_ci?.[1], c.metrics?.share_of_voice, c.metrics?.position, c.metrics?.sentiment, c.metrics?.mention_count, c.metrics?.responses])
            }
          />
        }
      >
        {list.isPending ? <Loading /> : null}
        <ErrorBox error={list.error} />
        <ErrorBox error={write.error} />
        {list.data && rows.length === 0 ? <Empty>No brand tracked yet.</Empty> : null}
        {rows.length ? (
          <div class="table-wrap">
            <table data-table="competitors">
              <thead>
                <tr>
                  <th scope="col">Brand</th>
                  <th scope="col">Visibility</th>
                  <th scope="col">Share of voice</th>
                  <th scope="col">Position</th>
                  <th scope="col">Sentiment</th>
                  <th scope="col">Mentions</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((c) => (
                  <tr key={c.competitor_id} data-competitor={c.name}>
                    <th scope="row">
                      <BrandMark name={c.name} domain={iconDomain(c.icon_url)} color={c.is_own_brand ? 'var(--accent)' : undefined} />
                      {c.name} {c.is_own_brand ? <span class="tag">you</span> : null}
                      <br />
                      <span class="muted small">{c.website}</span>
                    </th>
                    <td data-value={c.metrics?.visibility ?? ''}>
                      {formatFigure(c.metrics?.visibility)}% <span class="muted small">{formatInterval(c.metrics?.visibility_ci)}</span>
                    </td>
                    <td>
                      {formatFigure(c.metrics?.share_of_voice)}% <span class="muted small">{formatInterval(c.metrics?.share_of_voice_ci)}</span>
                    </td>
                    <td>{formatFigure(c.metrics?.position)}</td>
                    <td>{formatFigure(c.metrics?.sentiment)}</td>
                    <td>{c.metrics?.mention_count ?? 0}</td>
                    <td class="row-actions">
                      {c.is_own_brand ? null : (
                        <>
                          <button
                            type="button"
                            class="secondary small"
                            disabled={!canWrite}
                            onClick={() => {
                              const name = prompt('New name', c.name);
                              if (name?.trim() && name !== c.name) write.mutate({ method: 'PATCH', path: `/projects/${projectId}/competitors/${c.competitor_id}`, body: { name: name.trim() } });
                            }}
                          >
                            Rename
                          </button>
                          <button
                            type="button"
                            class="danger small"
                            disabled={!canWrite}
                            onClick={() => confirm(`Stop tracking ${c.name}?`) && write.mutate({ method: 'DELETE', path: `/projects/${projectId}/competitors/${c.competitor_id}` })}
                          >
                            Remove
                          </button>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Section>
      {rows.length ? <Themes projectId={projectId} brands={rows} w={w} /> : null}
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
