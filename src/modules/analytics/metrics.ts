import type { Sums } from '../rollups/codec.js';
import { meanInterval, significantChange, wilson, type Interval } from '../../lib/statistics.js';

/**
 * The metric definitions (docs/analytics.md), implemented once. Every endpoint that
 * shows one of these numbers computes it here from rollup sums (Sums, read by
 * src/modules/rollups), so two endpoints can never disagree about the same window.
 */
export type { Sums } from '../rollups/codec.js';
export { EMPTY_SUMS } from '../rollups/codec.js';

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

/**
 * Visibility of this window against the one before: `up` or `down` only when the two
 * proportions differ at the 95% level (two-proportion z-test), `stable` otherwise, null
 * unless both windows have responses.
 */
export function trend(current: Pick<Sums, 'responses' | 'mentioned'>, previous: Pick<Sums, 'responses' | 'mentioned'>): 'up' | 'down' | 'stable' | null {
  return significantChange(current.mentioned, current.responses, previous.mentioned, previous.responses);
}

/** 95% Wilson interval of visibility, in percent; null without responses. */
export function visibilityCi(s: Pick<Sums, 'responses' | 'mentioned'>): Interval | null {
  return wilson(s.mentioned, s.responses);
}

/**
 * A t interval cut to the scale the mean lives on: the true mean is on that scale, so the
 * cut part can never contain it (a sentiment interval reaching past 100 says nothing more).
 */
function within(ci: Interval | null, lo: number, hi: number): Interval | null {
  return ci && [Math.max(lo, ci[0]), Math.min(hi, ci[1])];
}

/** 95% t interval of the mean position (ranks start at 1); null below 2 mentioning responses. */
export function positionCi(s: Pick<Sums, 'mentioned' | 'positionSum' | 'positionSq'>): Interval | null {
  return within(meanInterval(s.mentioned, s.positionSum, s.positionSq), 1, Number.POSITIVE_INFINITY);
}

/** 95% t interval of the mean sentiment, within 0..100; null below 2 mentioning responses. */
export function sentimentCi(s: Pick<Sums, 'mentioned' | 'sentimentSum' | 'sentimentSq'>): Interval | null {
  return within(meanInterval(s.mentioned, s.sentimentSum, s.sentimentSq), 0, 100);
}

/** The extension fields beside a window's visibility, position and sentiment (issue 12). */
export function uncertainty(s: Omit<Sums, 'citesOwn'>) {
  return {
    responses: s.responses,
    visibility_ci: visibilityCi(s),
    position_ci: positionCi(s),
    sentiment_ci: sentimentCi(s),
  };
}

/** A share in percent (0..100) of a total; 0 for an empty total. */
export function share(part: number, total: number): number {
  return total > 0 ? round2((100 * part) / total) : 0;
}

/** Share of voice: a brand's mentioning responses over all tracked brands' (0 without any). */
export function shareOfVoice(mentions: number, allMentions: number): { share_of_voice: number; share_of_voice_ci: Interval | null } {
  return { share_of_voice: share(mentions, allMentions), share_of_voice_ci: wilson(mentions, allMentions) };
}

export function ratio(part: number, whole: number): number {
  return whole > 0 ? round2(part / whole) : 0;
}

