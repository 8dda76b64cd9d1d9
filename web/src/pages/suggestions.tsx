import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'preact/hooks';
import { data, get } from '../api';
import type { Data } from '../api-types';
import { CsvButton } from '../csv';
import { useCanWrite } from '../session';
import { Empty, ErrorBox, Loading, Section, formatFigure } from '../ui';
import { useWindow } from '../window';

type Suggestions = Data<'/v1/projects/{project_id}/competitors/suggestions'>;

/**
 * Brands that recur in the window's answers and are not tracked (extension endpoint
 * /competitors/suggestions), each added in one click with the site its answers cite; a
 * brand no answer cites a site for asks for one first.
 */
export function Suggestions({ projectId, onAdded }: { projectId: string; onAdded: () => void }) {
  const w = useWindow();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const [sites, setSites] = useState<Record<string, string>>({});
  const q = useQuery({ queryKey: ['competitors', projectId, 'suggestions', w.query], queryFn: () => get<Suggestions>(`/projects/${projectId}/competitors/suggestions${w.query}`) });
  const add = useMutation({
    mutationFn: (c: { name: string; website: string }) => data('POST', `/projects/${projectId}/competitors`, { competitors: [c] }),
    onSuccess: () => {
      onAdded();
      void queryClient.invalidateQueries({ queryKey: ['competitors', projectId] });
    },
  });
  const rows = q.data?.suggestions ?? [];
  return (
    <Section
      title="Suggested competitors"
      actions={
        <CsvButton
          filename="competitor-suggestions.csv"
          label="Download suggestions (CSV)"
          header={['name', 'website', 'answers', 'mentions', 'share_of_answers']}
          rows={() => rows.map((s) => [s.name, s.website, s.answers, s.mentions, s.share_of_answers])}
        />
      }
    >
      <p class="muted small">Brands named in the answers of this window that you do not track yet, most named first.</p>
      {q.isPending ? <Loading /> : null}
      <ErrorBox error={q.error} />
      <ErrorBox error={add.error} />
      {q.data && rows.length === 0 ? <Empty>No untracked brand recurs in these answers.</Empty> : null}
      {rows.length ? (
        <div class="table-wrap">
          <table data-table="suggestions" class="suggestions">
            <thead>
              <tr>
                <th scope="col">Brand</th>
                <th scope="col">Website</th>
                <th scope="col">Answers naming it</th>
                <th scope="col">Mentions</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => {
                const site = s.website ?? sites[s.name] ?? '';
                return (
                  <tr key={s.name} data-suggestion={s.name}>
                    <th scope="row">{s.name}</th>
                    <td>
                      {s.website ?? (
                        <input
                          aria-label={`Website of ${s.name}`}
                          placeholder="brand.com"
                          value={sites[s.name] ?? ''}
                          onInput={(e) => setSites({ ...sites, [s.name]: (e.currentTarget as HTMLInputElement).value })}
                        />
                      )}
                    </td>
                    <td data-value={s.share_of_answers}>
                      {s.answers} ({formatFigure(s.share_of_answers)}% of {q.data?.answers_read})
                    </td>
                    <td>{s.mentions}</td>
                    <td class="actions">
                      <button
                        type="button"
                        class="small"
                        aria-label={`Track ${s.name}`}
                        disabled={!canWrite || add.isPending || !site.trim()}
                        onClick={() => add.mutate({ name: s.name, website: site.trim() })}
                      >
                        Track
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      {q.data && q.data.answers_read < q.data.answers_in_window ? (
        <p class="muted small">
          Read the newest {q.data.answers_read} of the window's {q.data.answers_in_window} answers.
        </p>
      ) : null}
    </Section>
  );
}
