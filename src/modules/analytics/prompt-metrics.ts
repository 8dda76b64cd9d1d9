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
 * Adds a one-dimensional int array read as text ('{3,0,-12}'), times `weight`, into
 * `into`, element by element (a missing element counts 0), without splitting the text into
 * strings and arrays: how the rollups' per-brand arrays, shipped as text (a fraction of
 * node-postgres' general array parser), are summed.
 */
export function addInts(text: string, into: number[], weight = 1): number[] {
  let i = 0;
  let v = 0;
  let negative = false;
  let digits = false;
  for (let k = 1; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      digits = true;
    } else if (c === 45) negative = true;
    else {
      // ',' or the closing '}'
      if (digits) into[i] = (into[i] ?? 0) + (negative ? -v : v) * weight;
      i++;
      v = 0;
      negative = false;
      digits = false;
    }
  }
  return into;
}

/**
 * Per prompt of a project, the sums of one window and the times each brand was named in it
 * (by brand number, from the per-brand arrays), in one read of the prompt rollups. The cover
 * rows are summed here rather than in SQL: unnesting the arrays into rows to group them
 * costs PostgreSQL more than the parsing and adding costs Node (about 40 % less time
 * measured at 100 prompts, 90 and 365 days). A prompt without rows is absent.
 */
export async function promptSumsAndBrands(
  tx: Tx,
  projectId: string,
  providers: string[],
  window: { from: string; to: string },
): Promise<Map<string, { sums: m.Sums; brandCounts: number[] }>> {
  const { rows } = await tx.query<{ prompt_id: string; r: number; mn: number; ps: number; ss: number; co: number; pq: number; sq: number; bc: string; w1: number }>(
    `select prompt_id, responses as r, mentioned as mn, position_sum as ps, sentiment_sum as ss, cites_own as co,
            position_sq as pq, sentiment_sq as sq, brand_counts::text as bc, w1
       from (${windowRows('prompt', 'prompt_id, responses, mentioned, position_sum, sentiment_sum, cites_own, position_sq, sentiment_sq, brand_counts', 'project_id = $1 and provider = any($2::text[])', 3, 1)}) x`,
    [projectId, providers, ...windowParams([window])],
  );
  const out = new Map<string, { sums: m.Sums; brandCounts: number[] }>();
  for (const r of rows) {
    let p = out.get(r.prompt_id);
    if (!p) {
      p = { sums: { ...m.EMPTY_SUMS }, brandCounts: [] };
      out.set(r.prompt_id, p);
    }
    const w = r.w1;
    if (w === 0) continue;
    const s = p.sums;
    s.responses += r.r * w;
    s.mentioned += r.mn * w;
    s.positionSum += r.ps * w;
    s.sentimentSum += r.ss * w;
    s.citesOwn += r.co * w;
    s.positionSq += r.pq * w;
    s.sentimentSq += r.sq * w;
    addInts(r.bc, p.brandCounts, w);
  }
  return out;
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
