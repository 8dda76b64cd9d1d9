import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayOf, weekOf } from '../../lib/time.js';
import { coverWindow, wholeBuckets, type Cover } from '../rollups/buckets.js';
import { addDays, daysOf } from './window.js';

describe('weekOf', () => {
  it('is the Monday of the UTC week', () => {
    expect(weekOf('2025-03-10')).toBe('2025-03-10'); // a Monday
    expect(weekOf('2025-03-16')).toBe('2025-03-10'); // the Sunday after
    expect(weekOf('2025-03-17')).toBe('2025-03-17');
    expect(weekOf('2025-01-01')).toBe('2024-12-30'); // across a year
    expect(weekOf('2024-03-01')).toBe('2024-02-26'); // across a leap day
  });
});

describe('daysOf', () => {
  it("names each day as dayOf does: across months, years, leap days, from year 0001 to 9999", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1, 0, 1) / 86_400_000, max: Date.UTC(9999, 11, 31) / 86_400_000 - 400 }), fc.integer({ min: 0, max: 400 }), (start, days) => {
        const from = dayOf(start * 86_400_000);
        expect(daysOf({ from, days })).toEqual(Array.from({ length: days }, (_, i) => dayOf((start + i) * 86_400_000)));
      }),
    );
    expect(daysOf({ from: '2024-02-27', days: 4 })).toEqual(['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01']);
    expect(daysOf({ from: '2025-12-31', days: 2 })).toEqual(['2025-12-31', '2026-01-01']);
    expect(daysOf({ from: '0099-12-31', days: 2 })).toEqual(['0099-12-31', '0100-01-01']);
  });
});

const monthDays = (first: string) => {
  const next = first.slice(5, 7) === '12' ? `${Number(first.slice(0, 4)) + 1}-01-01` : `${first.slice(0, 5)}${String(Number(first.slice(5, 7)) + 1).padStart(2, '0')}-01`;
  return daysOf({ from: first, days: Math.round((Date.parse(next) - Date.parse(first)) / 86_400_000) });
};

/** How many times the cover counts each day (days it never touches are absent). */
function weightPerDay(c: Cover): Map<string, number> {
  const out = new Map<string, number>();
  const add = (day: string, w: number) => out.set(day, (out.get(day) ?? 0) + w);
  for (const [d, w] of c.days) add(d, w);
  for (const [wk, w] of c.weeks) for (const d of daysOf({ from: wk, days: 7 })) add(d, w);
  for (const [m, w] of c.months) for (const d of monthDays(m)) add(d, w);
  for (const [d, w] of out) if (w === 0) out.delete(d);
  return out;
}

const entries = (m: Map<string, number>) => Object.fromEntries([...m].sort());

describe('coverWindow', () => {
  it('takes whole months and weeks, adding or subtracting the edges', () => {
    // Wed 2025-03-05 .. Tue 2025-03-25: the week of 03-03 less Mon and Tue, the weeks of
    // 03-10 and 03-17, then Mon 03-24 and Tue 03-25 as days: 7 buckets (the month less
    // 03-01..04 and 03-26..31 would take 9).
    expect(coverWindow('2025-03-05', '2025-03-25')).toEqual({
      days: new Map([['2025-03-03', -1], ['2025-03-04', -1], ['2025-03-24', 1], ['2025-03-25', 1]]),
      weeks: new Map([['2025-03-03', 1], ['2025-03-10', 1], ['2025-03-17', 1]]),
      months: new Map(),
    });
    // a whole month is one bucket; the 2nd to the 31st is that month less the 1st
    expect(coverWindow('2025-03-01', '2025-03-31')).toEqual({ days: new Map(), weeks: new Map(), months: new Map([['2025-03-01', 1]]) });
    expect(coverWindow('2025-03-02', '2025-03-31')).toEqual({ days: new Map([['2025-03-01', -1]]), weeks: new Map(), months: new Map([['2025-03-01', 1]]) });
    // one day is one day
    expect(coverWindow('2025-03-11', '2025-03-11')).toEqual({ days: new Map([['2025-03-11', 1]]), weeks: new Map(), months: new Map() });
    // Mon..Sun is a week
    expect(coverWindow('2025-03-10', '2025-03-16')).toEqual({ days: new Map(), weeks: new Map([['2025-03-10', 1]]), months: new Map() });
  });

  it('counts every day of any window exactly once and no other day, in few buckets', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1500 }), fc.integer({ min: 1, max: 366 }), (offset, length) => {
        const from = addDays('2023-01-01', offset);
        const to = addDays(from, length - 1);
        const c = coverWindow(from, to);
        for (const wk of c.weeks.keys()) expect(weekOf(wk)).toBe(wk);
        for (const m of c.months.keys()) expect(m.endsWith('-01')).toBe(true);
        expect(entries(weightPerDay(c))).toEqual(Object.fromEntries(daysOf({ from, days: length }).map((d) => [d, 1])));
        const buckets = c.days.size + c.weeks.size + c.months.size;
        // never more than one per day; at most the months spanned and 15 edge weeks and days
        // (the worst over every window of 2023-2026, found by trying them all)
        expect(buckets).toBeLessThanOrEqual(Math.min(length, Math.ceil(length / 28) + 15));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('wholeBuckets', () => {
  it('takes whole months, then whole weeks, then days, nothing subtracted', () => {
    expect(wholeBuckets('2025-03-01', '2025-03-31')).toEqual({ months: ['2025-03-01'], weeks: [], days: [] });
    // 2025-02-24 is a Monday: the week 02-24..03-02 is not whole inside the window
    expect(wholeBuckets('2025-02-26', '2025-04-08')).toEqual({
      months: ['2025-03-01'],
      weeks: [],
      days: ['2025-02-26', '2025-02-27', '2025-02-28', '2025-04-01', '2025-04-02', '2025-04-03', '2025-04-04', '2025-04-05', '2025-04-06', '2025-04-07', '2025-04-08'],
    });
    expect(wholeBuckets('2025-03-09', '2025-03-25')).toEqual({ months: [], weeks: ['2025-03-10', '2025-03-17'], days: ['2025-03-09', '2025-03-24', '2025-03-25'] });
  });

  it('counts every day of any window exactly once and no other day', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1500 }), fc.integer({ min: 1, max: 366 }), (offset, length) => {
        const from = addDays('2023-01-01', offset);
        const to = addDays(from, length - 1);
        const b = wholeBuckets(from, to);
        for (const wk of b.weeks) expect(weekOf(wk)).toBe(wk);
        for (const m of b.months) expect(m.endsWith('-01')).toBe(true);
        const c: Cover = { days: new Map(b.days.map((d) => [d, 1])), weeks: new Map(b.weeks.map((d) => [d, 1])), months: new Map(b.months.map((d) => [d, 1])) };
        expect(b.days.length + b.weeks.length + b.months.length).toBe(c.days.size + c.weeks.size + c.months.size);
        expect(entries(weightPerDay(c))).toEqual(Object.fromEntries(daysOf({ from, days: length }).map((d) => [d, 1])));
        // the days left: at most 6 on each side of a run of whole weeks
        expect(b.days.length).toBeLessThanOrEqual(24);
      }),
      { numRuns: 2000 },
    );
  });
});
