import { overview, visibilitySeries } from '../analytics/project-analytics.js';
import { competitorsWithMetrics } from '../competitors/metrics.js';
import { resolveWindow } from '../analytics/window.js';
import { utcDay } from '../../lib/time.js';
import type { OpenReport } from './service.js';

/**
 * What a shared report shows: the overview of its window as the dashboard computes it
 * (the brands with their intervals, the prompts, the daily visibility), read through the
 * analytics services as the project's team, read-only.
 */
export async function reportData(r: OpenReport) {
  const ctx = r.ctx;
  const w = resolveWindow({ duration_days: r.windowDays }, utcDay(ctx.clock.now()));
  const [brands, prompts, series, project] = await Promise.all([
    competitorsWithMetrics(ctx, r.projectId, w),
    overview(ctx, r.projectId, w, 'active'),
    visibilitySeries(ctx, r.projectId, w),
    ctx.store.query<{ brand_name: string | null; name: string }>(`select brand_name, name from projects where id = $1`, [r.projectId]),
  ]);
  return {
    brand: project.rows[0]?.brand_name ?? project.rows[0]?.name ?? 'Project',
    from: w.from,
    to: w.to,
    expiresAt: r.expiresAt,
    brands: brands.active_competitors.map((c) => ({ name: c.name, own: c.is_own_brand, metrics: c.metrics })),
    prompts: prompts.items.map((p) => ({ content: p.content, visibility: p.visibility, responses: p.responses, visibility_ci: p.visibility_ci, position: p.position })),
    dates: series.dates,
    series: series.series.map((s) => ({ name: s.name, own: s.is_own_brand, visibility: s.visibility })),
  };
}
export type ReportData = Awaited<ReturnType<typeof reportData>>;
