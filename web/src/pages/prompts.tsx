import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'preact/hooks';
import { data, get } from '../api';
import type { Data, Schemas } from '../api-types';
import { Sparkline } from '../chart';
import { CsvButton } from '../csv';
import { Link } from '../router';
import { useCanWrite } from '../session';
import { Empty, ErrorBox, Field, Loading, Section, formatFigure } from '../ui';
import { WindowControls, useWindow } from '../window';
import { type Topic, Topics } from './topics';

type Series = Schemas['PromptSeries'];
type SortKey = 'content' | 'topic' | 'prompt_type' | 'visibility' | 'position' | 'sentiment';

export function Prompts({ projectId }: { projectId: string }) {
  const w = useWindow();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const list = useQuery({ queryKey: ['prompts', projectId, w.query], queryFn: () => get<Data<'/v1/projects/{project_id}/prompts'>>(`/projects/${projectId}/prompts${w.query}`) });
  const topics = useQuery({ queryKey: ['topics', projectId], queryFn: () => get<Topic[]>(`/projects/${projectId}/topics`) });
  // One request for every prompt's daily visibility (the sparklines), after the table.
  const series = useQuery({
    queryKey: ['prompts', projectId, 'series', w.query],
    queryFn: () => get<Series>(`/projects/${projectId}/prompts/series${w.query}`),
    enabled: !!list.data,
  });
  const seriesOf = new Map((series.data?.prompts ?? []).map((s) => [s.prompt_id, s]));
  const counts = new Map<string, number>();
  for (const p of list.data?.prompts ?? []) if (p.topic_id) counts.set(p.topic_id, (counts.get(p.topic_id) ?? 0) + 1);
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: 'visibility', desc: true });
  const [filter, setFilter] = useState({ text: '', topic: '', type: '' });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['prompts', projectId] });
  const write = useMutation({
    mutationFn: (x: { method: string; path: string; body?: unknown }) => data(x.method, x.path, x.body),
    onSuccess: refresh,
  });
  const topicName = (id: string | null) => topics.data?.find((t) => t.topic_id === id)?.name ?? '–';
  const rows = (list.data?.prompts ?? [])
    .filter((p) => (!filter.text || p.content.toLowerCase().includes(filter.text.toLowerCase())) && (!filter.topic || p.topic_id === filter.topic) && (!filter.type || p.prompt_type === filter.type))
    .sort((a, b) => {
      const va = sort.key === 'topic' ? topicName(a.topic_id) : a[sort.key];
      const vb = sort.key === 'topic' ? topicName(b.topic_id) : b[sort.key];
      const c = va === vb ? 0 : va === null ? 1 : vb === null ? -1 : va < vb ? -1 : 1;
      return sort.desc ? -c : c;
    });
  const th = (key: SortKey, label: string) => (
    <th scope="col" aria-sort={sort.key === key ? (sort.desc ? 'descending' : 'ascending') : 'none'}>
      <button type="button" class="sort" onClick={() => setSort({ key, desc: sort.key === key ? !sort.desc : key !== 'content' && key !== 'topic' })}>
        {label}
        {sort.key === key ? (sort.desc ? ' ▼' : ' ▲') : ''}
      </button>
    </th>
  );
  const add = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const prompts = String(f.get('prompts')).split('\n').map((s) => s.trim()).filter(Boolean);
    write.mutate({ method: 'POST', path: `/projects/${projectId}/prompts`, body: { prompts, topicId: String(f.get('topic')) } }, { onSuccess: () => form.reset() });
  };
  return (
    <>
      <h1>Prompts</h1>
      <WindowControls />
      <Section
        title="Prompts"
        actions={
          <CsvButton
            filename="prompts.csv"
            header={['id', 'content', 'topic', 'prompt_type', 'visibility', 'position', 'sentiment', 'trend', 'daily_visibility']}
            rows={() =>
              rows.map((p) => [p.id, p.content, topicName(p.topic_id), p.prompt_type, p.visibility, p.position, p.sentiment, p.trend, seriesOf.get(p.id)?.visibility.map((v) => v ?? '').join(' ')])
            }
          />
        }
      >
        <fieldset class="controls" aria-label="Filters">
          <label class="inline">
            <span>Search</span>
            <input type="search" value={filter.text} onInput={(e) => setFilter({ ...filter, text: (e.currentTarget as HTMLInputElement).value })} />
          </label>
          <label class="inline">
            <span>Topic</span>
            <select value={filter.topic} onChange={(e) => setFilter({ ...filter, topic: (e.currentTarget as HTMLSelectElement).value })}>
              <option value="">All</option>
              {topics.data?.map((t) => (
                <option key={t.topic_id} value={t.topic_id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
          <label class="inline">
            <span>Type</span>
            <select value={filter.type} onChange={(e) => setFilter({ ...filter, type: (e.currentTarget as HTMLSelectElement).value })}>
              <option value="">All</option>
              <option value="active">Active</option>
              <option value="inactive">Inactive</option>
              <option value="suggested">Suggested</option>
            </select>
          </label>
        </fieldset>
        {list.isPending ? <Loading /> : null}
        <ErrorBox error={list.error} />
        <ErrorBox error={write.error} />
        <ErrorBox error={series.error} />
        {list.data && rows.length === 0 ? <Empty>No prompt matches.</Empty> : null}
        {rows.length ? (
          <div class="table-wrap">
            <table data-table="prompts">
              <thead>
                <tr>
                  {th('content', 'Prompt')}
                  {th('topic', 'Topic')}
                  {th('prompt_type', 'Type')}
                  {th('visibility', 'Visibility')}
                  <th scope="col" title={series.data ? `${series.data.dates[0]} to ${series.data.dates[series.data.dates.length - 1]}, 0–100%` : undefined}>
                    Daily visibility
                  </th>
                  {th('position', 'Position')}
                  {th('sentiment', 'Sentiment')}
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((p) => (
                  <tr key={p.id} data-prompt={p.id}>
                    <td>
                      <Link href={`/projects/${projectId}/prompts/${p.id}${location.search}`}>{p.content}</Link>
                    </td>
                    <td>
                      <select
                        aria-label={`Topic of ${p.content}`}
                        value={p.topic_id ?? ''}
                        disabled={!canWrite || write.isPending}
                        onChange={(e) => {
                          const topicId = (e.currentTarget as HTMLSelectElement).value;
                          if (topicId && topicId !== p.topic_id) write.mutate({ method: 'PATCH', path: `/projects/${projectId}/prompts/${p.id}`, body: { topicId } });
                        }}
                      >
                        {p.topic_id ? null : <option value="">–</option>}
                        {topics.data?.map((t) => (
                          <option key={t.topic_id} value={t.topic_id}>
                            {t.name}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td>{p.prompt_type}</td>
                    <td>
                      {formatFigure(p.visibility)}% {p.trend === 'up' ? '↑' : p.trend === 'down' ? '↓' : ''}
                    </td>
                    <td>
                      {seriesOf.get(p.id) ? (
                        <Sparkline values={seriesOf.get(p.id)!.visibility} label={`Daily visibility of ${p.content}`} max={100} />
                      ) : series.isPending ? (
                        <span class="muted">…</span>
                      ) : null}
                    </td>
                    <td>{formatFigure(p.position)}</td>
                    <td>{formatFigure(p.sentiment, 0)}</td>
                    <td class="row-actions">
                      <button
                        type="button"
                        class="secondary small"
                        disabled={!canWrite}
                        onClick={() => write.mutate({ method: 'PATCH', path: `/projects/${projectId}/prompts/${p.id}`, body: { promptType: p.prompt_type === 'active' ? 'Inactive' : 'Active' } })}
                      >
                        {p.prompt_type === 'active' ? 'Deactivate' : 'Activate'}
                      </button>
                      <button
                        type="button"
                        class="secondary small"
                        disabled={!canWrite}
                        onClick={() => {
                          const next = prompt('Edit the prompt', p.content);
                          if (next?.trim() && next !== p.content) write.mutate({ method: 'PATCH', path: `/projects/${projectId}/prompts/${p.id}`, body: { content: next } });
                        }}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        class="danger small"
                        disabled={!canWrite}
                        onClick={() => confirm(`Delete “${p.content}” and its history?`) && write.mutate({ method: 'DELETE', path: `/projects/${projectId}/prompts/${p.id}` })}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Section>
      <Topics projectId={projectId} topics={topics.data ?? []} counts={counts} />
      <Section title="Add prompts">
        <form onSubmit={add} aria-label="Add prompts">
          <fieldset disabled={!canWrite}>
            <Field label="New prompts" hint="One per line, up to 50.">
              <textarea name="prompts" rows={3} required />
            </Field>
            <Field label="Prompt topic">
              <select name="topic" required>
                {topics.data?.map((t) => (
                  <option key={t.topic_id} value={t.topic_id}>
                    {t.name}
                  </option>
                ))}
              </select>
            </Field>
            <button type="submit" disabled={write.isPending || !topics.data?.length}>
              Add prompts
            </button>
          </fieldset>
        </form>
        {!canWrite ? <p class="muted">Read-only session: prompts are changed by an admin.</p> : null}
      </Section>
    </>
  );
}
