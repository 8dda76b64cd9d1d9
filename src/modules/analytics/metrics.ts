/**
 * The metric definitions (DECISIONS section 4), implemented once. Every endpoint that
 * shows one of these numbers computes it here from rollup sums, so two endpoints can
 * never disagree about the same window.
 */
export interface Sums {
  responses: number;
  mentioned: number;
  positionSum: number;
  sentimentSum: number;
  citesOwn: number;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Percent of responses that name the brand, 0..100; null without responses. */
export function visibility(s: Pick<Sums, 'responses' | 'mentioned'>): number | null {
  return s.responses > 0 ? round2((100 * s.mentioned) / s.responses) : null;
}

/** Average rank among tracked brands over the responses that name the brand. */
export function position(s: Pick<Sums, 'mentioned' | 'positionSum'>): number | null {
  return s.mentioned > 0 ? round2(s.positionSum / s.mentioned) : null;
}

/** Average sentiment 0..100 over the responses that name the brand. */
export function sentiment(s: Pick<Sums, 'mentioned' | 'sentimentSum'>): number | null {
  return s.mentioned > 0 ? round2(s.sentimentSum / s.mentioned) : null;
}

/** The same, as an integer (where the spec says integer). */
export function sentimentInt(s: Pick<Sums, 'mentioned' | 'sentimentSum'>): number | null {
  return s.mentioned > 0 ? Math.round(s.sentimentSum / s.mentioned) : null;
}

/** Percent of responses that cite a URL on the brand's own domain. */
export function cvr(s: Pick<Sums, 'responses' | 'citesOwn'>): number | null {
  return s.responses > 0 ? round2((100 * s.citesOwn) / s.responses) : null;
}

/** Visibility of this window against the one before: ±5 points; null unless both have data. */
export function trend(current: number | null, previous: number | null): 'up' | 'down' | 'stable' | null {
  if (current === null || previous === null) return null;
  const d = current - previous;
  return d > 5 ? 'up' : d < -5 ? 'down' : 'stable';
}

/** A share in percent (0..100) of a total; 0 for an empty total. */
export function share(part: number, total: number): number {
  return total > 0 ? round2((100 * part) / total) : 0;
}

export function ratio(part: number, whole: number): number {
  return whole > 0 ? round2(part / whole) : 0;
}

export const EMPTY_SUMS: Sums = { responses: 0, mentioned: 0, positionSum: 0, sentimentSum: 0, citesOwn: 0 };
