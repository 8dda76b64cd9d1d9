import type { RequestContext } from '../../context.js';
import { marketCode, promptMarkets, uniqueMarkets, type Market } from '../../lib/markets.js';
import { Conflict, Invalid, LimitReached, NotFound } from '../../lib/errors.js';
import { planOf } from '../../lib/plans.js';
import { refreshJob } from '../../jobs/catalog.js';
import { stableUuid } from '../../lib/crypto.js';
import { utcDay } from '../../lib/time.js';
import type { Tx } from '../../store/index.js';
import { beginProjectWrite } from '../../store/analytics-version.js';
import { iso, isUniqueViolation, textKey } from '../common.js';
import { requireProject } from '../projects/service.js';
import { topicInProject } from '../topics/service.js';
import { classifyIntent } from './intent.js';
import { removePromptFromRollups } from '../rollups/remove-prompt.js';
import { keepMarketTotals } from '../rollups/market-totals.js';
import { noData, promptMetrics, type PromptMetrics } from '../analytics/prompt-metrics.js';
import { resolveWindow, type Window } from '../analytics/window.js';

export interface PromptRow {
  id: string;
  project_id: string;
  topic_id: string | null;
  content: string;
  prompt_type: string;
  country: string | null;
  markets: Market[] | null;
  persona: string | null;
  /** The project's location and language: a prompt without markets runs in the market they make. */
  project_location: string | null;
  project_language: string | null;
  intent: string | null;
  created_at: Date;
}

/** Window metrics of a prompt (docs/analytics.md); all null until answers exist. */

export const NO_METRICS: PromptMetrics = {
  visibility: null,
  sentiment: null,
  position: null,
  volume: null,
  cvr: null,
  trend: null,
  responses: 0,
  visibility_ci: null,
  position_ci: null,
  sentiment_ci: null,
};

const COLUMNS = `id, project_id, topic_id, content, prompt_type, country, markets, persona, intent, created_at,
  (select location from projects pr where pr.id = project_id) as project_location,
  (select language from projects pr where pr.id = project_id) as project_language`;

/** The markets a prompt runs in (its own, or the one of its country and the project's language). */
const marketsOf = (r: PromptRow): Market[] => promptMarkets(r, { location: r.project_location, language: r.project_language });

/**
 * The Prompt of the contract, its keys in the schema's order: GET's answers go out with
 * JSON.stringify alone (src/http/serializer.ts), so this order is the order on the wire.
 */
export function presentPrompt(r: PromptRow, m: PromptMetrics = NO_METRICS) {
  return {
    id: r.id,
    project_id: r.project_id,
    content: r.content,
    prompt_type: r.prompt_type as 'active',
    topic_id: r.topic_id,
    country: r.country,
    markets: marketsOf(r),
    persona: r.persona,
    visibility: m.visibility,
    sentiment: m.sentiment,
    position: m.position,
    volume: m.volume,
    cvr: m.cvr,
    intent: r.intent as 'informational' | null,
    trend: m.trend,
    created_at: iso(r.created_at),
    responses: m.responses,
    visibility_ci: m.visibility_ci,
    position_ci: m.position_ci,
    sentiment_ci: m.sentiment_ci,
  };
}

const capitalise = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

async function loadPrompt(tx: Tx, projectId: string, promptId: string): Promise<PromptRow> {
  const { rows } = await tx.query<PromptRow>(`select ${COLUMNS} from prompts where id = $1 and project_id = $2`, [
    promptId,
    projectId,
  ]);
  if (!rows[0]) throw new NotFound('Prompt not found');
  return rows[0];
}

/**
 * Active prompts a team has and may have, with the team row locked until the caller's
 * transaction ends, so two concurrent writers cannot both pass the plan's quota.
 *
 * The locks come in the order every writer of the project takes them (docs/architecture.md,
 * "Lock order"): the project, its analytics version, then the team. A collection stores an
 * answer that way (the insert shares the project and raises the version, the credit spent
 * shares the team), so a prompt written under the quota's lock, whose insert raises the
 * version too, waits for a collection in flight instead of deadlocking with it.
 */
export async function activePromptQuota(tx: Tx, teamId: string, projectId: string): Promise<{ inUse: number; limit: number }> {
  await beginProjectWrite(tx, projectId);
  await tx.query(`select id from teams where id = $1 for update`, [teamId]);
  const { rows } = await tx.query<{ n: number; plan: string }>(
    `select (select count(*)::int from prompts where team_id = $1 and prompt_type = 'active') as n,
            (select plan from teams where id = $1) as plan`,
    [teamId],
  );
  return { inUse: rows[0].n, limit: planOf(rows[0].plan).activePrompts };
}

/** Checks that `adding` more active prompts fit the plan's quota (429 otherwise). */
async function checkQuota(ctx: RequestContext, tx: Tx, projectId: string, adding: number): Promise<void> {
  const { inUse, limit } = await activePromptQuota(tx, ctx.auth.teamId, projectId);
  if (inUse + adding > limit) {
    // Not a rate limit: waiting does not help, so no Retry-After, and a code of its own.
    throw new LimitReached(
      `Prompt quota of your plan exceeded: ${inUse} of ${limit} active prompts in use, ${adding} more requested`,
      'prompt_quota_reached',
    );
  }
}

export async function listPrompts(ctx: RequestContext, projectId: string, w: Window) {
  const project = await requireProject(ctx, projectId);
  const [{ rows }, metrics] = await Promise.all([
    ctx.reads.query<PromptRow>(`select ${COLUMNS} from prompts where project_id = $1 order by created_at, id`, [projectId]),
    promptMetrics(ctx.reads, project, w),
  ]);
  return {
    project_id: projectId,
    total: rows.length,
    prompts: rows.map((r) => presentPrompt(r, metrics.get(r.id) ?? noData())),
  };
}

export async function getPrompt(ctx: RequestContext, projectId: string, promptId: string, w: Window) {
  const project = await requireProject(ctx, projectId);
  const row = await loadPrompt(ctx.reads, projectId, promptId);
  const metrics = await promptMetrics(ctx.reads, project, w, [promptId]);
  return presentPrompt(row, metrics.get(promptId) ?? noData());
}

/** The prompt with this window's metrics (after a change, the default window). */
async function withMetrics(tx: Tx, project: { id: string; market_totals: boolean }, row: PromptRow) {
  const metrics = await promptMetrics(tx, project, resolveWindow({}), [row.id]);
  return presentPrompt(row, metrics.get(row.id) ?? noData());
}

export async function createPrompts(
  ctx: RequestContext,
  projectId: string,
  input: { prompts: string[]; topicId: string; country?: string; markets?: Market[]; persona?: string | null },
) {
  const project = await requireProject(ctx, projectId);
  const contents = input.prompts.map((p) => p.trim().replace(/\s+/g, ' '));
  const seen = new Set<string>();
  for (const c of contents) {
    const key = textKey(c);
    if (seen.has(key)) throw new Invalid(`prompts contains the same prompt twice: "${c}"`);
    seen.add(key);
  }
  return ctx.store.tx(async (tx) => {
    if (!(await topicInProject(tx, projectId, input.topicId))) {
      throw new Invalid('topicId does not name a topic of this project');
    }
    const existing = await tx.query<{ content: string }>(
      `select content from prompts where project_id = $1 and content_key = any($2::text[]) limit 1`,
      [projectId, [...seen]],
    );
    if (existing.rows[0]) throw new Conflict(`A prompt with this content already exists in the project: "${existing.rows[0].content}"`);
    // prompts in several markets: the project's all-market reads read market totals from now on
    // (first: it locks the project, which the quota's locks and the insert come after)
    if (!project.market_totals && input.markets && uniqueMarkets(input.markets).length > 1) await keepMarketTotals(tx, projectId);
    await checkQuota(ctx, tx, projectId, contents.length);
    const { rows } = await tx.query<PromptRow>(
      // One transaction has one now(): a microsecond per position keeps "by creation" in request order.
      `insert into prompts (project_id, team_id, topic_id, content, content_key, prompt_type, country, intent, created_at, updated_at, markets, persona)
       select $1, $2, $3, c, k, 'active', $4, i, now() + (n - 1) * interval '1 microsecond', now(), $8::jsonb, $9
         from unnest($5::text[], $6::text[], $7::text[]) with ordinality as t(c, k, i, n)
        order by n
       returning ${COLUMNS}`,
      [
        projectId,
        ctx.auth.teamId,
        input.topicId,
        input.country ?? null,
        contents,
        contents.map(textKey),
        contents.map(classifyIntent),
        input.markets ? JSON.stringify(input.markets) : null,
        input.persona ?? null,
      ],
    ).catch((err) => {
      if (isUniqueViolation(err, 'prompts_project_content_key')) {
        throw new Conflict('A prompt with this content already exists in the project');
      }
      throw err;
    });
    await enqueuePromptCollection(ctx, tx, projectId, rows.map((r) => r.id));
    const byKey = new Map(rows.map((r) => [textKey(r.content), r]));
    const ordered = contents.map((c) => byKey.get(textKey(c))!);
    return {
      projectId,
      created: ordered.length,
      prompts: ordered.map((r) => ({
        id: r.id,
        projectId: r.project_id,
        content: r.content,
        promptType: capitalise(r.prompt_type),
        topicId: r.topic_id,
        country: r.country,
        markets: marketsOf(r),
        persona: r.persona,
        createdAt: iso(r.created_at),
      })),
    };
  });
}

export async function updatePrompt(
  ctx: RequestContext,
  projectId: string,
  promptId: string,
  input: {
    content?: string;
    country?: string;
    topicId?: string;
    promptType?: 'Active' | 'Inactive' | 'Suggested';
    markets?: Market[] | null;
    persona?: string | null;
  },
) {
  if (Object.keys(input).length === 0) throw new Invalid('Request body must contain at least one field to change');
  const project = await requireProject(ctx, projectId);
  return ctx.store.tx(async (tx) => {
    const current = await loadPrompt(tx, projectId, promptId);
    const next = {
      content: input.content !== undefined ? input.content.trim().replace(/\s+/g, ' ') : current.content,
      country: input.country !== undefined ? input.country : current.country,
      topic_id: input.topicId !== undefined ? input.topicId : current.topic_id,
      prompt_type: input.promptType !== undefined ? input.promptType.toLowerCase() : current.prompt_type,
      markets: input.markets !== undefined ? input.markets : current.markets,
      persona: input.persona !== undefined ? input.persona : current.persona,
    };
    const marketsKey = (list: Market[] | null) => (list ? list.map(marketCode).join(',') : null);
    const marketsChanged = marketsKey(next.markets) !== marketsKey(current.markets);
    const changed =
      next.content !== current.content ||
      next.country !== current.country ||
      next.topic_id !== current.topic_id ||
      next.prompt_type !== current.prompt_type ||
      marketsChanged ||
      next.persona !== current.persona;
    if (!changed) throw new Invalid('No field changed: every value sent equals the current one');
    if (next.topic_id !== current.topic_id && next.topic_id && !(await topicInProject(tx, projectId, next.topic_id))) {
      throw new Invalid('topicId does not name a topic of this project');
    }
    // a project's totals are never turned off: once its row says so, nothing to lock or sum
    // (first: it locks the project, which the quota's locks and the update come after)
    if (!project.market_totals && next.markets && uniqueMarkets(next.markets).length > 1) await keepMarketTotals(tx, projectId);
    if (next.prompt_type === 'active' && current.prompt_type !== 'active') await checkQuota(ctx, tx, projectId, 1);
    try {
      const { rows } = await tx.query<PromptRow>(
        `update prompts set content = $3, content_key = $4, country = $5, topic_id = $6, prompt_type = $7,
                intent = $8, markets = $9::jsonb, persona = $10, updated_at = now()
          where id = $1 and project_id = $2 returning ${COLUMNS}`,
        [
          promptId,
          projectId,
          next.content,
          textKey(next.content),
          next.country,
          next.topic_id,
          next.prompt_type,
          next.content !== current.content ? classifyIntent(next.content) : current.intent,
          next.markets ? JSON.stringify(next.markets) : null,
          next.persona,
        ],
      );
      // a prompt made active, or active in a market it had not run in: asked today, not tomorrow
      const newMarket = marketsOf(rows[0]).some((m) => !marketsOf(current).some((c) => marketCode(c) === marketCode(m)));
      if (next.prompt_type === 'active' && (current.prompt_type !== 'active' || newMarket)) {
        await enqueuePromptCollection(ctx, tx, projectId, [promptId]);
      }
      return withMetrics(tx, project, rows[0]);
    } catch (err) {
      if (isUniqueViolation(err, 'prompts_project_content_key')) {
        throw new Conflict('A prompt with this content already exists in the project');
      }
      throw err;
    }
  });
}

export async function deletePrompt(ctx: RequestContext, projectId: string, promptId: string) {
  await requireProject(ctx, projectId);
  return ctx.store.tx(async (tx) => {
    await loadPrompt(tx, projectId, promptId);
    await tx.query(`select id from projects where id = $1 for update`, [projectId]);
    await removePromptFromRollups(tx, projectId, promptId);
    await tx.query(`delete from prompts where id = $1 and project_id = $2`, [promptId, projectId]);
    return { promptId, message: 'Prompt and its analytics deleted' };
  });
}

/** Tracking of new or re-activated prompts begins at once: a run for them, today. */
async function enqueuePromptCollection(ctx: RequestContext, tx: Tx, projectId: string, promptIds: string[]): Promise<void> {
  if (promptIds.length === 0) return;
  const day = utcDay();
  const runId = stableUuid('new-prompts', projectId, day, ...[...promptIds].sort());
  await ctx.jobs.send(refreshJob, { projectId, day, runId, kind: 'new_prompts', promptIds }, { tx, id: runId });
}

/** The markets the project's active prompts run in, the most prompts first (then by code): what `market=` can name. */
export async function listProjectMarkets(ctx: RequestContext, projectId: string) {
  await requireProject(ctx, projectId);
  const { rows } = await ctx.reads.query<PromptRow>(`select ${COLUMNS} from prompts where project_id = $1 and prompt_type = 'active'`, [projectId]);
  const counts = new Map<string, { market: string; country: string; language: string; prompts: number }>();
  for (const row of rows) {
    for (const market of marketsOf(row)) {
      const code = marketCode(market);
      const entry = counts.get(code) ?? { market: code, ...market, prompts: 0 };
      entry.prompts += 1;
      counts.set(code, entry);
    }
  }
  return [...counts.values()].sort((a, b) => b.prompts - a.prompts || a.market.localeCompare(b.market));
}
