import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'preact/hooks';
import { get } from '../api';
import { AnswerArticle, useTrackedBrands } from '../answer';
import type { Data } from '../api-types';
import { type Line, LineChart } from '../chart';
import { CsvButton } from '../csv';
import { ListTable } from '../list-table';
import { Empty, ErrorBox, Loading, Section } from '../ui';
import { PROVIDER_NAMES, useWindow } from '../window';
import { TopBar } from '../top-bar';

type Analytics = Data<'/v1/projects/{project_id}/prompts/{prompt_id}/analytics'>;

export function PromptDetail({ projectId, promptId }: { projectId: string; promptId: string }) {
  const viewWindow = useWindow();
  const base = `/projects/${projectId}/prompts/${promptId}`;
  const analytics = useQuery({ queryKey: ['prompt-analytics', promptId, viewWindow.query], queryFn: () => get<Analytics>(`${base}/analytics${viewWindow.query}`) });
  const chats = useQuery({ queryKey: ['chats', promptId, viewWindow.query], queryFn: () => get<Data<'/v1/projects/{project_id}/prompts/{prompt_id}/chats'>>(`${base}/chats${viewWindow.query}${viewWindow.query ? '&' : '?'}page_size=20`) });
  const urls = useQuery({ queryKey: ['urls', promptId, viewWindow.query], queryFn: () => get<Data<'/v1/projects/{project_id}/prompts/{prompt_id}/urls'>>(`${base}/urls${viewWindow.query}`) });
  const brands = useTrackedBrands(projectId);
  const chart = useMemo(() => {
    const byDate = analytics.data?.visibility_chart ?? {};
    const dates = Object.keys(byDate).sort();
    const providers = [...new Set(dates.flatMap((date) => byDate[date].map((point) => point.provider)))].sort();
    const lines: Line[] = providers.map((engine) => ({
      label: PROVIDER_NAMES[engine] ?? engine,
      values: dates.map((date) => byDate[date].find((point) => point.provider === engine)?.value ?? null),
      band: dates.map((date) => byDate[date].find((point) => point.provider === engine)?.ci ?? null),
    }));
    return { dates, lines, providers };
  }, [analytics.data]);
  return (
    <>
      <TopBar title={<>Prompt: {analytics.data?.prompt_content ?? '…'}</>} filters />
      <Section
        title="Visibility by provider"
        actions={
          <CsvButton
            filename="prompt-visibility.csv"
            header={['date', 'provider', 'visibility', 'ci_low', 'ci_high', 'responses']}
            rows={() => chart.dates.flatMap((date) => (analytics.data?.visibility_chart[date] ?? []).map((point) => [date, point.provider, point.value, point.ci?.[0], point.ci?.[1], point.n]))}
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
        {chats.data?.items.map((chat) => (
          <AnswerArticle key={chat.id} chat={chat} brands={brands} />
        ))}
      </Section>
      <Section
        title="Cited URLs"
        actions={<CsvButton filename="prompt-urls.csv" header={['url', 'title', 'domain', 'category', 'mentioned_count']} rows={() => (urls.data?.items ?? []).map((url) => [url.url, url.title, url.domain, url.url_type_name, url.mentioned_count])} />}
      >
        <ErrorBox error={urls.error} />
        {urls.data ? (
          <ListTable
            name="cited-urls"
            label="Cited URLs"
            rows={urls.data.items}
            rowKey={(url) => url.url}
            empty="No citations in this window."
            columns={[
              {
                key: 'url',
                header: 'URL',
                className: 'wrap',
                cell: (url) => (
                  <>
                    {url.title || url.url}
                    <br />
                    <span class="muted small">{url.url}</span>
                  </>
                ),
              },
              { key: 'category', header: 'Category', cell: (url) => url.url_type_name },
              { key: 'citations', header: 'Citations', numeric: true, cell: (url) => url.mentioned_count },
            ]}
          />
        ) : null}
      </Section>
    </>
  );
}
