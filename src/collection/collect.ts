import pLimit from 'p-limit';
import type { ServiceContext } from '../context.js';
import { createModelAnalyzer } from '../analysis/model.js';
import { DEFAULT_PROJECT_PROVIDERS, ProviderError, type ProviderName } from '../ports/providers/types.js';
import { loadBrandSpecs } from '../modules/projects/brands.js';
import type { ProjectWithPlan } from '../modules/projects/project-row.js';
import { answerKeyOf, reserveCredits, settleCredits, type AnswerKey } from './credits.js';
import { storeAnswers, type AnalysedAnswer } from '../modules/answers/store-answers.js';
import { marketCode, parseMarketCode, promptMarkets, type Market } from '../lib/markets.js';

export interface RunTally {
  planned: number;
  stored: number;
  skippedNoCredits: number;
  alreadyStored: number;
  failed: number;
  /** Failures that a later attempt could fix (rate limits, outages, timeouts). */
  retryableFailures: number;
  errors: string[];
}

/**
 * Transactions storing answers at once per process: answers of every engine arrive together
 * (4 in flight per engine), and one transaction each would drain a worker's pool of 10 and time
 * out waiting for a connection (bench/README, the eight-engine refresh).
 */
const storeSlots = pLimit(4);

/** At most this many answers in one storing transaction. */
const MAX_BATCH = 64;

type Analysed = AnalysedAnswer & AnswerKey;

/**
 * Stores a run's answers as they arrive, in group commits: the first answer goes out alone at
 * once, and those that arrive while a transaction is out go together in the next (every rollup
 * row a batch touches is written once for all of its answers). Each answer's promise settles
 * when its own transaction ends: true stored, false already stored (by another run). A batch
 * that fails is stored again an answer at a time, so one answer that cannot be stored fails
 * alone and the rest are kept.
 */
function answerBatcher(ctx: ServiceContext, project: ProjectWithPlan) {
  const waiting: Array<{ item: Analysed; done: (stored: boolean) => void; fail: (err: unknown) => void }> = [];
  let draining = false;
  const storeTogether = (items: Analysed[]) =>
    storeSlots(() =>
      ctx.store.tx(async (tx) => {
        const stored = new Set((await storeAnswers(tx, project.id, items)).map((s) => answerKeyOf({ ...s, sample: s.sample ?? 1 })));
        await settleCredits(tx, project.team_id, items, stored.size);
        // each stored answer once (a key asked twice in one batch is stored once)
        return items.map((item) => stored.delete(answerKeyOf(item)));
      }),
    );
  const drain = async () => {
    draining = true;
    while (waiting.length > 0) {
      const batch = waiting.splice(0, MAX_BATCH);
      try {
        const stored = await storeTogether(batch.map((b) => b.item));
        for (const [i, b] of batch.entries()) b.done(stored[i]);
      } catch (err) {
        if (batch.length === 1) batch[0].fail(err);
        else
          for (const b of batch) {
            try {
              b.done((await storeTogether([b.item]))[0]);
            } catch (alone) {
              b.fail(alone);
            }
          }
      }
    }
    draining = false;
  };
  return (item: Analysed) =>
    new Promise<boolean>((done, fail) => {
      waiting.push({ item, done, fail });
      if (!draining) void drain();
    });
}

/** The providers a project is asked on, in a fixed order. */
export function projectProviders(ctx: ServiceContext, project: ProjectWithPlan): ProviderName[] {
  const known = Object.keys(ctx.ports.providers) as ProviderName[];
  // A project that names no engines tracks the five of the contract, not every engine known.
  const wanted: readonly string[] = project.providers?.length ? project.providers : DEFAULT_PROJECT_PROVIDERS;
  return known.filter((p) => wanted.includes(p));
}

/** A prompt's series: the prompt in each of its markets (lib/markets.ts). */
export interface Series {
  promptId: string;
  market: string;
}

/** The series of the given prompts, in the prompts' order, each prompt's markets in theirs. */
export function seriesOf(
  prompts: Array<{ id: string; country: string | null; markets: Market[] | null }>,
  project: Pick<ProjectWithPlan, 'location' | 'language'>,
): Series[] {
  return prompts.flatMap((p) => promptMarkets(p, project).map((m) => ({ promptId: p.id, market: marketCode(m) })));
}

/**
 * Asks the providers for the given (prompt, provider, day, sample, market) answers and stores them,
 * analysed, with their rollups. Idempotent: answers already stored are not asked again,
 * credits are held before asking and spent in the transaction that stores the answer, so
 * a run killed at any point and run again loses nothing and counts nothing twice.
 */
export async function collectAnswers(
  ctx: ServiceContext,
  project: ProjectWithPlan,
  keys: AnswerKey[],
  runId: string | null,
): Promise<RunTally> {
  const tally: RunTally = { planned: keys.length, stored: 0, skippedNoCredits: 0, alreadyStored: 0, failed: 0, retryableFailures: 0, errors: [] };
  if (keys.length === 0) return tally;

  const done = await ctx.store.query<{ prompt_id: string; provider: string; day: string; sample: number; market: string }>(
    `select prompt_id, provider, to_char(day, 'YYYY-MM-DD') as day, sample, market from responses
      where prompt_id = any($1::uuid[]) and day = any($2::date[])`,
    [[...new Set(keys.map((k) => k.promptId))], [...new Set(keys.map((k) => k.day))]],
  );
  const doneSet = new Set(
    done.rows.map((r) => answerKeyOf({ promptId: r.prompt_id, provider: r.provider, day: r.day, sample: r.sample, market: r.market })),
  );
  const todo = keys.filter((k) => !doneSet.has(answerKeyOf(k)));
  tally.alreadyStored = keys.length - todo.length;

  const granted = await ctx.store.tx((tx) => reserveCredits(tx, project.team_id, todo));
  tally.skippedNoCredits = todo.length - granted.length;
  if (granted.length === 0) return finishRun(ctx, runId, tally);

  const prompts = await ctx.store.query<{ id: string; content: string; persona: string | null }>(
    `select id, content, persona from prompts where id = any($1::uuid[])`,
    [[...new Set(granted.map((k) => k.promptId))]],
  );
  const promptById = new Map(prompts.rows.map((p) => [p.id, p]));
  const brands = await loadBrandSpecs(ctx.store, project);
  // The lexicon, and the analysis model's judgement merged when ANALYSIS_MODEL is set; a model
  // failure leaves that answer the lexicon's figures, never fails it (analysis/model.ts).
  let modelFailures = 0;
  const analyse = createModelAnalyzer(brands, ctx.ports.analysisModel ?? null, {
    onFailure: (reason) => {
      if (modelFailures++ < 10) ctx.log.warn({ project: project.id, reason }, 'analysis model failed: the lexicon read the answer');
    },
  });
  const own = brands[0];
  const context = {
    brand: { name: own.name, domain: own.domain, aliases: own.aliases },
    competitors: brands.slice(1).map((b) => ({ name: b.name, domain: b.domain })),
  };

  // Providers limit their own concurrency; every answer is stored as it arrives (group commits).
  const store = answerBatcher(ctx, project);
  await Promise.all(
    granted.map(async (key) => {
      const prompt = promptById.get(key.promptId);
      const adapter = ctx.ports.providers[key.provider as ProviderName];
      const market = parseMarketCode(key.market);
      if (!prompt || !adapter || !market) {
        // Prompt deleted meanwhile, or provider no longer configured: give the credit back.
        await ctx.store.tx((tx) => settleCredits(tx, project.team_id, [key], 0));
        return;
      }
      try {
        const answer = await adapter.ask({
          prompt: prompt.content,
          day: key.day,
          sample: key.sample,
          country: market.country,
          language: market.language,
          persona: prompt.persona,
          context,
        });
        const { analysis, judgement } = await analyse(answer.text, answer.references);
        if (await store({ ...key, answer, analysis, judgement })) tally.stored += 1;
        else tally.alreadyStored += 1;
      } catch (err) {
        tally.failed += 1;
        if (!(err instanceof ProviderError) || err.retryable) tally.retryableFailures += 1;
        if (tally.errors.length < 10) tally.errors.push(`${key.provider}: ${(err as Error).message}`);
        ctx.log.warn({ err, provider: key.provider, project: project.id }, 'provider answer failed');
        await ctx.store.tx((tx) => settleCredits(tx, project.team_id, [key], 0));
      }
    }),
  );
  if (tally.stored > 0) ctx.teamChanged(project.team_id);
  return finishRun(ctx, runId, tally);
}

async function finishRun(ctx: ServiceContext, runId: string | null, t: RunTally): Promise<RunTally> {
  if (runId) {
    await ctx.store.query(
      `update collection_runs set planned = $2, stored = stored + $3, skipped_no_credits = $4, failed = $5, updated_at = now()
        where id = $1`,
      [runId, t.planned, t.stored, t.skippedNoCredits, t.failed],
    );
  }
  return t;
}
