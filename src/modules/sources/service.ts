import type { RequestContext } from '../../context.js';
import { CATEGORY_NAMES } from '../../analysis/types.js';
import { stableUuid } from '../../lib/crypto.js';
import * as metrics from '../analytics/metrics.js';
import { dailyCitations, domainWindow } from '../rollups/domain-window.js';
import { daysOf, providerFilter, type Window } from '../analytics/window.js';
import { requireProject } from '../projects/service.js';
import { rollupMarket } from '../rollups/market-totals.js';

export const TOP_DOMAINS = 20;
export const CHART_DOMAINS = 10;
export const OPPORTUNITY_THRESHOLD = 3;

/** A cited domain's id: the same domain has the same id in every project and call. */
export const sourceId = (domain: string) => stableUuid('source', domain);

/** Cited domains by citations in the window, most cited first, a page at a time. */
export async function listSources(ctx: RequestContext, projectId: string, w: Window, page: number, pageSize: number) {
  const project = await requireProject(ctx, projectId);
  const { domains } = await domainWindow(ctx.reads, projectId, providerFilter(w), w.from, w.to, rollupMarket(project, w.market));
  return domains
    .slice((page - 1) * pageSize, page * pageSize)
    .map((d) => ({ source_id: sourceId(d.domain), domain: d.domain, category: d.category, reference_count: d.citations }));
}

export async function sourcesAnalytics(ctx: RequestContext, projectId: string, w: Window) {
  const project = await requireProject(ctx, projectId);
  // one read of the window's day rows: the totals per domain, and per day the chart's
  const window = await domainWindow(ctx.reads, projectId, providerFilter(w), w.from, w.to, rollupMarket(project, w.market));
  const { domains } = window;
  const total = domains.reduce((s, d) => s + d.citations, 0);
  const byCategory = new Array<number>(CATEGORY_NAMES.length).fill(0);
  for (const d of domains) byCategory[d.category] += d.citations;
  const top = domains.slice(0, CHART_DOMAINS).map((d) => d.domain);

  const dates = daysOf(w);
  const { totals: dayTotals, perDomain } = dailyCitations(window, dates.length, CHART_DOMAINS);
  return {
    stats: { total_sources: domains.length, total_citations: total },
    category_breakdown: Object.fromEntries(CATEGORY_NAMES.map((name, i) => [name, metrics.share(byCategory[i], total)])) as Record<
      (typeof CATEGORY_NAMES)[number],
      number
    >,
    performance_chart: {
      dates,
      // a day without any citation has no share: null, never 0
      series: top.map((domain, k) => ({
        domain,
        values: perDomain[k].map((n, i) => (dayTotals[i] > 0 ? metrics.share(n, dayTotals[i]) : null)),
      })),
    },
    top_domains: domains.slice(0, TOP_DOMAINS).map((d) => ({ source_id: sourceId(d.domain), domain: d.domain, category: d.category, reference_count: d.citations })),
    opportunities: domains
      // the brand's own site is no opportunity, however often it is cited
      .filter((d) => d.unmentioned >= OPPORTUNITY_THRESHOLD && d.domain !== project.domain)
      .sort((a, b) => b.unmentioned - a.unmentioned || a.domain.localeCompare(b.domain))
      .map((d) => ({ domain: d.domain, citation_count: d.unmentioned, category: d.category, category_name: CATEGORY_NAMES[d.category] })),
  };
}
