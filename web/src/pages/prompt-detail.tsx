import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'preact/hooks';
import { data, get } from '../api';
import { AnswerArticle, useTrackedBrands } from '../answer';
import type { Data } from '../api-types';
import { type Line, LineChart } from '../chart';
import { CsvButton } from '../csv';
import { ListTable } from '../list-table';
import { Empty, ErrorBox, Field, Loading, Section } from '../ui';
import { PROVIDER_NAMES, useWindow } from '../window';
import { TopBar } from '../top-bar';
import { marketName } from '../markets';
import { useCanWrite } from '../session';

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
      <PromptMarkets projectId={projectId} promptId={promptId} />
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

type PromptRecord = Data<'/v1/projects/{project_id}/prompts/{prompt_id}'>;

/** `US-en, de-DE` → the markets the API takes; null when a part is not COUNTRY-language. */
function parseMarkets(text: string): Array<{ country: string; language: string }> | null {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  const markets = parts.map((part) => /^([A-Za-z]{2})-([A-Za-z]{2,3})$/.exec(part));
  if (parts.length === 0 || markets.some((match) => !match)) return null;
  return markets.map((match) => ({ country: match![1].toUpperCase(), language: match![2].toLowerCase() }));
}

/**
 * Where the prompt is asked and for whom: its markets (each a series of its own) and the
 * persona sent with it; an admin edits both here.
 */
function PromptMarkets({ projectId, promptId }: { projectId: string; promptId: string }) {
  const path = `/projects/${projectId}/prompts/${promptId}`;
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const prompt = useQuery({ queryKey: ['prompt', promptId], queryFn: () => get<PromptRecord>(path) });
  const [editing, setEditing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: unknown) => data('PATCH', path, body),
    onSuccess: () => {
      setEditing(false);
      queryClient.invalidateQueries({ queryKey: ['prompt', promptId] });
      queryClient.invalidateQueries({ queryKey: ['markets', projectId] });
    },
  });
  if (!prompt.data) return <ErrorBox error={prompt.error} />;
  const record = prompt.data;
  const codes = record.markets.map((market) => `${market.country}-${market.language}`).join(', ');
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const markets = parseMarkets(String(form.get('markets') ?? ''));
    if (!markets) return setProblem('Write each market as a country and a language code, such as US-en, DE-de.');
    setProblem(null);
    const persona = String(form.get('persona') ?? '').trim();
    save.mutate({ markets, persona: persona || null });
  };
  return (
    <Section title="Markets and persona" actions={canWrite && !editing ? <button type="button" class="secondary" onClick={() => setEditing(true)}>Edit</button> : null}>
      {editing ? (
        <form class="grid-form" onSubmit={onSubmit} aria-label="Markets and persona" data-prompt-markets-form>
          <Field label="Markets" hint="Country and language codes, comma-separated (US-en, DE-de). Each market is asked and counted on its own.">
            <input name="markets" defaultValue={codes} required />
          </Field>
          <Field label="Persona (optional)" hint="Sent as the asker's context to the engines that take one.">
            <input name="persona" maxLength={500} defaultValue={record.persona ?? ''} placeholder="A procurement lead at a 200-person firm" />
          </Field>
          {problem ? (
            <p class="error" role="alert">
              {problem}
            </p>
          ) : null}
          <ErrorBox error={save.error} />
          <button type="submit" disabled={save.isPending}>
            Save
          </button>
          <button type="button" class="secondary" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <dl class="facts" data-prompt-markets>
          <dt>Markets</dt>
          <dd>{record.markets.map((market) => `${marketName(market)} (${market.country}-${market.language})`).join(', ')}</dd>
          <dt>Persona</dt>
          <dd>{record.persona ?? <span class="muted">None: the engines answer an anonymous asker.</span>}</dd>
        </dl>
      )}
    </Section>
  );
}
