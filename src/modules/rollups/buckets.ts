import { DAY_MS, dayMs, dayOf, mondayOf } from '../../lib/time.js';

// The calendar buckets of the rollups (daily, weekly from Monday, monthly from the 1st) that
// make up a window of days: the windowed reads (window-rows.ts, project-reads.ts) read these
// buckets instead of every day.

/** Weight per bucket (+1 added, -1 subtracted) at each level of the rollups. */
export interface Cover {
  days: Map<string, number>;
  weeks: Map<string, number>;
  months: Map<string, number>;
}

const monthStart = (t: number) => Date.UTC(new Date(t).getUTCFullYear(), new Date(t).getUTCMonth(), 1);
const monthEnd = (t: number) => Date.UTC(new Date(t).getUTCFullYear(), new Date(t).getUTCMonth() + 1, 1) - DAY_MS;

const emptyCover = (): Cover => ({ days: new Map(), weeks: new Map(), months: new Map() });

function add(c: Cover, level: keyof Cover, key: string, w: number): void {
  const v = (c[level].get(key) ?? 0) + w;
  if (v === 0) c[level].delete(key);
  else c[level].set(key, v);
}

function merge(...parts: Cover[]): Cover {
  const out = emptyCover();
  for (const p of parts) for (const level of ['days', 'weeks', 'months'] as const) for (const [k, w] of p[level]) add(out, level, k, w);
  return out;
}

const size = (c: Cover) => c.days.size + c.weeks.size + c.months.size;
const cheapest = (options: Cover[]) => options.reduce((a, b) => (size(b) < size(a) ? b : a));

function daysCover(s: number, e: number, w: number): Cover {
  const c = emptyCover();
  for (let t = s; t <= e; t += DAY_MS) add(c, 'days', dayOf(t), w);
  return c;
}

/** The part of a week from s to e (inside it): its days, or the week less the other days. */
function weekPart(s: number, e: number, w: number): Cover {
  const monday = mondayOf(s);
  const whole = emptyCover();
  add(whole, 'weeks', dayOf(monday), w);
  return cheapest([daysCover(s, e, w), merge(whole, daysCover(monday, s - DAY_MS, -w), daysCover(e + DAY_MS, monday + 6 * DAY_MS, -w))]);
}

/** Days s..e from weeks and days: whole weeks inside, each edge as cheaply as weekPart can. */
function weeksCover(s: number, e: number, w: number): Cover {
  if (s > e) return emptyCover();
  const first = mondayOf(s);
  const last = mondayOf(e);
  if (first === last) return weekPart(s, e, w);
  const middle = emptyCover();
  for (let t = first + 7 * DAY_MS; t < last; t += 7 * DAY_MS) add(middle, 'weeks', dayOf(t), w);
  return merge(weekPart(s, first + 6 * DAY_MS, w), middle, weekPart(last, e, w));
}

/** The part of a month from s to e (inside it): from weeks and days, or the month less the rest. */
function monthPart(s: number, e: number, w: number): Cover {
  const start = monthStart(s);
  const whole = emptyCover();
  add(whole, 'months', dayOf(start), w);
  return cheapest([weeksCover(s, e, w), merge(whole, weeksCover(start, s - DAY_MS, -w), weeksCover(e + DAY_MS, monthEnd(s), -w))]);
}

/**
 * The days from..to as few rollup buckets as it can: whole months, whole Monday-to-Sunday
 * weeks and single days, each added (+1) or subtracted (-1) — a window from the 3rd to the
 * 30th of a 30-day month is the month less two days. Every day of the window is counted
 * exactly once and every other day not at all (window.test.ts checks it on random
 * windows), so a weighted sum over the buckets is the sum over the days; a 90-day window
 * costs about 11 buckets per series instead of 90, a year about 20 (on average).
 */
export function coverWindow(from: string, to: string): Cover {
  const s = dayMs(from);
  const e = dayMs(to);
  if (monthStart(s) === monthStart(e)) return cheapest([weeksCover(s, e, 1), monthPart(s, e, 1)]);
  const middle = emptyCover();
  for (let t = monthEnd(s) + DAY_MS; t < monthStart(e); t = monthEnd(t) + DAY_MS) add(middle, 'months', dayOf(t), 1);
  const byMonths = merge(monthPart(s, monthEnd(s), 1), middle, monthPart(monthStart(e), e, 1));
  return cheapest([weeksCover(s, e, 1), byMonths]);
}

/** A window as whole calendar buckets only (nothing subtracted) and the days left over. */
export interface WholeBuckets {
  months: string[];
  weeks: string[];
  days: string[];
}

/**
 * The days from..to as the whole months inside the window, then the whole Monday-to-Sunday
 * weeks inside what is left, then single days: for rollups whose values cannot be
 * subtracted (a bitmask, a maximum), where coverWindow's "month less two days" cannot serve.
 * Every day of the window is counted exactly once (window.test.ts).
 */
export function wholeBuckets(from: string, to: string): WholeBuckets {
  const s = dayMs(from);
  const e = dayMs(to);
  const out: WholeBuckets = { months: [], weeks: [], days: [] };
  const rest: Array<[number, number]> = [];
  let cursor = s;
  for (let m = monthStart(s); m <= e; m = monthEnd(m) + DAY_MS) {
    if (m >= s && monthEnd(m) <= e) {
      if (cursor < m) rest.push([cursor, m - DAY_MS]);
      out.months.push(dayOf(m));
      cursor = monthEnd(m) + DAY_MS;
    }
  }
  if (cursor <= e) rest.push([cursor, e]);
  for (const [a, b] of rest) {
    let monday = mondayOf(a);
    if (monday < a) monday += 7 * DAY_MS;
    let t = a;
    for (; monday + 6 * DAY_MS <= b; monday += 7 * DAY_MS) {
      for (; t < monday; t += DAY_MS) out.days.push(dayOf(t));
      out.weeks.push(dayOf(monday));
      t = monday + 7 * DAY_MS;
    }
    for (; t <= b; t += DAY_MS) out.days.push(dayOf(t));
  }
  return out;
}
