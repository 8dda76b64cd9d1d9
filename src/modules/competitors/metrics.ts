import type { RequestContext } from '../../context.js';
import * as metrics from '../analytics/metrics.js';
import type { Window } from '../analytics/window.js';
import { requireProject } from '../projects/service.js';
import { brandAsSums, brandSums, type BrandSums } from '../rollups/project-reads.js';
import { activeCompetitors, brandNo, presentCompetitor, type CompetitorMetrics } from './service.js';
import { rollupMarket } from '../rollups/market-totals.js';

// The competitors list with each brand's figures over a window (GET …/competitors, the
// overview, reports, MCP): the project's active brands, their sums from the project rollups.

/**
 * A brand's metrics for the window. Share of voice is over `allMentions`, the mentions of
 * every tracked brand (the active ones). No mention: 0 % visibility, no position or
 * sentiment (docs/analytics.md), yet the interval of that 0 % over the window's responses.
 */
export function brandMetrics(w: Window, responses: number, brand: BrandSums | undefined, allMentions: number): CompetitorMetrics {
  const sums = brandAsSums(responses, brand);
  return {
    visibility: metrics.visibility(sums) ?? 0,
    sentiment: metrics.sentiment(sums),
    position: metrics.position(sums),
    mention_count: brand?.timesNamed ?? 0,
    days_with_data: brand?.daysNamed ?? 0,
    period: w.period,
    ...metrics.uncertainty(sums),
    ...metrics.shareOfVoice(sums.mentioned, allMentions),
  };
}

export async function competitorsWithMetrics(ctx: RequestContext, projectId: string, w: Window) {
  const project = await requireProject(ctx, projectId);
  const [rows, sums] = await Promise.all([activeCompetitors(ctx.reads, project), brandSums(ctx.reads, projectId, { from: w.from, to: w.to, providers: w.providers, market: rollupMarket(project, w.market) })]);
  // a removed competitor's mentions stay in the rollups until the re-analysis: not tracked, not counted
  const allMentions = rows.reduce((n, r) => n + (sums.brands.get(brandNo(r))?.mentions ?? 0), 0);
  return {
    active_competitors: rows.map((r) => presentCompetitor(r, brandMetrics(w, sums.responses, sums.brands.get(brandNo(r)), allMentions))),
    total_active: rows.length,
  };
}

