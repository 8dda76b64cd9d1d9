import type { RequestContext } from '../../context.js';
import * as metrics from '../analytics/metrics.js';
import { visibilitySeries } from '../analytics/project-analytics.js';
import { brandSums } from '../rollups/project-reads.js';
import { addDays, resolveWindow } from '../analytics/window.js';
import { activeCompetitors, brandNo } from '../competitors/service.js';
import { compareProportions } from '../alerts/significance.js';
import { requireProject } from '../projects/service.js';
import type { Interval } from '../../lib/statistics.js';
import { rollupMarket } from '../rollups/market-totals.js';

export interface BrandWeek {
  name: string;
  is_own_brand: boolean;
  visibility: number | null;
  visibility_ci: Interval | null;
  previous: number | null;
  /** The trend test of the two weeks: up or down only when significant; null when unmeasured. */
  change: 'up' | 'down' | 'stable' | null;
  p_value: number | null;
}

export interface ProjectWeek {
  project_id: string;
  brand: string;
  from: string;
  to: string;
  responses: number;
  own: BrandWeek;
  movers: BrandWeek[];
  position: number | null;
  sentiment: number | null;
  alerts: Array<{ metric: string; condition: string; value: number; fired_at: string }>;
  /** The own brand's daily visibility over the chart's days (null: no answers that day). */
  daily: Array<number | null>;
  days: string[];
}

/** Days of the chart: four weeks make a trend readable where one week is seven dots. */
export const CHART_DAYS = 28;

/**
 * A project's week for the digest, read through the analytics functions: every brand's
 * visibility with its interval against the week before (the trend test; movers are the
 * significant ones), the own brand's position and sentiment, the alerts fired, and the
 * own brand's daily visibility for the chart.
 */
export async function projectWeek(ctx: RequestContext, projectId: string, today: string): Promise<ProjectWeek> {
  const project = await requireProject(ctx, projectId);
  const to = addDays(today, -1);
  const from = addDays(to, -6);
  const market = rollupMarket(project, null);
  const prev = { from: addDays(from, -7), to: addDays(from, -1), providers: null, market };
  const chartWindow = resolveWindow({ date_from: addDays(to, -(CHART_DAYS - 1)), date_to: to }, today);
  const [cur, before, brands, series, alerts] = await Promise.all([
    brandSums(ctx.store, projectId, { from, to, providers: null, market }),
    brandSums(ctx.store, projectId, prev),
    activeCompetitors(ctx.store, project),
    visibilitySeries(ctx, projectId, chartWindow),
    ctx.store.query<{ metric: string; condition: string; value: number; fired_at: Date }>(
      `select metric, condition, value, fired_at from alert_events where project_id = $1 and fired_at >= $2::date and fired_at < $3::date + 1 order by fired_at desc limit 20`,
      [projectId, from, today],
    ),
  ]);
  const weeks: BrandWeek[] = brands.map((b) => {
    const no = brandNo(b);
    const x1 = cur.brands.get(no)?.mentions ?? 0;
    const x2 = before.brands.get(no)?.mentions ?? 0;
    const cmp = compareProportions(x1, cur.responses, x2, before.responses);
    return {
      name: b.name,
      is_own_brand: b.is_own_brand,
      visibility: metrics.visibility({ responses: cur.responses, mentioned: x1 }),
      visibility_ci: metrics.visibilityCi({ responses: cur.responses, mentioned: x1 }),
      previous: metrics.visibility({ responses: before.responses, mentioned: x2 }),
      change: cmp?.direction ?? null,
      p_value: cmp?.pValue ?? null,
    };
  });
  const own = cur.brands.get(0);
  const ownSums = { mentioned: own?.mentions ?? 0, positionSum: own?.positionSum ?? 0, sentimentSum: own?.sentimentSum ?? 0 };
  const ownSeries = series.series.find((s) => s.is_own_brand);
  return {
    project_id: projectId,
    brand: project.brand_name ?? project.name,
    from,
    to,
    responses: cur.responses,
    own: weeks[0],
    movers: weeks.filter((w) => w.change === 'up' || w.change === 'down'),
    position: metrics.position(ownSums),
    sentiment: metrics.sentiment(ownSums),
    alerts: alerts.rows.map((a) => ({ metric: a.metric, condition: a.condition, value: a.value, fired_at: a.fired_at.toISOString() })),
    daily: ownSeries?.visibility ?? [],
    days: series.dates,
  };
}
