import type { ServiceContext } from '../../context.js';
import * as metrics from '../analytics/metrics.js';
import { brandAsSums, brandSums } from '../rollups/project-reads.js';
import { promptSums } from '../rollups/prompt-reads.js';
import { addDays, providerFilter } from '../analytics/window.js';
import { activeCompetitors, brandNo } from '../competitors/service.js';
import { OWN_BRAND_ID } from '../projects/brands.js';
import type { ProjectWithPlan } from '../projects/project-row.js';
import type { ProviderName } from '../../ports/providers/types.js';
import { wilson, type Interval } from '../../lib/statistics.js';
import { compareMeans, compareProportions, MIN_RESPONSES, type Comparison } from './significance.js';
import type { AlertRow } from './service.js';
import { rollupMarket } from '../rollups/market-totals.js';

/** The two windows a rule compares: `days` days ending on the run's day, and the same before. */
export interface RuleWindow {
  start_date: string;
  end_date: string;
  previous_start_date: string;
  previous_end_date: string;
  responses: number;
  previous_responses: number;
}

export interface Figure {
  value: number | null;
  previous: number | null;
  /** The trend test of the two windows; null when either is unmeasured (under MIN_RESPONSES). */
  comparison: Comparison | null;
  /** The 95% interval of `value` (Wilson for percentages, t for means), as the dashboard shows it. */
  interval: Interval | null;
  window: RuleWindow;
}

export const windowsOf = (day: string, days: number) => ({
  cur: { from: addDays(day, -(days - 1)), to: day },
  prev: { from: addDays(day, -(2 * days - 1)), to: addDays(day, -days) },
});

type BrandWindow = Awaited<ReturnType<typeof brandSums>>;

/**
 * The figures of one evaluation pass (a project, a run's day). Reads are shared between
 * rules asking for the same windows and filters: 100 rules on a project read the rollups a
 * few times, not 100 times. Everything is read through the analytics functions, from the
 * rollups the endpoints read, so an alert's figure is the figure the dashboard shows.
 */
export class FigureReader {
  private readonly reads = new Map<string, Promise<unknown>>();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly project: ProjectWithPlan,
    readonly day: string,
  ) {}

  private once<T>(key: string, read: () => Promise<T>): Promise<T> {
    let p = this.reads.get(key) as Promise<T> | undefined;
    if (!p) this.reads.set(key, (p = read()));
    return p;
  }

  /**
   * The own brand's sums over the rule's prompts (all when none named), per window. One read
   * per window length and engines gives every prompt's sums; a rule's prompts are summed here.
   */
  private async ownSums(rule: AlertRow): Promise<[metrics.Sums, metrics.Sums]> {
    const w = windowsOf(this.day, rule.window_days);
    const providers = providerFilter({ providers: rule.providers as ProviderName[] | null });
    const perPrompt = await this.once(`own|${rule.window_days}|${providers}`, () => promptSums(this.ctx.store, this.project.id, providers, [w.cur, w.prev]));
    const total: [metrics.Sums, metrics.Sums] = [{ ...metrics.EMPTY_SUMS }, { ...metrics.EMPTY_SUMS }];
    const add = (windows: metrics.Sums[]) => {
      for (let j = 0; j < 2; j++) for (const k of Object.keys(total[j]) as Array<keyof metrics.Sums>) total[j][k] += windows[j][k] ?? 0;
    };
    if (rule.prompt_ids) {
      for (const id of rule.prompt_ids) {
        const windows = perPrompt.get(id);
        if (windows) add(windows);
      }
    } else for (const windows of perPrompt.values()) add(windows);
    return total;
  }

  /** Every tracked brand's sums per window, and the active brands' numbers (share of voice counts those). */
  private brandWindows(rule: AlertRow): Promise<{ cur: BrandWindow; prev: BrandWindow; active: Map<string, number> }> {
    const w = windowsOf(this.day, rule.window_days);
    const providers = (rule.providers as ProviderName[] | null) ?? null;
    return this.once(`brands|${rule.window_days}|${providers ?? '*'}`, async () => {
      const [cur, prev, brands] = await Promise.all([
        brandSums(this.ctx.store, this.project.id, { ...w.cur, providers, market: rollupMarket(this.project, null) }),
        brandSums(this.ctx.store, this.project.id, { ...w.prev, providers, market: rollupMarket(this.project, null) }),
        activeCompetitors(this.ctx.store, { ...this.project, created_at: new Date(0) }),
      ]);
      return { cur, prev, active: new Map(brands.map((b) => [b.is_own_brand ? OWN_BRAND_ID : b.id, brandNo(b)])) };
    });
  }

  async figure(rule: AlertRow): Promise<Figure> {
    const w = windowsOf(this.day, rule.window_days);
    const own = !rule.brand_id || rule.brand_id === OWN_BRAND_ID;
    const frame = (responses: number, previous: number): RuleWindow => ({
      start_date: w.cur.from,
      end_date: w.cur.to,
      previous_start_date: w.prev.from,
      previous_end_date: w.prev.to,
      responses,
      previous_responses: previous,
    });
    let a: metrics.Sums;
    let b: metrics.Sums;
    if (own && rule.metric !== 'share_of_voice') {
      [a, b] = await this.ownSums(rule);
    } else {
      const { cur, prev, active } = await this.brandWindows(rule);
      const no = active.get(rule.brand_id ?? OWN_BRAND_ID);
      if (rule.metric === 'share_of_voice') {
        // the brand's mentioning responses out of every active brand's
        const all = (s: BrandWindow) => [...active.values()].reduce((n, k) => n + (s.brands.get(k)?.mentions ?? 0), 0);
        const x1 = no === undefined ? 0 : (cur.brands.get(no)?.mentions ?? 0);
        const x2 = no === undefined ? 0 : (prev.brands.get(no)?.mentions ?? 0);
        const [n1, n2] = [all(cur), all(prev)];
        // too few responses in either window: unmeasured, as for every other figure
        const measured = cur.responses >= MIN_RESPONSES && prev.responses >= MIN_RESPONSES;
        return {
          value: n1 > 0 ? metrics.share(x1, n1) : null,
          previous: n2 > 0 ? metrics.share(x2, n2) : null,
          comparison: measured ? compareProportions(x1, n1, x2, n2, 1) : null,
          interval: wilson(x1, n1),
          window: frame(cur.responses, prev.responses),
        };
      }
      const sums = (s: BrandWindow): metrics.Sums => brandAsSums(s.responses, no === undefined ? undefined : s.brands.get(no));
      [a, b] = [sums(cur), sums(prev)];
    }
    const window = frame(a.responses, b.responses);
    const measured = a.responses >= MIN_RESPONSES && b.responses >= MIN_RESPONSES;
    switch (rule.metric) {
      case 'visibility':
        return { value: metrics.visibility(a), previous: metrics.visibility(b), comparison: compareProportions(a.mentioned, a.responses, b.mentioned, b.responses), interval: metrics.visibilityCi(a), window };
      case 'own_citations':
        return { value: metrics.cvr(a), previous: metrics.cvr(b), comparison: compareProportions(a.citesOwn, a.responses, b.citesOwn, b.responses), interval: wilson(a.citesOwn, a.responses), window };
      case 'position':
      case 'sentiment': {
        const pos = rule.metric === 'position';
        const mean = (s: metrics.Sums) => ({ n: s.mentioned, sum: pos ? s.positionSum : s.sentimentSum, sumSquares: pos ? s.positionSq : s.sentimentSq });
        return {
          value: pos ? metrics.position(a) : metrics.sentiment(a),
          previous: pos ? metrics.position(b) : metrics.sentiment(b),
          comparison: measured ? compareMeans(mean(a), mean(b)) : null,
          interval: pos ? metrics.positionCi(a) : metrics.sentimentCi(a),
          window,
        };
      }
      default:
        throw new Error(`no figure for ${rule.metric}`);
    }
  }
}
