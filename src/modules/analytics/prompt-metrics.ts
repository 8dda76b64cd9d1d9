import type { Interval } from '../../lib/statistics.js';
import type { Tx } from '../../store/index.js';
import * as m from './metrics.js';
import { windowParams, windowRows } from './rollup-window.js';
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

const COLUMNS = ['responses', 'mentioned', 'position_sum', 'sentiment_sum', 'cites_own', 'position_sq', 'sentiment_sq'] as const;

/**
 * Per prompt of a project (or of the given ones): the sums of each window, in the order
 * given, from the prompt rollups (rollup-window.ts) in one statement. A prompt without
 * rows in any window is absent.
 */
export async function promptSums(
  tx: Tx,
  projectId: string,
  providers: string[],
  windows: Array<{ from: string; to: string }>,
  promptIds?: string[],
): Promise<Map<string, m.Sums[]>> {
  // float8: the sums of squares of a long window can pass the int range (and node-postgres
  // would return a bigint as a string)
  const sums = windows.flatMap((_, j) => COLUMNS.map((c) => `sum(${c} * w${j + 1})::${c.endsWith('_sq') ? 'float8' : 'int'} as ${c}_${j}`));
  const { rows } = await tx.query<Record<string, number> & { prompt_id: string }>(
    `select prompt_id, ${sums.join(', ')}
       from (${windowRows('prompt', `prompt_id, ${COLUMNS.join(', ')}`, 'project_id = $1 and provider = any($2::text[]) and ($3::uuid[] is null or prompt_id = any($3::uuid[]))', 4, windows.length)}) x
      group by prompt_id`,
    [projectId, providers, promptIds ?? null, ...windowParams(windows)],
  );
  return new Map(
    rows.map((r) => [
      r.prompt_id,
      windows.map((_, j) => ({
        responses: r[`responses_${j}`],
        mentioned: r[`mentioned_${j}`],
        positionSum: r[`position_sum_${j}`],
        sentimentSum: r[`sentiment_sum_${j}`],
        citesOwn: r[`cites_own_${j}`],
        positionSq: r[`position_sq_${j}`],
        sentimentSq: r[`sentiment_sq_${j}`],
      })),
    ]),
  );
}

/**
 * Window metrics of a project's prompts (or of the given ones), with the previous
 * window's visibility for the trend, and the uncertainty of each figure.
 */
export async function promptMetrics(tx: Tx, projectId: string, w: Window, promptIds?: string[]): Promise<Map<string, PromptMetrics>> {
  const sums = await promptSums(tx, projectId, providerFilter(w), [w, { from: w.prevFrom, to: w.prevTo }], promptIds);
  const out = new Map<string, PromptMetrics>();
  for (const [promptId, [cur, prev]] of sums) {
    out.set(promptId, {
      visibility: m.visibility(cur),
      sentiment: m.sentimentInt(cur),
      position: m.position(cur),
      volume: cur.responses,
      cvr: m.cvr(cur),
      trend: m.trend(cur, prev),
      ...m.uncertainty(cur),
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
  ...m.uncertainty(m.EMPTY_SUMS),
});
