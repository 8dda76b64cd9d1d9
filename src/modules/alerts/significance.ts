import { significantChange, tUpperTail, twoProportionZ } from '../../lib/statistics.js';

/**
 * The tests an alert rule's significant_* conditions rest on: the trend test of every
 * figure (the two-proportion z-test of lib/statistics for percentages, Welch's t-test for
 * the means of position and sentiment), each with its two-sided p-value. A comparison is
 * null (unmeasured: no alert) when either window has fewer than MIN_RESPONSES responses.
 */
export const MIN_RESPONSES = 10;
export const ALPHA = 0.05;

export interface Comparison {
  direction: 'up' | 'down' | 'stable';
  pValue: number;
}

/** erfc(x) for x ≥ 0 (Numerical Recipes' Chebyshev fit: relative error below 1.2e-7). */
function erfc(x: number): number {
  const t = 1 / (1 + 0.5 * x);
  const poly =
    -x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  return t * Math.exp(poly);
}

/** Two-sided p-value of a standard normal statistic. */
export const normalTwoSidedP = (z: number): number => Math.min(1, erfc(Math.abs(z) / Math.SQRT2));

/** x1/n1 (this window) against x2/n2 (the window before): the existing trend test and its p-value. */
export function compareProportions(x1: number, n1: number, x2: number, n2: number, minTrials = MIN_RESPONSES): Comparison | null {
  if (n1 < minTrials || n2 < minTrials) return null;
  const direction = significantChange(x1, n1, x2, n2);
  const z = twoProportionZ(x1, n1, x2, n2);
  if (direction === null || z === null) return null;
  return { direction, pValue: normalTwoSidedP(z) };
}

export interface MeanSums {
  n: number;
  sum: number;
  sumSquares: number;
}

/**
 * Welch's t-test of two means from their counts, sums and sums of squares. Null below 2
 * observations in either window; two constant samples differ only if their means do.
 */
export function compareMeans(a: MeanSums, b: MeanSums): Comparison | null {
  if (a.n < 2 || b.n < 2) return null;
  const meanA = a.sum / a.n;
  const meanB = b.sum / b.n;
  const varA = Math.max(0, (a.sumSquares - (a.sum * a.sum) / a.n) / (a.n - 1));
  const varB = Math.max(0, (b.sumSquares - (b.sum * b.sum) / b.n) / (b.n - 1));
  const se2 = varA / a.n + varB / b.n;
  if (!(se2 > 0)) {
    const same = Math.abs(meanA - meanB) < 1e-9;
    return { direction: same ? 'stable' : meanA > meanB ? 'up' : 'down', pValue: same ? 1 : 0 };
  }
  const t = (meanA - meanB) / Math.sqrt(se2);
  const df = (se2 * se2) / ((varA / a.n) ** 2 / (a.n - 1) + (varB / b.n) ** 2 / (b.n - 1));
  const pValue = Math.min(1, 2 * tUpperTail(Math.abs(t), df));
  return { direction: pValue < ALPHA ? (t > 0 ? 'up' : 'down') : 'stable', pValue };
}
