import { coverWindow, type Cover } from './buckets.js';

/**
 * Windowed reads of the prompt rollups, which come in three sizes: daily, weekly (Monday)
 * and monthly (1st). A window is read as the few buckets of coverWindow, each row weighted
 * +1 or -1, so summing `value * weight` gives the window's sum at a fraction of the rows.
 */
const PROMPT_TABLES = ['prompt_daily', 'prompt_weekly', 'prompt_monthly'] as const;
const LEVELS = [
  ['days', 'day'],
  ['weeks', 'week'],
  ['months', 'month'],
] as const;

/**
 * The query parameters for windowRows: per level, the bucket dates of all the windows,
 * then one weight array per window (0 where a bucket belongs to another window only).
 */
export function windowParams(windows: Array<{ from: string; to: string }>): unknown[] {
  const covers: Cover[] = windows.map((w) => coverWindow(w.from, w.to));
  const out: unknown[] = [];
  for (const [level] of LEVELS) {
    const keys = [...new Set(covers.flatMap((c) => [...c[level].keys()]))];
    out.push(keys, ...covers.map((c) => keys.map((k) => c[level].get(k) ?? 0)));
  }
  return out;
}

/**
 * SQL for the rows of the prompt rollups covering the windows of windowParams (whose
 * parameters start at `$first`): the `columns` asked for, then weights w1..wN.
 */
export function windowRows(columns: string, where: string, first: number, windows: number): string {
  return LEVELS.map(([, column], i) => {
    const dates = `$${first + i * (windows + 1)}::date[]`;
    const weights = Array.from({ length: windows }, (_, j) => `($${first + i * (windows + 1) + 1 + j}::int[])[array_position(${dates}, ${column})] as w${j + 1}`);
    return `select ${columns}, ${weights.join(', ')} from ${PROMPT_TABLES[i]} where ${where} and ${column} = any(${dates})`;
  }).join('\n union all ');
}
