import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { FirstDayBars, type Line, LineChart, Sparkline, lineTokens } from '../chart';
import { CsvButton } from '../csv';
import { ListTable } from '../list-table';
import { Link, useLocation } from '../router';
import { BrandMark, DeltaChip, type Direction, Empty, ErrorBox, Kpi, Section, formatInterval, formatFigure, formatPercent, iconDomain, measured } from '../ui';
import { DEFAULT_PROVIDERS, PROVIDER_NAMES, useWindow, type ViewWindow } from '../window';
import { type Competitor, type OverviewSummary, type Visibility, overviewQueries } from './overview-data';
import { ShareReport } from '../share-report';
import { Skeleton } from '../skeleton';
import { TopBar } from '../top-bar';
import { marketName, parseMarket } from '../markets';

export type { Competitor, Metrics } from './overview-data';

// The overview tells the story first (docs/dashboard.md, "Overview"): one sentence built
// from the figures, the own brand's cards, what changed significantly, the visibility
// chart (own brand in the accent, the top competitors muted), the rank table, the engines.
// Everything comes from the three reads of overview-data.ts (with GET /session, four).

/** Competitors drawn by default beside the own brand; the rest behind "Show all". */
export const TOP_COMPETITORS = 5;

const own = (list?: { active_competitors: Competitor[] } | null) => list?.active_competitors.find((activeCompetitor) => activeCompetitor.is_own_brand)?.metrics ?? null;
const diff = (current: number | null | undefined, previous: number | null | undefined) => (current === null || current === undefined || previous === null || previous === undefined ? null : current - previous);

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st. */
function ordinal(rank: number): string {
  const tens = rank % 100;
  if (tens >= 11 && tens <= 13) return `${rank}th`;
  return `${rank}${['th', 'st', 'nd', 'rd'][rank % 10] ?? 'th'}`;
}

/** The brands of the window, most visible first (the own brand among them), each with its rank (ties share one). */
function ranked(competitors: Competitor[]) {
  const sorted = [...competitors].sort((a, b) => (b.metrics?.visibility ?? -1) - (a.metrics?.visibility ?? -1) || Number(b.is_own_brand) - Number(a.is_own_brand));
  return sorted.map((competitor) => ({ ...competitor, rank: 1 + sorted.filter((other) => (other.metrics?.visibility ?? -1) > (competitor.metrics?.visibility ?? -1)).length }));
}

/** The window in words: "the last 30 days", or the dates of a custom one. */
const windowWords = (viewWindow: ViewWindow, custom: boolean) => (custom ? `${viewWindow.from} to ${viewWindow.to}` : `the last ${viewWindow.days} days`);
const previousWords = (viewWindow: ViewWindow, custom: boolean) => (custom ? `${viewWindow.prevFrom} to ${viewWindow.prevTo}` : `the previous ${viewWindow.days} days`);

/**
 * The one-line summary: "Visibility 54% (±1.9), up 6.0 points since the previous 30 days —
 * significant; you rank 1st of 11 brands." Built only from the figures on the page.
 */
function Story(props: { summary: OverviewSummary; w: ViewWindow; custom: boolean }) {
  const { summary, w: viewWindow, custom } = props;
  const ownNow = own(summary.current);
  if (!ownNow || ownNow.responses === 0) return null;
  const prev = own(summary.previous);
  const ownBefore = prev && prev.responses > 0 ? prev : null;
  const brands = ranked(summary.current.active_competitors);
  const rank = brands.find((brand) => brand.is_own_brand)?.rank ?? 1;
  const half = ownNow.visibility_ci ? (ownNow.visibility_ci[1] - ownNow.visibility_ci[0]) / 2 : null;
  const change = diff(ownNow.visibility, ownBefore?.visibility);
  const direction = summary.changes.own_brand.visibility;
  const significant = direction === 'up' || direction === 'down';
  return (
    <p class="story" data-story>
      Visibility <strong class="num">{formatFigure(ownNow.visibility, 0)}%</strong>
      {half !== null ? <span class="muted num"> (±{formatFigure(half, 1)})</span> : null}
      {change === null ? (
        <> over {windowWords(viewWindow, custom)}</>
      ) : (
        <>
          ,{' '}
          <span class={significant ? (change > 0 ? 'up' : 'down') : undefined}>
            {Math.abs(change) < 0.05 ? 'unchanged' : `${change > 0 ? 'up' : 'down'} ${formatFigure(Math.abs(change))} points`}
          </span>{' '}
          since {previousWords(viewWindow, custom)} — {significant ? 'significant' : 'inside the noise'}
        </>
      )}
      {viewWindow.market ? <> in {marketName(parseMarket(viewWindow.market))}</> : null}; you rank <strong>{ordinal(rank)}</strong> of {brands.length} brands.
    </p>
  );
}

/** Each KPI's daily values from the chart's series: the own brand's line, share of voice as its part of all brands' visibility. */
function dailyTrends(vis: Visibility | undefined) {
  const ownSeries = vis?.series.find((series) => series.is_own_brand);
  if (!vis || !ownSeries) return null;
  const shareOfVoice = vis.dates.map((_, i) => {
    const mine = ownSeries.visibility[i];
    const all = vis.series.reduce((sum, series) => sum + (series.visibility[i] ?? 0), 0);
    return mine === null || mine === undefined || all <= 0 ? null : (100 * mine) / all;
  });
  return { visibility: ownSeries.visibility, shareOfVoice, position: ownSeries.position, sentiment: ownSeries.sentiment };
}

interface ChangeLine {
  key: string;
  text: string;
  href: string;
  value: number;
  previous: number;
  direction: 'up' | 'down';
  /** A rise that is bad news for the own brand (a competitor rising). */
  upIsBad?: boolean;
}

/** "What changed": the significant movers only, each a line linking to its detail. */
function WhatChanged(props: { projectId: string; summary: OverviewSummary | undefined; hasPrevious: boolean; w: ViewWindow; custom: boolean }) {
  const { projectId, summary, w: viewWindow, custom } = props;
  if (!summary) return null;
  const changes = summary.changes;
  const groups: Array<{ title: string; lines: ChangeLine[] }> = [
    {
      title: 'Prompts won',
      lines: changes.prompts.filter((prompt) => prompt.direction === 'up').map((prompt) => ({ key: prompt.prompt_id, text: prompt.content, href: `/projects/${projectId}/prompts/${prompt.prompt_id}`, ...prompt })),
    },
    {
      title: 'Prompts lost',
      lines: changes.prompts.filter((prompt) => prompt.direction === 'down').map((prompt) => ({ key: prompt.prompt_id, text: prompt.content, href: `/projects/${projectId}/prompts/${prompt.prompt_id}`, ...prompt })),
    },
    {
      title: 'Competitors rising',
      lines: changes.competitors
        .filter((competitor) => competitor.direction === 'up')
        .map((competitor) => ({ key: competitor.competitor_id, text: competitor.name, href: `/projects/${projectId}/competitors`, upIsBad: true, ...competitor })),
    },
    {
      title: 'Sources gained',
      lines: changes.sources.filter((source) => source.direction === 'up').map((source) => ({ key: source.domain, text: source.domain, href: `/projects/${projectId}/sources`, ...source })),
    },
    {
      title: 'Sources lost',
      lines: changes.sources.filter((source) => source.direction === 'down').map((source) => ({ key: source.domain, text: source.domain, href: `/projects/${projectId}/sources`, ...source })),
    },
  ].filter((group) => group.lines.length > 0);
  if (!props.hasPrevious) return <Empty>Nothing to compare yet: the changes appear once {previousWords(viewWindow, custom)} has answers.</Empty>;
  if (!groups.length) return <Empty>No significant change against {previousWords(viewWindow, custom)}: every difference is inside the noise.</Empty>;
  return (
    <div data-changes>
      {groups.map((group) => (
        <div class="changes-group" key={group.title}>
          <h3>{group.title}</h3>
          <ul class="changes">
            {group.lines.map((line) => (
              <li key={line.key} data-change={group.title}>
                <Link class="what" href={line.href} title={line.text}>
                  {line.text}
                </Link>
                <span class="muted small num">
                  {formatFigure(line.previous, 0)}% → {formatFigure(line.value, 0)}%
                </span>
                <ChangeChip change={line.value - line.previous} goodWhenUp={!line.upIsBad} />
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

function ChangeChip({ change, goodWhenUp }: { change: number; goodWhenUp: boolean }) {
  const good = change > 0 === goodWhenUp;
  return (
    <span class={`delta ${good ? 'good' : 'bad'}`}>
      {change > 0 ? '+' : '−'}
      {formatFigure(Math.abs(change))} pts
    </span>
  );
}

export function Overview({ projectId }: { projectId: string }) {
  const viewWindow = useWindow();
  const custom = useLocation().query.has('from');
  const queries = overviewQueries(projectId, viewWindow);
  const project = useQuery(queries.project);
  const summary = useQuery(queries.summary);
  const vis = useQuery(queries.vis);
  const queryClient = useQueryClient();
  // the markets come with the summary: the top bar's market filter reads them from the cache
  useEffect(() => {
    if (summary.data) queryClient.setQueryData(['markets', projectId], summary.data.markets);
  }, [summary.data]);
  const [showAll, setShowAll] = useState(false);
  const now = summary.data?.current;
  const ownNow = own(now);
  // A previous window without answers has nothing to compare with (not a change from 0).
  const prevOwn = own(summary.data?.previous);
  const ownBefore = prevOwn && prevOwn.responses > 0 ? prevOwn : null;
  const ownChanges = summary.data?.changes.own_brand;
  const byProvider = summary.data?.by_provider ?? [];
  const modelChanges = summary.data?.model_changes ?? [];
  const markers = useMemo(
    () => modelChanges.map((change) => ({ date: change.day, label: `${PROVIDER_NAMES[change.provider] ?? change.provider}: ${change.from_model} → ${change.to_model}` })),
    [summary.data],
  );
  // No filter: the engines the project tracks (not every engine the API knows).
  const shown = summary.data ? byProvider.map((row) => row.provider) : viewWindow.providers.length ? viewWindow.providers : (project.data?.providers ?? [...DEFAULT_PROVIDERS]);
  const brands = useMemo(() => (now ? ranked(now.active_competitors) : []), [now]);
  // The chart's order: the own brand, then the competitors by this window's visibility
  // (the summary's, else each series' mean), so colours follow the rank table's.
  const allLines: Line[] = useMemo(() => {
    const series = vis.data?.series ?? [];
    const order = new Map(brands.map((brand, i) => [brand.competitor_id, i]));
    const mean = (values: Array<number | null>) => {
      const known = values.filter((value): value is number => value !== null);
      return known.length ? known.reduce((sum, value) => sum + value, 0) / known.length : -1;
    };
    return [...series]
      .sort((a, b) => Number(b.is_own_brand) - Number(a.is_own_brand) || (order.get(a.competitor_id) ?? 999) - (order.get(b.competitor_id) ?? 999) || mean(b.visibility) - mean(a.visibility))
      .map((series) => ({ label: series.name, values: series.visibility, band: series.visibility_ci, own: series.is_own_brand }));
  }, [vis.data, brands]);
  const hidden = Math.max(0, allLines.filter((line) => !line.own).length - TOP_COMPETITORS);
  const lines = useMemo(() => (showAll ? allLines : allLines.filter((line, i) => line.own || i <= TOP_COMPETITORS)), [allLines, showAll]);
  const tokens = lineTokens(allLines);
  const colorOf = new Map(allLines.map((line, i) => [line.label, `var(${tokens[i]})`]));
  const trends = useMemo(() => dailyTrends(vis.data), [vis.data]);
  const noAnswers = !!vis.data && vis.data.series.every((series) => series.responses.every((response) => !response));
  // Day one: the days that have any answer. A single such day is drawn as bars, not as a
  // dot at the right edge of a 30-day axis.
  const daysWithData = vis.data ? vis.data.dates.filter((_, i) => vis.data.series.some((series) => (series.responses[i] ?? 0) > 0)) : [];
  const previousOf = new Map((summary.data?.previous.active_competitors ?? []).map((activeCompetitor) => [activeCompetitor.competitor_id, activeCompetitor.metrics]));
  const significantOf = new Map((summary.data?.changes.competitors ?? []).map((competitor) => [competitor.competitor_id, competitor.direction]));
  // The page's main table, downloaded from the ranking and from the top bar.
  const rankingCsv = {
    filename: 'ranking.csv',
    header: ['rank', 'brand', 'own_brand', 'visibility', 'ci_low', 'ci_high', 'share_of_voice', 'position', 'previous_visibility', 'change'],
    rows: () =>
      brands.map((brand) => {
        const before = previousOf.get(brand.competitor_id);
        const prevVis = before && before.responses > 0 ? before.visibility : null;
        return [brand.rank, brand.name, brand.is_own_brand, brand.metrics?.visibility, brand.metrics?.visibility_ci?.[0], brand.metrics?.visibility_ci?.[1], brand.metrics?.share_of_voice, brand.metrics?.position, prevVis, diff(brand.metrics?.visibility, prevVis)];
      }),
  };
  if (project.error)
    return (
      <>
        <TopBar title="Project overview" />
        <ErrorBox error={project.error} />
      </>
    );
  const spark = (values: Array<number | null> | undefined, label: string, max?: number) =>
    values && values.filter((value) => value !== null).length > 1 ? <Sparkline values={values} label={label} max={max} width={96} height={28} /> : null;
  return (
    <>
      <TopBar
        title={<>{project.data?.name ?? 'Project'}: overview</>}
        filters
        actions={
          <>
            <ShareReport projectId={projectId} windowDays={viewWindow.days} />
            {brands.length ? <CsvButton {...rankingCsv} label="Download" /> : null}
          </>
        }
      />
      {summary.data ? <Story summary={summary.data} w={viewWindow} custom={custom} /> : null}
      {project.data?.bootstrap_status === 'initializing' ? (
        <p class="notice" role="status">
          The bootstrap is still running: figures appear as answers come in.
        </p>
      ) : null}
      {project.data?.bootstrap_status === 'error' ? (
        <p class="error" role="alert" data-bootstrap-error>
          The bootstrap failed: {project.data.bootstrap_error ?? 'no reason given'}
        </p>
      ) : null}
      <section class="kpi-section" aria-labelledby="own-brand-heading">
        <div class="card-head">
          <h2 id="own-brand-heading">
            Own brand <span class="muted small num">{viewWindow.from} to {viewWindow.to}</span>
          </h2>
          <div class="card-actions">
            {ownNow ? (
              <CsvButton
                filename="overview-kpis.csv"
                header={['metric', 'value', 'ci_low', 'ci_high', 'previous', 'change', 'significance']}
                rows={() => [
                  ['visibility', ownNow.visibility, ownNow.visibility_ci?.[0], ownNow.visibility_ci?.[1], ownBefore?.visibility, diff(ownNow.visibility, ownBefore?.visibility), ownChanges?.visibility],
                  ['share_of_voice', ownNow.share_of_voice, ownNow.share_of_voice_ci?.[0], ownNow.share_of_voice_ci?.[1], ownBefore?.share_of_voice, diff(ownNow.share_of_voice, ownBefore?.share_of_voice), ownChanges?.share_of_voice],
                  ['position', ownNow.position, ownNow.position_ci?.[0], ownNow.position_ci?.[1], ownBefore?.position, diff(ownNow.position, ownBefore?.position), ownChanges?.position],
                  ['sentiment', ownNow.sentiment, ownNow.sentiment_ci?.[0], ownNow.sentiment_ci?.[1], ownBefore?.sentiment, diff(ownNow.sentiment, ownBefore?.sentiment), ownChanges?.sentiment],
                ]}
              />
            ) : null}
          </div>
        </div>
        {summary.isPending ? <Skeleton shape="kpis" what="Loading the figures" /> : null}
        <ErrorBox error={summary.error} />
        {now && (!ownNow || ownNow.responses === 0) ? (
          <Empty>No answers in this window yet. Answers are collected every day for the active prompts; try a longer window or come back after the next run.</Empty>
        ) : null}
        {ownNow && ownNow.responses > 0 ? (
          <>
            <div class="kpis">
              <Kpi label="Visibility" unit="%" value={ownNow.visibility} interval={ownNow.visibility_ci} change={diff(ownNow.visibility, ownBefore?.visibility)} direction={ownChanges?.visibility} hideChange={!ownBefore} trend={spark(trends?.visibility, 'Daily visibility', 100)} />
              <Kpi label="Share of voice" unit="%" value={ownNow.share_of_voice} interval={ownNow.share_of_voice_ci} change={diff(ownNow.share_of_voice, ownBefore?.share_of_voice)} direction={ownChanges?.share_of_voice} hideChange={!ownBefore} trend={spark(trends?.shareOfVoice, 'Daily share of voice', 100)} />
              <Kpi label="Average position" emptyText="not named" value={ownNow.position} interval={ownNow.position_ci} change={diff(ownNow.position, ownBefore?.position)} direction={ownChanges?.position} hideChange={!ownBefore} lowerIsBetter trend={spark(trends?.position, 'Daily average position')} />
              <Kpi label="Sentiment" emptyText="not named" value={ownNow.sentiment} interval={ownNow.sentiment_ci} change={diff(ownNow.sentiment, ownBefore?.sentiment)} direction={ownChanges?.sentiment} hideChange={!ownBefore} trend={spark(trends?.sentiment, 'Daily sentiment', 100)} />
            </div>
            {ownBefore ? null : (
              <p class="muted small" data-no-previous>
                No earlier period to compare: the changes appear once {viewWindow.prevFrom} to {viewWindow.prevTo} has answers.
              </p>
            )}
          </>
        ) : null}
      </section>
      <div class="overview-grid">
        <Section
          title="Visibility over time"
          actions={
            vis.data ? (
              <CsvButton
                filename="visibility.csv"
                header={['date', 'brand', 'visibility', 'ci_low', 'ci_high', 'responses']}
                rows={() => vis.data.series.flatMap((series) => vis.data.dates.map((date, i) => [date, series.name, series.visibility[i], series.visibility_ci[i]?.[0], series.visibility_ci[i]?.[1], series.responses[i]]))}
              />
            ) : null
          }
        >
          {vis.isPending ? <Skeleton shape="chart" what="Loading the chart" /> : null}
          <ErrorBox error={vis.error} />
          {noAnswers ? <Empty>No answers in this window yet: the chart appears with the first answers.</Empty> : null}
          {vis.data && lines.length && !noAnswers ? (
            <>
              {daysWithData.length === 1 ? (
                <FirstDayBars title="Visibility over time" date={daysWithData[0] ?? ''} dates={vis.data.dates} lines={lines} unit="%" />
              ) : (
                <>
                  <div class="legend-toggle" data-legend>
                    {lines.map((line) => (
                      <span key={line.label} class={line.own ? 'legend-item own' : 'legend-item'}>
                        <span class="legend-swatch" style={{ background: colorOf.get(line.label) }} />
                        {line.label}
                      </span>
                    ))}
                    {hidden > 0 ? (
                      <button type="button" class="secondary small" aria-pressed={showAll} data-show-all onClick={() => setShowAll(!showAll)}>
                        {showAll ? `Show top ${TOP_COMPETITORS}` : `Show all (${hidden} more)`}
                      </button>
                    ) : null}
                  </div>
                  <LineChart title="Visibility over time" dates={vis.data.dates} lines={lines} yLabel="%" yRange={[0, 100]} legend={false} markers={markers} />
                  {markers.length ? (
                    <ul class="model-changes small muted" data-model-changes>
                      {modelChanges.map((change, i) => (
                        <li key={`${change.provider}-${change.day}`} data-model-change={change.provider}>
                          <span class="model-change-day">{change.day}</span> {markers[i]?.label}: a change on this day may be the engine's, not yours
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </>
              )}
              <details>
                <summary>Summary table</summary>
                <ListTable
                  name="visibility-summary"
                  label="Visibility summary"
                  rows={vis.data.series.map((series) => {
                    const idx = series.visibility.map((value, i) => (value === null ? -1 : i)).filter((i) => i >= 0);
                    return { series, days: idx.length, last: idx.length ? idx[idx.length - 1] : -1 };
                  })}
                  rowKey={(row) => row.series.competitor_id}
                  rowAttributes={(row) => ({ 'data-brand': row.series.name })}
                  rowHeader="brand"
                  columns={[
                    { key: 'brand', header: 'Brand', cell: (row) => row.series.name },
                    { key: 'days', header: 'Days with answers', numeric: true, cell: (row) => row.days },
                    { key: 'last-day', header: 'Last day', cell: (row) => (row.last >= 0 ? vis.data.dates[row.last] : '–') },
                    {
                      key: 'last-visibility',
                      header: 'Last visibility',
                      numeric: true,
                      cellAttributes: (row) => ({ 'data-value': row.last >= 0 ? (row.series.visibility[row.last] ?? '') : '' }),
                      cell: (row) => (row.last >= 0 ? `${formatFigure(row.series.visibility[row.last])}% (${formatInterval(row.series.visibility_ci[row.last])})` : '–'),
                    },
                  ]}
                />
              </details>
            </>
          ) : null}
        </Section>
        <Section title="What changed">
          {summary.isPending ? <Skeleton shape="lines" what="Loading the changes" /> : null}
          <WhatChanged projectId={projectId} summary={summary.data} hasPrevious={!!ownBefore} w={viewWindow} custom={custom} />
        </Section>
      </div>
      <Section
        title="Ranking"
        actions={
          brands.length ? (
            <CsvButton {...rankingCsv} />
          ) : null
        }
      >
        {summary.isPending ? <Skeleton shape="table" what="Loading the ranking" /> : null}
        {brands.length && ownNow && ownNow.responses > 0 ? (
          <ListTable
            name="rank"
            label="Ranking"
            tableClass="rank-table"
            rows={brands}
            rowKey={(brand) => brand.competitor_id}
            rowHeader="brand"
            rowClass={(brand) => (brand.is_own_brand ? 'own' : undefined)}
            highlight={(brand) => brand.is_own_brand}
            rowAttributes={(brand) => ({ 'data-brand': brand.name, 'data-rank': brand.rank })}
            columns={[
              { key: 'rank', header: 'Rank', numeric: true, className: 'rank', headerClass: 'rank', cell: (brand) => brand.rank },
              {
                key: 'brand',
                header: 'Brand',
                cell: (brand) => (
                  <>
                    <BrandMark name={brand.name} domain={iconDomain(brand.icon_url)} color={colorOf.get(brand.name) ?? 'var(--cat-other)'} />
                    {brand.name}
                    {brand.is_own_brand ? <span class="visually-hidden"> (your brand)</span> : null}
                  </>
                ),
              },
              {
                key: 'visibility',
                header: 'Visibility',
                cellAttributes: (brand) => ({ 'data-value': brand.metrics?.visibility ?? '' }),
                cell: (brand) => (
                  <span class="vis-cell">
                    <span class="vis-track" aria-hidden="true">
                      <span class="vis-fill" style={{ width: `${Math.max(0, Math.min(100, brand.metrics?.visibility ?? 0))}%` }} />
                    </span>
                    <span class="num">{formatPercent(measured(brand.metrics)?.visibility)}</span>
                  </span>
                ),
              },
              { key: 'share', header: 'Share of voice', numeric: true, cell: (brand) => formatPercent(measured(brand.metrics)?.share_of_voice) },
              { key: 'position', header: 'Position', numeric: true, cell: (brand) => formatFigure(brand.metrics?.position) },
              {
                key: 'change',
                header: 'Change',
                cell: (brand) => {
                  const before = previousOf.get(brand.competitor_id);
                  const prevVis = before && before.responses > 0 ? before.visibility : null;
                  const direction: Direction = brand.is_own_brand ? (ownChanges?.visibility ?? null) : (significantOf.get(brand.competitor_id) ?? (prevVis === null ? null : 'stable'));
                  return prevVis === null ? (
                    <span class="muted small">–</span>
                  ) : (
                    // A competitor's rise is bad news for the own brand: the chip's colour says so.
                    <DeltaChip change={diff(brand.metrics?.visibility, prevVis)} direction={direction} unit="%" lowerIsBetter={!brand.is_own_brand} />
                  );
                },
              },
            ]}
          />
        ) : summary.data ? (
          <Empty>The ranking appears with the first answers.</Empty>
        ) : null}
      </Section>
      <Section
        title="By engine"
        actions={
          <CsvButton
            filename="providers.csv"
            header={['provider', 'visibility', 'ci_low', 'ci_high', 'share_of_voice', 'position', 'sentiment', 'responses']}
            rows={() =>
              byProvider.map((row) => {
                const provider = row.provider;
                const pm2 = row.own_brand;
                return [provider, pm2?.visibility, pm2?.visibility_ci?.[0], pm2?.visibility_ci?.[1], pm2?.share_of_voice, pm2?.position, pm2?.sentiment, pm2?.responses];
              })
            }
          />
        }
      >
        <ListTable
          name="providers"
          label="By engine"
          rows={shown.map((provider) => ({ provider, x: byProvider.find((row) => row.provider === provider)?.own_brand }))}
          rowKey={(row) => row.provider}
          rowHeader="engine"
          rowAttributes={(row) => ({ 'data-provider': row.provider })}
          // Until the summary is read, each engine's row says so (or shows the error) across its figures.
          rowMessage={() => (summary.isPending ? <span class="muted">Loading…</span> : summary.error ? <ErrorBox error={summary.error} /> : null)}
          columns={[
            { key: 'engine', header: 'Engine', cell: (row) => PROVIDER_NAMES[row.provider] ?? row.provider },
            {
              key: 'visibility',
              header: 'Visibility',
              cellAttributes: ({ x }) => ({ 'data-value': x?.visibility ?? '' }),
              cell: ({ x }) =>
                x && x.responses > 0 ? (
                  <span class="vis-cell">
                    <span class="vis-track" aria-hidden="true">
                      <span class="vis-fill own-fill" style={{ width: `${Math.max(0, Math.min(100, x.visibility ?? 0))}%` }} />
                    </span>
                    <span class="num">
                      {formatPercent(x.visibility)} <span class="muted small">{formatInterval(x.visibility_ci)}</span>
                    </span>
                  </span>
                ) : (
                  <span class="muted">unmeasured</span>
                ),
            },
            { key: 'share', header: 'Share of voice', numeric: true, cell: ({ x }) => formatPercent(x && x.responses > 0 ? x.share_of_voice : null) },
            { key: 'position', header: 'Position', numeric: true, cell: ({ x }) => formatFigure(x?.position) },
            { key: 'sentiment', header: 'Sentiment', numeric: true, cell: ({ x }) => formatFigure(x?.sentiment) },
            { key: 'answers', header: 'Answers', numeric: true, cell: ({ x }) => x?.responses ?? 0 },
          ]}
        />
      </Section>
    </>
  );
}
