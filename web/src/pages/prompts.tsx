import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'preact/hooks';
import { data, get } from '../api';
import type { Data, Schemas } from '../api-types';
import { Sparkline } from '../chart';
import { CsvButton } from '../csv';
import { Link } from '../router';
import { useCanWrite } from '../session';
import { type Column, ListTable, type SortState, sortRows } from '../list-table';
import { ErrorBox, Field, Loading, Section, formatFigure, formatPercent, } from '../ui';
import { useWindow } from '../window';
import { TopBar } from '../top-bar';
import { type Topic, Topics } from './topics';

type Series = Schemas['PromptSeries'];
type Prompt = Data<'/v1/projects/{project_id}/prompts'>['prompts'][number];

export function Prompts({ projectId }: { projectId: string }) {
  const viewWindow = useWindow();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const list = useQuery({ queryKey: ['prompts', projectId, viewWindow.query], queryFn: () => get<Data<'/v1/projects/{project_id}/prompts'>>(`/projects/${projectId}/prompts${viewWindow.query}`) });
  const topics = useQuery({ queryKey: ['topics', projectId], queryFn: () => get<Topic[]>(`/projects/${projectId}/topics`) });
  // One request for every prompt's daily visibility (the sparklines), after the table.
  const series = useQuery({
    queryKey: ['prompts', projectId, 'series', viewWindow.query],
    queryFn: () => get<Series>(`/projects/${projectId}/prompts/series${viewWindow.query}`),
    enabled: !!list.data,
  });
  const seriesOf = new Map((series.data?.prompts ?? []).map((prompt) => [prompt.prompt_id, prompt]));
  const counts = new Map<string, number>();
  for (const prompt of list.data?.prompts ?? []) if (prompt.topic_id) counts.set(prompt.topic_id, (counts.get(prompt.topic_id) ?? 0) + 1);
  const [sort, setSort] = useState<SortState>({ key: 'visibility', desc: true });
  const [filter, setFilter] = useState({ text: '', topic: '', type: '' });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['prompts', projectId] });
  const write = useMutation({
    mutationFn: (x: { method: string; path: string; body?: unknown }) => data(x.method, x.path, x.body),
    onSuccess: refresh,
  });
  const topicName = (id: string | null) => topics.data?.find((topic) => topic.topic_id === id)?.name ?? '–';
  const filtered = (list.data?.prompts ?? []).filter(
    (prompt) => (!filter.text || prompt.content.toLowerCase().includes(filter.text.toLowerCase())) && (!filter.topic || prompt.topic_id === filter.topic) && (!filter.type || prompt.prompt_type === filter.type),
  );
  const columns: Array<Column<Prompt>> = [
    { key: 'content', header: 'Prompt', sortValue: (row) => row.content, cell: (row) => <Link href={`/projects/${projectId}/prompts/${row.id}${location.search}`}>{row.content}</Link> },
    {
      key: 'topic',
      header: 'Topic',
      sortValue: (row) => topicName(row.topic_id),
      cell: (row) => (
        <select
          aria-label={`Topic of ${row.content}`}
          value={row.topic_id ?? ''}
          disabled={!canWrite || write.isPending}
          onChange={(event) => {
            const topicId = (event.currentTarget as HTMLSelectElement).value;
            if (topicId && topicId !== row.topic_id) write.mutate({ method: 'PATCH', path: `/projects/${projectId}/prompts/${row.id}`, body: { topicId } });
          }}
        >
          {row.topic_id ? null : <option value="">–</option>}
          {topics.data?.map((topic) => (
            <option key={topic.topic_id} value={topic.topic_id}>
              {topic.name}
            </option>
          ))}
        </select>
      ),
    },
    // As before: every column but the prompt and its topic starts with the highest first.
    { key: 'prompt_type', header: 'Type', sortValue: (row) => row.prompt_type, firstSort: 'descending', cell: (row) => row.prompt_type },
    {
      key: 'visibility',
      header: 'Visibility',
      numeric: true,
      sortValue: (row) => row.visibility,
      cell: (row) => `${formatPercent(row.visibility)} ${row.trend === 'up' ? '↑' : row.trend === 'down' ? '↓' : ''}`,
    },
    {
      key: 'daily',
      header: 'Daily visibility',
      headerTitle: series.data ? `${series.data.dates[0]} to ${series.data.dates[series.data.dates.length - 1]}, 0–100%` : undefined,
      cell: (row) =>
        seriesOf.get(row.id) ? (
          <Sparkline values={seriesOf.get(row.id)!.visibility} label={`Daily visibility of ${row.content}`} max={100} />
        ) : series.isPending ? (
          <span class="muted">…</span>
        ) : null,
    },
    { key: 'position', header: 'Position', numeric: true, sortValue: (row) => row.position, cell: (row) => formatFigure(row.position) },
    { key: 'sentiment', header: 'Sentiment', numeric: true, sortValue: (row) => row.sentiment, cell: (row) => formatFigure(row.sentiment, 0) },
    {
      key: 'actions',
      header: 'Actions',
      className: 'row-actions',
      cell: (row) => (
        <>
          <button
            type="button"
            class="secondary small"
            disabled={!canWrite}
            onClick={() => write.mutate({ method: 'PATCH', path: `/projects/${projectId}/prompts/${row.id}`, body: { promptType: row.prompt_type === 'active' ? 'Inactive' : 'Active' } })}
          >
            {row.prompt_type === 'active' ? 'Deactivate' : 'Activate'}
          </button>
          <button
            type="button"
            class="secondary small"
            disabled={!canWrite}
            onClick={() => {
              const next = prompt('Edit the prompt', row.content);
              if (next?.trim() && next !== row.content) write.mutate({ method: 'PATCH', path: `/projects/${projectId}/prompts/${row.id}`, body: { content: next } });
            }}
          >
            Edit
          </button>
          <button
            type="button"
            class="danger small"
            disabled={!canWrite}
            onClick={() => confirm(`Delete “${row.content}” and its history?`) && write.mutate({ method: 'DELETE', path: `/projects/${projectId}/prompts/${row.id}` })}
          >
            Delete
          </button>
        </>
      ),
    },
  ];
  // The table's order is the CSV's order: one sort, kept here.
  const rows = sortRows(filtered, columns, sort);
  const add = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const formData = new FormData(form);
    const prompts = String(formData.get('prompts')).split('\n').map((line) => line.trim()).filter(Boolean);
    write.mutate({ method: 'POST', path: `/projects/${projectId}/prompts`, body: { prompts, topicId: String(formData.get('topic')) } }, { onSuccess: () => form.reset() });
  };
  return (
    <>
      <TopBar title="Prompts" filters />
      <Section
        title="Prompts"
        actions={
          <CsvButton
            filename="prompts.csv"
            header={['id', 'content', 'topic', 'prompt_type', 'visibility', 'position', 'sentiment', 'trend', 'daily_visibility']}
            rows={() =>
              rows.map((row) => [row.id, row.content, topicName(row.topic_id), row.prompt_type, row.visibility, row.position, row.sentiment, row.trend, seriesOf.get(row.id)?.visibility.map((value) => value ?? '').join(' ')])
            }
          />
        }
      >
        <fieldset class="controls" aria-label="Filters">
          <label class="inline">
            <span>Search</span>
            <input type="search" value={filter.text} onInput={(event) => setFilter({ ...filter, text: (event.currentTarget as HTMLInputElement).value })} />
          </label>
          <label class="inline">
            <span>Topic</span>
            <select value={filter.topic} onChange={(event) => setFilter({ ...filter, topic: (event.currentTarget as HTMLSelectElement).value })}>
              <option value="">All</option>
              {topics.data?.map((topic) => (
                <option key={topic.topic_id} value={topic.topic_id}>
                  {topic.name}
                </option>
              ))}
            </select>
          </label>
          <label class="inline">
            <span>Type</span>
            <select value={filter.type} onChange={(event) => setFilter({ ...filter, type: (event.currentTarget as HTMLSelectElement).value })}>
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
        {list.data ? (
          <ListTable
            name="prompts"
            label="Prompts"
            columns={columns}
            rows={filtered}
            rowKey={(row) => row.id}
            rowAttributes={(row) => ({ 'data-prompt': row.id })}
            sort={sort}
            onSort={setSort}
            empty="No prompt matches."
          />
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
                {topics.data?.map((topic) => (
                  <option key={topic.topic_id} value={topic.topic_id}>
                    {topic.name}
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
