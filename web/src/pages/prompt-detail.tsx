import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'preact/hooks';
import { get } from '../api';
import { AnswerArticle, useTrackedBrands } from '../answer';
import type { Data } from '../api-types';
import { type Line, LineChart } from '../chart';
import { CsvButton } from '../csv';
import { Empty, ErrorBox, Loading, Section, TableWrap } from '../ui';
import { PROVIDER_NAMES, WindowControls, useWindow } from '../window';

type Analytics = Data<'/v1/projects/{project_id}/prompts/{prompt_id}/analytics'>;

export function PromptDetail({ projectId, promptId }: { projectId: string; promptId: string }) {
  const w = useWindow();
  const base = `/projects/${projectId}/prompts/${promptId}`;
  const analytics = useQuery({ queryKey: ['prompt-analytics', promptId, w.query], queryFn: () => get<Analytics>(`${base}/analytics${w.query}`) });
  const chats = useQuery({ queryKey: ['chats', promptId, w.query], queryFn: () => get<Data<'/v1/projects/{project_id}/prompts/{prompt_id}/chats'>>(`${base}/chats${w.query}${w.query ? '&' : '?'}page_size=20`) });
  const urls = useQuery({ queryKey: ['urls', promptId, w.query], queryFn: () => get<Data<'/v1/projects/{project_id}/prompts/{prompt_id}/urls'>>(`${base}/urls${w.query}`) });
  const brands = useTrackedBrands(projectId);
  const chart = useMemo(() => {
    const v = analytics.data?.visibility_chart ?? {};
    const dates = Object.keys(v).sort();
    const providers = [...new Set(dates.flatMap((d) => v[d].map((m) => m.provider)))].sort();
    const lines: Line[] = providers.map((p) => ({
      label: PROVIDER_NAMES[p] ?? p,
      values: dates.map((d) => v[d].find((m) => m.provider === p)?.value ?? null),
      band: dates.map((d) => v[d].find((m) => m.provider === p)?.ci ?? null),
    }));
    return { dates, lines, providers };
  }, [analytics.data]);
  return (
    <>
      <h1>Prompt: {analytics.data?.prompt_content ?? '…'}</h1>
      <WindowControls />
      <Section
        title="Visibility by provider"
        actions={
          <CsvButton
            filename="prompt-visibility.csv"
            header={['date', 'provider', 'visibility', 'ci_low', 'ci_high', 'responses']}
            rows={() => chart.dates.flatMap((d) => (analytics.data?.visibility_chart[d] ?? []).map((m) => [d, m.provider, m.value, m.ci?.[0], m.ci?.[1], m.n]))}
          />
        }
      >
        {analytics.isPending ? <Loading /> : null}
        <ErrorBox error={analytics.error} />
        {analytics.data && chart.dates.length === 0 ? <Empty>No answers in this window yet.</Empty> : null}
        {chart.dates.length ? <LineChart title="Prompt visibility by provider" dates={chart.dates} lines={chart.lines} yLabel="%" yRange={[0, 100]} /> : null}
      </Section>
      <Section title="Answers">
        {chats.isPending ? <Loading /> : null}
        <ErrorBox error={chats.error} />
        {chats.data?.items.length === 0 ? <Empty>No answers in this window yet.</Empty> : null}
        {chats.data?.items.map((c) => (
          <AnswerArticle key={c.id} chat={c} brands={brands} />
        ))}
      </Section>
      <Section
        title="Cited URLs"
        actions={<CsvButton filename="prompt-urls.csv" header={['url', 'title', 'domain', 'category', 'mentioned_count']} rows={() => (urls.data?.items ?? []).map((u) => [u.url, u.title, u.domain, u.url_type_name, u.mentioned_count])} />}
      >
        <ErrorBox error={urls.error} />
        {urls.data?.items.length === 0 ? <Empty>No citations in this window.</Empty> : null}
        {urls.data?.items.length ? (
          <TableWrap label="Cited URLs">
            <table>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Category</th>
                  <th scope="col">Citations</th>
                </tr>
              </thead>
              <tbody>
                {urls.data.items.map((u) => (
                  <tr key={u.url}>
                    <td class="wrap">{u.title || u.url}<br /><span class="muted small">{u.url}</span></td>
                    <td>{u.url_type_name}</td>
                    <td>{u.mentioned_count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        ) : null}
      </Section>
    </>
  );
}
