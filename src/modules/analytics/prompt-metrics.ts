import type { Interval } from '../../lib/statistics.js';
import type { Tx } from '../../store/index.js';
import * as metrics from './metrics.js';
import { promptSums } from '../rollups/prompt-reads.js';
import { rollupMarket } from '../rollups/market-totals.js';
import { providerFilter, type Window } from './window.js';

export interface PromptMetrics {
  visibility: number | null;
  sentiment: number | null;
  position: number | null;
  volume: number | null;
  cvr: number | null;
  trend: 'up' | 'down' | 'stable' | null;
  responses: number;
  visibility_ci: Interval | null;
  position_ci: Interval | null;
  sentiment_ci: Interval | null;
}

/**
 * Window metrics of a project's prompts (or of the given ones), with the previous
 * window's visibility for the trend, and the uncertainty of each figure. Without a market,
 * the market totals ('*') where the project keeps them (`project`: as requireProject gives
 * it, from the per-process cache: a flag not seen yet reads the markets' rows, as right).
 */
export async function promptMetrics(
  tx: Tx,
  project: { id: string; market_totals: boolean },
  w: Window,
  promptIds?: string[],
): Promise<Map<string, PromptMetrics>> {
  const sums = await promptSums(tx, project.id, providerFilter(w), [w, { from: w.prevFrom, to: w.prevTo }], promptIds, rollupMarket(project, w.market));
  const out = new Map<string, PromptMetrics>();
  for (const [promptId, [cur, prev]] of sums) {
    out.set(promptId, {
      visibility: metrics.visibility(cur),
      sentiment: metrics.sentimentInt(cur),
      position: metrics.position(cur),
      volume: cur.responses,
      cvr: metrics.cvr(cur),
      trend: metrics.trend(cur, prev),
      ...metrics.uncertainty(cur),
    });
  }
  return out;
}

/** A prompt without responses in the window: no figures, but volume 0 (nothing collected). */
export const noData = (): PromptMetrics => ({
  visibility: null,
  sentiment: null,
  position: null,
  volume: 0,
  cvr: null,
  trend: null,
  ...metrics.uncertainty(metrics.EMPTY_SUMS),
});
