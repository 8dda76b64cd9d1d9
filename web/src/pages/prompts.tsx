import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'preact/hooks';
import { data, get } from '../api';
import { CsvButton } from '../csv';
import { Link } from '../router';
import { useCanWrite } from '../session';
import { Empty, ErrorBox, Field, Loading, Section, fmt } from '../ui';
import { WindowControls, useWindow } from '../window';

interface Prompt {
  id: string;
  content: string;
  prompt_type: string;
  topic_id: string | null;
  country: string | null;
  visibility: number | null;
  sentiment: number | null;
  position: number | null;
  trend: 'up' | 'down' | 'stable' | null;
}
interface Topic {
  topic_id: string;
  name: string;
}
type SortKey = 'content' | 'topic' | 'prompt_type' | 'visibility' | 'position' | 'sentiment';

export function Prompts({ projectId }: { projectId: string }) {
  const w = useWindow();
  const qc = useQueryClient();
  const canWrite = useCanWrite();
  const list = useQuery({ queryKey: ['prompts', projectId, w.query], queryFn: () => get<{ prompts: Prompt[] }>(`/projects/${projectId}/prompts${w.query}`) });
  const topics = useQuery({ queryKey: ['topics', projectId], queryFn: () => get<Topic[]>(`/projects/${projectId}/topics`) });
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: 'visibility', desc: true });
  const [filter, setFilter] = useState({ text: '', topic: '', type: '' });
  const refresh = () => qc.invalidateQueries({ queryKey: ['prompts', projectId] });
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
            header={['id', 'content', 'topic', 'prompt_type', 'visibility', 'position', 'sentiment', 'trend']}
            rows={() => rows.map((p) => [p.id, p.content, topicName(p.topic_id), p.prompt_type, p.visibility, p.position, p.sentiment, p.trend])}
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
                    <td>{topicName(p.topic_id)}</td>
                    <td>{p.prompt_type}</td>
                    <td>
                      {fmt(p.visibility)}% {p.trend === 'up' ? '↑' : p.trend === 'down' ? '↓' : ''}
                    </td>
                    <td>{fmt(p.position)}</td>
                    <td>{fmt(p.sentiment, 0)}</td>
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
