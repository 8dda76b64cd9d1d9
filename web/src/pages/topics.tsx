import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'preact/hooks';
import { data } from '../api';
import type { Schemas } from '../api-types';
import { CsvButton } from '../csv';
import { useCanWrite } from '../session';
import { ListTable } from '../list-table';
import { ErrorBox, Field, Section } from '../ui';

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
  const add = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const name = String(new FormData(form).get('name') ?? '').trim();
    if (name) write.mutate({ method: 'POST', path: base, body: { name } }, { onSuccess: () => form.reset() });
  };
  const rename = (topic: Topic) => (event: Event) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget as HTMLFormElement).get('name') ?? '').trim();
    if (name && name !== topic.name) write.mutate({ method: 'PATCH', path: `${base}/${topic.topic_id}`, body: { name } });
    else setEditing(null);
  };
  const remove = (topic: Topic) => {
    const held = counts.get(topic.topic_id) ?? 0;
    const target = moveTo[topic.topic_id] ?? topics.find((otherTopic) => otherTopic.topic_id !== topic.topic_id)?.topic_id;
    const search = held > 0 && target ? `?move_to=${target}` : '';
    write.mutate({ method: 'DELETE', path: `${base}/${topic.topic_id}${search}` });
  };
  return (
    <Section
      title="Topics"
      actions={<CsvButton filename="topics.csv" label="Download topics (CSV)" header={['topic_id', 'name', 'prompts']} rows={() => topics.map((topic) => [topic.topic_id, topic.name, counts.get(topic.topic_id) ?? 0])} />}
    >
      <ErrorBox error={write.error} />
      <ListTable
        name="topics"
        label="Topics"
        tableClass="topics"
        rows={topics}
        rowKey={(topic) => topic.topic_id}
        rowHeader="topic"
        rowAttributes={(topic) => ({ 'data-topic': topic.name })}
        empty="No topic yet: add one below."
        columns={[
          {
            key: 'topic',
            header: 'Topic',
            cell: (topic) =>
              editing === topic.topic_id ? (
                <form onSubmit={rename(topic)} class="inline-form" aria-label={`Rename ${topic.name}`}>
                  <input name="name" defaultValue={topic.name} aria-label={`New name for ${topic.name}`} required maxLength={200} />
                  <button type="submit" class="small">
                    Save
                  </button>
                  <button type="button" class="secondary small" onClick={() => setEditing(null)}>
                    Cancel
                  </button>
                </form>
              ) : (
                topic.name
              ),
          },
          { key: 'prompts', header: 'Prompts', numeric: true, cell: (topic) => counts.get(topic.topic_id) ?? 0 },
          {
            key: 'actions',
            header: 'Actions',
            className: 'actions row-actions',
            cell: (topic) => {
              const held = counts.get(topic.topic_id) ?? 0;
              const others = topics.filter((otherTopic) => otherTopic.topic_id !== topic.topic_id);
              return (
                <>
                  <button type="button" class="secondary small" disabled={!canWrite} onClick={() => setEditing(topic.topic_id)}>
                    Rename
                  </button>
                  {deleting === topic.topic_id ? (
                    <fieldset class="inline small" aria-label={`Delete ${topic.name}`}>
                      <label class="inline">
                        <span>
                          Move its {held} prompt{held === 1 ? '' : 's'} to
                        </span>
                        <select
                          value={moveTo[topic.topic_id] ?? others[0]?.topic_id}
                          onChange={(event) => setMoveTo({ ...moveTo, [topic.topic_id]: (event.currentTarget as HTMLSelectElement).value })}
                        >
                          {others.map((other) => (
                            <option key={other.topic_id} value={other.topic_id}>
                              {other.name}
                            </option>
                          ))}
                        </select>
                      </label>
                      <button type="button" class="danger small" onClick={() => remove(topic)}>
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
                      aria-label={`Delete topic ${topic.name}`}
                      // the last topic holding prompts has nowhere to move them (the API says 409)
                      disabled={!canWrite || (held > 0 && others.length === 0)}
                      onClick={() => (held > 0 ? setDeleting(topic.topic_id) : remove(topic))}
                    >
                      Delete
                    </button>
                  )}
                </>
              );
            },
          },
        ]}
      />
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
