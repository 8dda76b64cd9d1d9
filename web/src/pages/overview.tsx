import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'preact/hooks';
import { FirstDayBars, type Line, LineChart } from '../chart';
import { CsvButton } from '../csv';
import { ShareReport } from '../share-report';
import { Empty, ErrorBox, Kpi, Loading, Section, TableWrap, ci, fmt } from '../ui';
import { DEFAULT_PROVIDERS, PROVIDER_NAMES, WindowControls, useWindow } from '../window';
import { type Competitor, overviewQueries } from './overview-data';

export type { Competitor, Metrics } from './overview-data';

const own = (list?: { active_competitors: Competitor[] } | null) => list?.active_competitors.find((c) => c.is_own_brand)?.metrics ?? null;
const diff = (a: number | null | undefined, b: number | null | undefined) => (a === null || a === undefined || b === null || b === undefined ? null : a - b);

export function Overview({ projectId }: { projectId: string }) {
  const w = useWindow();
  const oq = overviewQueries(projectId, w);
  const project = useQuery(oq.project);
  const summary = useQuery(oq.summary);
  const vis = useQuery(oq.vis);
  const now = summary.data?.current;
  const m = own(now);
  // A previous window without answers has nothing to compare with (not a change from 0).
  const prevOwn = own(summary.data?.previous);
  const pm = prevOwn && prevOwn.responses > 0 ? prevOwn : null;
  const byProvider = summary.data?.by_provider ?? [];
  // No filter: the engines the project tracks (not every engine the API knows).
  const shown = summary.data ? byProvider.map((r) => r.provider) : w.providers.length ? w.providers : (project.data?.providers ?? [...DEFAULT_PROVIDERS]);
  const lines: Line[] = useMemo(
    () => (vis.data?.series ?? []).map((s) => ({ label: s.name, values: s.visibility, band: s.visibility_ci })),
    [vis.data],
  );
  const noAnswers = !!vis.data && vis.data.series.every((s) => s.responses.every((n) => !n));
  // Day one: the days that have any answer. A single such day is drawn as bars, not as a
  // dot at the right edge of a 30-day axis.
  const daysWithData = vis.data ? vis.data.dates.filter((_, i) => vis.data.series.some((s) => (s.responses[i] ?? 0) > 0)) : [];
  if (project.error)
    return (
      <>
        <h1>Project overview</h1>
        <ErrorBox error={project.error} />
      </>
    );
  return (
    <>
      <h1>{project.data?.name ?? 'Project'}: overview</h1>
      <ShareReport projectId={projectId} windowDays={w.days} />
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
      <WindowControls />
      <Section
        title={`Own brand, ${w.from} to ${w.to}`}
        actions={
          m ? (
            <CsvButton
              filename="overview-kpis.csv"
              header={['metric', 'value', 'ci_low', 'ci_high', 'previous', 'change']}
              rows={() => [
                ['visibility', m.visibility, m.visibility_ci?.[0], m.visibility_ci?.[1], pm?.visibility, diff(m.visibility, pm?.visibility)],
                ['share_of_voice', m.share_of_voice, m.share_of_voice_ci?.[0], m.share_of_voice_ci?.[1], pm?.share_of_voice, diff(m.share_of_voice, pm?.share_of_voice)],
                ['position', m.position, m.position_ci?.[0], m.position_ci?.[1], pm?.position, diff(m.position, pm?.position)],
                ['sentiment', m.sentiment, m.sentiment_ci?.[0], m.sentiment_ci?.[1], pm?.sentiment, diff(m.sentiment, pm?.sentiment)],
              ]}
            />
          ) : null
        }
      >
        {summary.isPending ? <Loading /> : null}
        <ErrorBox error={summary.error} />
        {now && (!m || m.responses === 0) ? (
          <Empty>No answers in this window yet. Answers are collected every day for the active prompts; try a longer window or come back after the next run.</Empty>
        ) : null}
        {m && m.responses > 0 ? (
          <>
            <div class="kpis">
              <Kpi label="Visibility" unit="%" value={m.visibility} interval={m.visibility_ci} change={diff(m.visibility, pm?.visibility)} hideChange={!pm} />
              <Kpi label="Share of voice" unit="%" value={m.share_of_voice} interval={m.share_of_voice_ci} change={diff(m.share_of_voice, pm?.share_of_voice)} hideChange={!pm} />
              <Kpi label="Average position" value={m.position} interval={m.position_ci} change={diff(m.position, pm?.position)} hideChange={!pm} lowerIsBetter />
              <Kpi label="Sentiment" value={m.sentiment} interval={m.sentiment_ci} change={diff(m.sentiment, pm?.sentiment)} hideChange={!pm} />
            </div>
            {pm ? null : (
              <p class="muted small" data-no-previous>
                No earlier period to compare: the changes appear once {w.prevFrom} to {w.prevTo} has answers.
              </p>
            )}
          </>
        ) : null}
      </Section>
      <Section
        title="Visibility over time"
        actions={
          vis.data ? (
            <CsvButton
              filename="visibility.csv"
              header={['date', 'brand', 'visibility', 'ci_low', 'ci_high', 'responses']}
              rows={() => vis.data.series.flatMap((s) => vis.data.dates.map((d, i) => [d, s.name, s.visibility[i], s.visibility_ci[i]?.[0], s.visibility_ci[i]?.[1], s.responses[i]]))}
            />
          ) : null
        }
      >
        {vis.isPending ? <Loading /> : null}
        <ErrorBox error={vis.error} />
        {noAnswers ? <Empty>No answers in this window yet: the chart appears with the first answers.</Empty> : null}
        {vis.data && lines.length && !noAnswers ? (
          <>
            {daysWithData.length === 1 ? (
              <FirstDayBars title="Visibility over time" date={daysWithData[0] ?? ''} dates={vis.data.dates} lines={lines} unit="%" />
            ) : (
              <LineChart title="Visibility over time" dates={vis.data.dates} lines={lines} yLabel="%" yRange={[0, 100]} />
            )}
            <details>
              <summary>Summary table</summary>
              <TableWrap label="Visibility summary">
                <table data-table="visibility-summary">
                  <thead>
                    <tr>
                      <th scope="col">Brand</th>
                      <th scope="col">Days with answers</th>
                      <th scope="col">Last day</th>
                      <th scope="col">Last visibility</th>
                    </tr>
                  </thead>
                  <tbody>
                    {vis.data.series.map((s) => {
                      const idx = s.visibility.map((v, i) => (v === null ? -1 : i)).filter((i) => i >= 0);
                      const last = idx.length ? idx[idx.length - 1] : -1;
                      return (
                        <tr key={s.competitor_id} data-brand={s.name}>
                          <th scope="row">{s.name}</th>
                          <td>{idx.length}</td>
                          <td>{last >= 0 ? vis.data.dates[last] : '–'}</td>
                          <td data-value={last >= 0 ? s.visibility[last] : ''}>
                            {last >= 0 ? `${fmt(s.visibility[last])}% (${ci(s.visibility_ci[last])})` : '–'}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </TableWrap>
            </details>
          </>
        ) : null}
      </Section>
      <Section
        title="By provider"
        actions={
          <CsvButton
            filename="providers.csv"
            header={['provider', 'visibility', 'ci_low', 'ci_high', 'share_of_voice', 'position', 'sentiment', 'responses']}
            rows={() =>
              byProvider.map((r) => {
                const p = r.provider;
                const pm2 = r.own_brand;
                return [p, pm2?.visibility, pm2?.visibility_ci?.[0], pm2?.visibility_ci?.[1], pm2?.share_of_voice, pm2?.position, pm2?.sentiment, pm2?.responses];
              })
            }
          />
        }
      >
        <TableWrap label="By provider">
          <table data-table="providers">
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Visibility</th>
                <th scope="col">Share of voice</th>
                <th scope="col">Position</th>
                <th scope="col">Sentiment</th>
                <th scope="col">Answers</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((p) => {
                const x = byProvider.find((r) => r.provider === p)?.own_brand;
                return (
                  <tr key={p} data-provider={p}>
                    <th scope="row">{PROVIDER_NAMES[p] ?? p}</th>
                    {summary.isPending ? (
                      <td colSpan={5} class="muted">
                        Loading…
                      </td>
                    ) : summary.error ? (
                      <td colSpan={5}>
                        <ErrorBox error={summary.error} />
                      </td>
                    ) : (
                      <>
                        <td data-value={x?.visibility ?? ''}>
                          {x && x.responses > 0 ? (
                            <>
                              {fmt(x.visibility)}% <span class="muted small">{ci(x.visibility_ci)}</span>
                            </>
                          ) : (
                            <span class="muted">unmeasured</span>
                          )}
                        </td>
                        <td>{x && x.responses > 0 ? `${fmt(x.share_of_voice)}%` : '–'}</td>
                        <td>{fmt(x?.position)}</td>
                        <td>{fmt(x?.sentiment)}</td>
                        <td>{x?.responses ?? 0}</td>
                      </>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableWrap>
      </Section>
    </>
  );
}
