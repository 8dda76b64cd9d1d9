import type { RequestContext } from '../../context.js';
import { trialsForMargin, wilson, type Interval } from '../../lib/statistics.js';
import { DEFAULT_PROJECT_PROVIDERS } from '../../ports/providers/types.js';
import { loadProjectWithPlan } from '../projects/project-row.js';
import { requireProject } from '../projects/service.js';
import { promptSumsAndBrands } from '../rollups/prompt-reads.js';
import { rollupMarket } from '../rollups/market-totals.js';
import { providerFilter, type Window } from './window.js';

export interface SamplingPlanItem {
  prompt_id: string;
  content: string;
  responses: number;
  visibility: number | null;
  visibility_ci: Interval | null;
  half_width: number | null;
  samples_needed: number;
  credits_needed: number;
  samples_per_run_needed: number;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Per active prompt, how sure its visibility over the window is and what a 95% interval of
 * ±margin points would take: `samples_needed` answers in all at the observed proportion (0.5,
 * the widest, when there is none yet), `credits_needed` the credits of the answers still
 * missing (one credit an answer), and `samples_per_run_needed` the samples each daily run of
 * every engine would ask for a window of the same length to collect them.
 */
export async function samplingPlan(ctx: RequestContext, projectId: string, w: Window, marginPoints: number): Promise<SamplingPlanItem[]> {
  const project = await requireProject(ctx, projectId);
  const [prompts, sums, facts] = await Promise.all([
    ctx.reads.query<{ id: string; content: string }>(
      `select id, content from prompts where project_id = $1 and prompt_type = 'active' order by created_at, id`,
      [projectId],
    ),
    promptSumsAndBrands(ctx.reads, projectId, providerFilter(w), w, rollupMarket(project, w.market)),
    loadProjectWithPlan(ctx.store, projectId),
  ]);
  const tracked: readonly string[] = facts?.providers.length ? facts.providers : DEFAULT_PROJECT_PROVIDERS;
  const engines = Math.max(1, (w.providers ?? tracked).filter((p) => tracked.includes(p)).length);
  return prompts.rows.map((p) => {
    const { responses, mentioned } = sums.get(p.id)?.sums ?? { responses: 0, mentioned: 0 };
    const ci = wilson(mentioned, responses);
    const needed = trialsForMargin(responses > 0 ? mentioned / responses : 0.5, marginPoints);
    return {
      prompt_id: p.id,
      content: p.content,
      responses,
      visibility: responses > 0 ? round2((100 * mentioned) / responses) : null,
      visibility_ci: ci,
      half_width: ci ? round2((ci[1] - ci[0]) / 2) : null,
      samples_needed: needed,
      credits_needed: Math.max(0, needed - responses),
      samples_per_run_needed: Math.ceil(needed / (w.days * engines)),
    };
  });
}
