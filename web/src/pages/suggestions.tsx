import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'preact/hooks';
import { data, get } from '../api';
import type { Data } from '../api-types';
import { CsvButton } from '../csv';
import { useCanWrite } from '../session';
import { ListTable } from '../list-table';
import { ErrorBox, Loading, Section, formatFigure } from '../ui';
import { useWindow } from '../window';

type Suggestions = Data<'/v1/projects/{project_id}/competitors/suggestions'>;

/**
 * Brands that recur in the window's answers and are not tracked (extension endpoint
 * /competitors/suggestions), each added in one click with the site its answers cite; a
 * brand no answer cites a site for asks for one first.
 */
export function Suggestions({ projectId, onAdded }: { projectId: string; onAdded: () => void }) {
  const viewWindow = useWindow();
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const [sites, setSites] = useState<Record<string, string>>({});
  const competitorsQuery = useQuery({ queryKey: ['competitors', projectId, 'suggestions', viewWindow.query], queryFn: () => get<Suggestions>(`/projects/${projectId}/competitors/suggestions${viewWindow.query}`) });
  const add = useMutation({
    mutationFn: (competitor: { name: string; website: string }) => data('POST', `/projects/${projectId}/competitors`, { competitors: [competitor] }),
    onSuccess: () => {
      onAdded();
      void queryClient.invalidateQueries({ queryKey: ['competitors', projectId] });
    },
  });
  const rows = competitorsQuery.data?.suggestions ?? [];
  return (
    <Section
      title="Suggested competitors"
      actions={
        <CsvButton
          filename="competitor-suggestions.csv"
          label="Download suggestions (CSV)"
          header={['name', 'website', 'answers', 'mentions', 'share_of_answers']}
          rows={() => rows.map((row) => [row.name, row.website, row.answers, row.mentions, row.share_of_answers])}
        />
      }
    >
      <p class="muted small">Brands named in the answers of this window that you do not track yet, most named first.</p>
      {competitorsQuery.isPending ? <Loading /> : null}
      <ErrorBox error={competitorsQuery.error} />
      <ErrorBox error={add.error} />
      {competitorsQuery.data ? (
        <ListTable
          name="suggestions"
          label="Suggested competitors"
          tableClass="suggestions"
          rows={rows}
          rowKey={(row) => row.name}
          rowHeader="brand"
          rowAttributes={(row) => ({ 'data-suggestion': row.name })}
          empty="No untracked brand recurs in these answers."
          columns={[
            { key: 'brand', header: 'Brand', cell: (row) => row.name },
            {
              key: 'website',
              header: 'Website',
              cell: (row) =>
                row.website ?? (
                  <input
                    aria-label={`Website of ${row.name}`}
                    placeholder="brand.com"
                    value={sites[row.name] ?? ''}
                    onInput={(event) => setSites({ ...sites, [row.name]: (event.currentTarget as HTMLInputElement).value })}
                  />
                ),
            },
            {
              key: 'answers',
              header: 'Answers naming it',
              numeric: true,
              cellAttributes: (row) => ({ 'data-value': row.share_of_answers }),
              cell: (row) => `${row.answers} (${formatFigure(row.share_of_answers)}% of ${competitorsQuery.data?.answers_read})`,
            },
            { key: 'mentions', header: 'Mentions', numeric: true, cell: (row) => row.mentions },
            {
              key: 'actions',
              header: 'Actions',
              className: 'actions',
              cell: (row) => {
                const site = row.website ?? sites[row.name] ?? '';
                return (
                  <button type="button" class="small" aria-label={`Track ${row.name}`} disabled={!canWrite || add.isPending || !site.trim()} onClick={() => add.mutate({ name: row.name, website: site.trim() })}>
                    Track
                  </button>
                );
              },
            },
          ]}
        />
      ) : null}
      {competitorsQuery.data && competitorsQuery.data.answers_read < competitorsQuery.data.answers_in_window ? (
        <p class="muted small">
          Read the newest {competitorsQuery.data.answers_read} of the window's {competitorsQuery.data.answers_in_window} answers.
        </p>
      ) : null}
    </Section>
  );
}
