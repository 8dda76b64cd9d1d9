import type { ServiceContext } from '../context.js';
import { stableUuid } from '../lib/crypto.js';
import { planOf } from '../lib/plans.js';
import { utcDay } from '../lib/time.js';
import { alertsEvaluateJob, refreshJob } from '../jobs/catalog.js';
import { loadProjectWithPlan } from '../modules/projects/project-row.js';
import { promptSumsAndBrands } from '../modules/rollups/prompt-reads.js';
import { addDays } from '../modules/analytics/window.js';
import { adaptiveSampleCounts, EVIDENCE_DAYS, type PromptEvidence } from './adaptive-sampling.js';
import { collectAnswers, projectProviders, seriesOf, type RunTally, type Series } from './collect.js';
import type { Market } from '../lib/markets.js';

export type RefreshKind = 'daily' | 'manual' | 'new_prompts';

/**
 * One collection run of a project: every active prompt (or the given ones) × every
 * provider the project tracks × each of the project's samples, for one UTC day, within the
 * team's credits. The samples are capped by the plan in force at run time, so a team moved
 * to a smaller plan never pays for more than that plan allows.
 */
export async function runRefresh(
  ctx: ServiceContext,
  input: { projectId: string; day: string; runId: string; kind: RefreshKind; promptIds?: string[] },
): Promise<RunTally | null> {
  const project = await loadProjectWithPlan(ctx.store, input.projectId);
  if (!project) return null;
  const { rows: prompts } = await ctx.store.query<{ id: string; country: string | null; markets: Market[] | null }>(
    `select id, country, markets from prompts where project_id = $1 and prompt_type = 'active'
        and ($2::uuid[] is null or id = any($2::uuid[]))
      order by created_at, id`,
    [project.id, input.promptIds ?? null],
  );
  await ctx.store.query(
    `insert into collection_runs (id, project_id, kind, day) values ($1, $2, $3, $4) on conflict do nothing`,
    [input.runId, project.id, input.kind, input.day],
  );
  const providers = projectProviders(ctx, project);
  const maxSamples = planOf(project.plan).samplesPerRun;
  const samples = Math.max(1, Math.min(project.samples_per_run, maxSamples));
  // Each prompt in each of its markets is a series of its own, with its own samples.
  const series = seriesOf(prompts, project);
  const perSeries =
    project.sampling === 'adaptive'
      ? adaptiveSampleCounts(await seriesEvidence(ctx, project.id, series, input.day), providers.length, samples, maxSamples, project.sampling_margin)
      : new Map(series.map((s) => [seriesKey(s), samples]));
  const most = Math.max(0, ...perSeries.values());
  // Sample by sample: when credits run short, every (series, provider) gets its first answer
  // before any gets a second (credits are granted in this order).
  const keys = Array.from({ length: most }, (_, i) => i + 1).flatMap((sample) =>
    series
      .filter((s) => (perSeries.get(seriesKey(s)) ?? 1) >= sample)
      .flatMap((s) => providers.map((provider) => ({ promptId: s.promptId, market: s.market, provider, day: input.day, sample }))),
  );
  const tally = await collectAnswers(ctx, project, keys, input.runId);
  // The run is over: its alerts are evaluated apart, so a failing rule never fails the run.
  // One evaluation per run (a fixed job id); a rerun that stores nothing new changes no figure.
  await ctx.jobs.send(alertsEvaluateJob, { projectId: project.id, day: input.day, runId: input.runId }, { id: stableUuid('alerts-evaluate', input.runId) });
  return tally;
}

const seriesKey = (s: Series) => `${s.promptId}|${s.market}`;

/** The run's series' answers and mentions over the EVIDENCE_DAYS before the run's day, every engine (a series is planned under seriesKey). */
async function seriesEvidence(ctx: ServiceContext, projectId: string, series: Series[], day: string): Promise<PromptEvidence[]> {
  const to = addDays(day, -1);
  const window = { from: addDays(to, 1 - EVIDENCE_DAYS), to };
  const byMarket = new Map<string, Awaited<ReturnType<typeof promptSumsAndBrands>>>();
  for (const market of new Set(series.map((s) => s.market))) byMarket.set(market, await promptSumsAndBrands(ctx.store, projectId, ['*'], window, market));
  return series.map((s) => {
    const sums = byMarket.get(s.market)?.get(s.promptId)?.sums;
    return { promptId: seriesKey(s), responses: sums?.responses ?? 0, mentioned: sums?.mentioned ?? 0 };
  });
}

/**
 * The daily scheduler's tick: one refresh per project per UTC day. The run id is fixed per
 * (project, day) and recorded first, so two schedulers (or two ticks) never enqueue it twice.
 */
export async function scheduleDailyRefreshes(ctx: ServiceContext, day = utcDay()): Promise<number> {
  const { rows } = await ctx.store.query<{ id: string }>(`select id from projects where status = 'completed' order by id`);
  let queued = 0;
  for (const p of rows) {
    const runId = stableUuid('daily-refresh', p.id, day);
    const sent = await ctx.store.tx(async (tx) => {
      const ins = await tx.query(
        `insert into collection_runs (id, project_id, kind, day) values ($1, $2, 'daily', $3) on conflict do nothing`,
        [runId, p.id, day],
      );
      if (!ins.rowCount) return false;
      await ctx.jobs.send(refreshJob, { projectId: p.id, day, runId, kind: 'daily' }, { tx, id: runId });
      return true;
    });
    if (sent) queued += 1;
  }
  return queued;
}
