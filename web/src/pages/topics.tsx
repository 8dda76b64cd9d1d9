import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'preact/hooks';
import { data } from '../api';
import type { Schemas } from '../api-types';
import { CsvButton } from '../csv';
import { useCanWrite } from '../session';
import { Empty, ErrorBox, Field, Section } from '../ui';

export type Topic = Schemas['Topic'];

/**
 * The project's topics (extension routes /projects/{id}/topics): create, rename in place,
 * delete. A topic that holds prompts is deleted with move_to: Delete first asks where its
 * prompts go.
 */
export function Topics({ projectId, topics, counts }: { projectId: string; topics: Topic[]; counts: Map<string, number> }) {
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [moveTo, setMoveTo] = useState<Record<string, string>>({});
  const write = useMutation({
    mutationFn: (x: { method: string; path: string; body?: unknown }) => data(x.method, x.path, x.body),
    onSuccess: () => {
      setEditing(null);
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: ['topics', projectId] });
      void queryClient.invalidateQueries({ queryKey: ['prompts', projectId] });
    },
  });
  const base = `/projects/${projectId}/topics`;
  const add = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const name = String(new FormData(form).get('name') ?? '').trim();
    if (name) write.mutate({ method: 'POST', path: base, body: { name } }, { onSuccess: () => form.reset() });
  };
  const rename = (t: Topic) => (e: Event) => {
    e.preventDefault();
    const name = String(new FormData(e.currentTarget as HTMLFormElement).get('name') ?? '').trim();
    if (name && name !== t.name) write.mutate({ method: 'PATCH', path: `${base}/${t.topic_id}`, body: { name } });
    else setEditing(null);
  };
  const remove = (t: Topic) => {
    const held = counts.get(t.topic_id) ?? 0;
    const target = moveTo[t.topic_id] ?? topics.find((o) => o.topic_id !== t.topic_id)?.topic_id;
    const q = held > 0 && target ? `?move_to=${target}` : '';
    write.mutate({ method: 'DELETE', path: `${base}/${t.topic_id}${q}` });
  };
  return (
    <Section
      title="Topics"
      actions={<CsvButton filename="topics.csv" label="Download topics (CSV)" header={['topic_id', 'name', 'prompts']} rows={() => topics.map((t) => [t.topic_id, t.name, counts.get(t.topic_id) ?? 0])} />}
    >
      <ErrorBox error={write.error} />
      {topics.length === 0 ? <Empty>No topic yet: add one below.</Empty> : null}
      {topics.length ? (
        <div class="table-wrap">
          <table data-table="topics" class="topics">
            <thead>
              <tr>
                <th scope="col">Topic</th>
                <th scope="col">Prompts</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {topics.map((t) => {
                const held = counts.get(t.topic_id) ?? 0;
                const others = topics.filter((o) => o.topic_id !== t.topic_id);
                return (
                  <tr key={t.topic_id} data-topic={t.name}>
                    <th scope="row">
                      {editing === t.topic_id ? (
                        <form onSubmit={rename(t)} class="inline-form" aria-label={`Rename ${t.name}`}>
                          <input name="name" defaultValue={t.name} aria-label={`New name for ${t.name}`} required maxLength={200} />
                          <button type="submit" class="small">
                            Save
                          </button>
                          <button type="button" class="secondary small" onClick={() => setEditing(null)}>
                            Cancel
                          </button>
                        </form>
                      ) : (
                        t.name
                      )}
                    </th>
                    <td>{held}</td>
                    <td class="actions row-actions">
                      <button type="button" class="secondary small" disabled={!canWrite} onClick={() => setEditing(t.topic_id)}>
                        Rename
                      </button>
                      {deleting === t.topic_id ? (
                        <fieldset class="inline small" aria-label={`Delete ${t.name}`}>
                          <label class="inline">
                            <span>
                              Move its {held} prompt{held === 1 ? '' : 's'} to
                            </span>
                            <select
                              value={moveTo[t.topic_id] ?? others[0]?.topic_id}
                              onChange={(e) => setMoveTo({ ...moveTo, [t.topic_id]: (e.currentTarget as HTMLSelectElement).value })}
                            >
                              {others.map((o) => (
                                <option key={o.topic_id} value={o.topic_id}>
                                  {o.name}
                                </option>
                              ))}
                            </select>
                          </label>
                          <button type="button" class="danger small" onClick={() => remove(t)}>
                            Move and delete
                          </button>
                          <button type="button" class="secondary small" onClick={() => setDeleting(null)}>
                            Cancel
                          </button>
                        </fieldset>
                      ) : (
                        <button
                          type="button"
                          class="danger small"
                          aria-label={`Delete topic ${t.name}`}
                          // the last topic holding prompts has nowhere to move them (the API says 409)
                          disabled={!canWrite || (held > 0 && others.length === 0)}
                          onClick={() => (held > 0 ? setDeleting(t.topic_id) : remove(t))}
                        >
                          Delete
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      <form onSubmit={add} class="grid-form" aria-label="Add a topic">
        <fieldset disabled={!canWrite}>
          <Field label="Topic name">
            <input name="name" required maxLength={200} />
          </Field>
          <button type="submit" disabled={write.isPending}>
            Add topic
          </button>
        </fieldset>
      </form>
    </Section>
  );
}
