import type { RequestContext } from '../../context.js';
import { requireProject } from '../projects/service.js';
import { promptDays } from '../rollups/prompt-reads.js';
import { rollupMarket } from '../rollups/market-totals.js';
import * as metrics from './metrics.js';
import { daysOf, providerFilter, type Window } from './window.js';

// The daily visibility of every prompt of a project over a window (extension), for the
// dashboard's sparklines: the prompt list has no series and one analytics call per prompt
// would be N requests. One statement over the daily prompt rollup (rollups/prompt-reads.ts).

/**
 * Every prompt of the project (by creation, as the prompt list), each with one point per
 * day of the window: visibility as docs/analytics.md defines it (metrics.visibility), null on a
 * day without answers, and the responses it rests on.
 */
export async function promptSeries(ctx: RequestContext, projectId: string, w: Window) {
  const project = await requireProject(ctx, projectId);
  const [prompts, rows] = await Promise.all([
    ctx.reads.query<{ id: string }>(`select id from prompts where project_id = $1 order by created_at, id`, [projectId]),
    promptDays(ctx.reads, projectId, providerFilter(w), w.from, w.to, rollupMarket(project, w.market)),
  ]);
  const dates = daysOf(w);
  const index = new Map(dates.map((d, i) => [d, i]));
  const byPrompt = new Map(prompts.rows.map((p) => [p.id, { responses: dates.map(() => 0), mentioned: dates.map(() => 0) }]));
  for (const r of rows) {
    const s = byPrompt.get(r.prompt_id);
    const i = index.get(r.day);
    if (!s || i === undefined) continue;
    s.responses[i] += r.responses;
    s.mentioned[i] += r.mentioned;
  }
  return {
    project_id: projectId,
    dates,
    prompts: [...byPrompt].map(([id, s]) => ({
      prompt_id: id,
      visibility: s.responses.map((n, i) => metrics.visibility({ responses: n, mentioned: s.mentioned[i] })),
      responses: s.responses,
    })),
  };
}
