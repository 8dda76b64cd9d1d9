import { recurringBrands } from '../../analysis/index.js';
import type { RequestContext } from '../../context.js';
import { readAnswerBodies } from '../answers/cited-pages.js';
import { normalizeWebsite } from '../../lib/url.js';
import * as metrics from '../analytics/metrics.js';
import type { Window } from '../analytics/window.js';
import { loadBrandSpecs } from '../projects/brands.js';
import { loadProjectWithPlan } from '../projects/project-row.js';
import { requireProject } from '../projects/service.js';

/** The newest answers of the window read for suggestions: bounds the cost of a long window. */
export const SUGGESTION_ANSWERS = 2000;

/**
 * Brands that recur in the project's answers of the window and are not tracked (extension):
 * the answers are read again against the brands tracked now (the own brand, its aliases,
 * the active competitors), so a brand just added drops out at once and nothing is stored
 * that a change of competitors would make stale. At most SUGGESTION_ANSWERS answers, the
 * newest first; shares are of the answers read.
 */
export async function competitorSuggestions(ctx: RequestContext, projectId: string, w: Window, limit: number) {
  await requireProject(ctx, projectId);
  const facts = await loadProjectWithPlan(ctx.store, projectId);
  if (!facts) throw new Error('project vanished'); // requireProject has just read it
  const [brands, answers, total, taken] = await Promise.all([
    loadBrandSpecs(ctx.reads, facts),
    ctx.reads.query<{ body: Uint8Array; cited: number[] }>(
      `select body, cited from responses
        where project_id = $1 and ($2::text[] is null or provider = any($2::text[])) and day between $3::date and $4::date
        order by day desc, collected_at desc, id
        limit $5`,
      [projectId, w.providers, w.from, w.to, SUGGESTION_ANSWERS],
    ),
    windowResponses(ctx, projectId, w),
    ctx.reads.query<{ domain: string }>(`select domain from competitors where project_id = $1`, [projectId]),
  ]);
  // A name whose site is already tracked (a product of a tracked vendor) is no suggestion,
  // and adding it would be refused as a duplicate domain.
  const trackedDomains = new Set([...taken.rows.map((r) => r.domain), ...brands.map((b) => b.domain).filter((d): d is string => !!d)]);
  const read = answers.rows.length;
  const found = recurringBrands(await readAnswerBodies(ctx.reads, answers.rows, ctx.store), brands, limit + trackedDomains.size).filter((c) => !c.domain || !trackedDomains.has(c.domain));
  return {
    project_id: projectId,
    period: w.period,
    answers_in_window: total,
    answers_read: read,
    suggestions: found.slice(0, limit).map((c) => ({
      name: c.name,
      website: c.domain ? (normalizeWebsite(c.domain)?.domain ?? null) : null,
      answers: c.count,
      mentions: c.mentions,
      share_of_answers: metrics.share(c.count, read),
    })),
  };
}

/** The answers of the window (from the answers themselves: no rollup is read here). */
async function windowResponses(ctx: RequestContext, projectId: string, w: Window): Promise<number> {
  const { rows } = await ctx.reads.query<{ n: number }>(
    `select count(*)::int as n from responses
      where project_id = $1 and ($2::text[] is null or provider = any($2::text[])) and day between $3::date and $4::date`,
    [projectId, w.providers, w.from, w.to],
  );
  return rows[0].n;
}
