import type { Interval } from '../../lib/statistics.js';
import type { Tx } from '../../store/index.js';
import * as metrics from './metrics.js';
import { promptSums } from '../rollups/prompt-reads.js';
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
 * window's visibility for the trend, and the uncertainty of each figure.
 */
export async function promptMetrics(tx: Tx, projectId: string, w: Window, promptIds?: string[]): Promise<Map<string, PromptMetrics>> {
  const sums = await promptSums(tx, projectId, providerFilter(w), [w, { from: w.prevFrom, to: w.prevTo }], promptIds, w.market);
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
