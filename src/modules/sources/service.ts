import type { RequestContext } from '../../context.js';
import { CATEGORY_NAMES } from '../../analysis/types.js';
import { stableUuid } from '../../lib/crypto.js';
import * as m from '../analytics/metrics.js';
import { daysOf, providerFilter, type Window } from '../analytics/window.js';
import { requireProject } from '../projects/service.js';

export const TOP_DOMAINS = 20;
export const CHART_DOMAINS = 10;
export const OPPORTUNITY_THRESHOLD = 3;

/** A cited domain's id: the same domain has the same id in every project and call. */
export const sourceId = (domain: string) => stableUuid('source', domain);

const WHERE = `project_id = $1 and provider = any($2::text[]) and day between $3::date and $4::date`;
const params = (projectId: string, w: Window) => [projectId, providerFilter(w), w.from, w.to];

/** Cited domains by citations in the window, most cited first, a page at a time. */
export async function listSources(ctx: RequestContext, projectId: string, w: Window, page: number, pageSize: number) {
  await requireProject(ctx, projectId);
  const { rows } = await ctx.store.query<{ domain: string; category: number; n: number }>(
    `select domain, min(category)::int as category, sum(citations)::int as n
       from project_domain_daily where ${WHERE}
      group by domain order by n desc, domain limit $5 offset $6`,
    [...params(projectId, w), pageSize, (page - 1) * pageSize],
  );
  return rows.map((r) => ({ source_id: sourceId(r.domain), domain: r.domain, category: r.category, reference_count: r.n }));
}

export async function sourcesAnalytics(ctx: RequestContext, projectId: string, w: Window) {
  const project = await requireProject(ctx, projectId);
  const { rows: domains } = await ctx.store.query<{ domain: string; category: number; n: number; unmentioned: number }>(
    `select domain, min(category)::int as category, sum(citations)::int as n, sum(citations_unmentioned)::int as unmentioned
       from project_domain_daily where ${WHERE}
      group by domain order by n desc, domain`,
    params(projectId, w),
  );
  const total = domains.reduce((s, d) => s + d.n, 0);
  const byCategory = new Array<number>(CATEGORY_NAMES.length).fill(0);
  for (const d of domains) byCategory[d.category] += d.n;
  const top = domains.slice(0, CHART_DOMAINS).map((d) => d.domain);

  // days as offsets from the window's first day (no date formatting per row)
  const { rows: daily } = await ctx.store.query<{ i: number; domain: string | null; n: number }>(
    `select day - $3::date as i, case when domain = any($5::text[]) then domain end as domain,
            sum(citations)::int as n
       from project_domain_daily where ${WHERE}
      group by day, 2`,
    [...params(projectId, w), top],
  );
  const dates = daysOf(w);
  const dayTotals = new Array<number>(dates.length).fill(0);
  const perDomain = new Map(top.map((d) => [d, new Array<number>(dates.length).fill(0)]));
  for (const r of daily) {
    dayTotals[r.i] += r.n;
    if (r.domain) perDomain.get(r.domain)![r.i] += r.n;
  }
  return {
    stats: { total_sources: domains.length, total_citations: total },
    category_breakdown: Object.fromEntries(CATEGORY_NAMES.map((name, i) => [name, m.share(byCategory[i], total)])) as Record<
      (typeof CATEGORY_NAMES)[number],
      number
    >,
    performance_chart: {
      dates,
      // a day without any citation has no share: null, never 0
      series: top.map((domain) => ({
        domain,
        values: perDomain.get(domain)!.map((n, i) => (dayTotals[i] > 0 ? m.share(n, dayTotals[i]) : null)),
      })),
    },
    top_domains: domains.slice(0, TOP_DOMAINS).map((d) => ({ source_id: sourceId(d.domain), domain: d.domain, category: d.category, reference_count: d.n })),
    opportunities: domains
      // the brand's own site is no opportunity, however often it is cited
      .filter((d) => d.unmentioned >= OPPORTUNITY_THRESHOLD && d.domain !== project.domain)
      .sort((a, b) => b.unmentioned - a.unmentioned || a.domain.localeCompare(b.domain))
      .map((d) => ({ domain: d.domain, citation_count: d.unmentioned, category: d.category, category_name: CATEGORY_NAMES[d.category] })),
  };
}
