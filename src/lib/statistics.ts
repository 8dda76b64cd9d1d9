/**
 * The statistics behind the uncertainty shown beside every figure (docs/analytics.md), each
 * implemented once: the Wilson score interval of a proportion, the t interval of a mean,
 * Student t quantiles and the two-proportion z-test. All at the 95% level.
 */

/** qnorm(0.975): the two-sided 95% normal quantile. */
export const Z95 = 1.959963984540054;

/** An interval [low, high]. */
export type Interval = [number, number];

const round2 = (x: number) => Math.round(x * 100) / 100;
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/**
 * The 95% Wilson score interval of x successes in n trials, in percent with 2 decimals
 * (R: `prop.test(x, n, correct = FALSE)$conf.int * 100`); null for n = 0.
 */
export function wilson(x: number, n: number): Interval | null {
  if (!(n > 0)) return null;
  const p = clamp(x / n, 0, 1);
  const z2 = Z95 * Z95;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = wilsonHalfWidth(p, n);
  // At p = 0 or 1 one bound is exactly 0 or 100; floating point may miss it by an ulp.
  const low = p === 0 ? 0 : clamp(center - half, 0, 1);
  const high = p === 1 ? 1 : clamp(center + half, 0, 1);
  return [round2(100 * low), round2(100 * high)];
}

/** Half the width of the 95% Wilson interval at proportion p (0..1) over n trials, as a proportion (unrounded). */
export function wilsonHalfWidth(p: number, n: number): number {
  const z2 = Z95 * Z95;
  return (Z95 / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
}

/**
 * The fewest trials whose 95% Wilson interval at proportion p (0..1) is at most ±margin
 * percentage points wide. The half-width falls as n grows (for a fixed p), so a doubling
 * search then bisection finds it exactly.
 */
export function trialsForMargin(p: number, marginPoints: number): number {
  const target = marginPoints / 100;
  const fits = (n: number) => wilsonHalfWidth(clamp(p, 0, 1), n) <= target;
  let high = 1;
  while (!fits(high)) high *= 2;
  let low = Math.floor(high / 2); // does not fit (or 0)
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (fits(mid)) high = mid;
    else low = mid;
  }
  return high;
}

// ---------------------------------------------------------------------------------------
// Student t quantiles, from the regularized incomplete beta function: for t > 0,
// P(T > t) = I_{df/(df+t²)}(df/2, 1/2) / 2, solved for t by bisection.

/** ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms: about 15 significant digits). */
function lnGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const y = x - 1;
  let a = c[0];
  const t = y + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The continued fraction of I_x(a, b) (modified Lentz), good for x < (a + 1) / (a + b + 2). */
function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 100_000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-15) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b), 0 ≤ x ≤ 1. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(x, a, b)) / a : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

/** P(T > t) for Student's t with df degrees of freedom, t ≥ 0. */
export function tUpperTail(t: number, df: number): number {
  return incompleteBeta(df / (df + t * t), df / 2, 0.5) / 2;
}

const tCache = new Map<number, number>();

/**
 * The quantile t such that P(T > t) = p (0 < p < 0.5) for df ≥ 1 degrees of freedom, e.g.
 * R's `qt(0.975, df)` is tQuantileUpper(0.025, df). Bisection to full double precision.
 */
export function tQuantileUpper(p: number, df: number): number {
  if (!(p > 0 && p < 0.5) || !(df > 0)) throw new RangeError('tQuantileUpper: 0 < p < 0.5 and df > 0');
  let lo = 0;
  let hi = 1;
  while (tUpperTail(hi, df) > p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-14 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (tUpperTail(mid, df) > p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** qt(0.975, df), memoized: df is a count of responses, so the same few values recur. */
export function t975(df: number): number {
  let t = tCache.get(df);
  if (t === undefined) {
    t = tQuantileUpper(0.025, df);
    if (tCache.size < 10_000) tCache.set(df, t);
  }
  return t;
}

/**
 * The 95% t interval of a mean from the count, sum and sum of squares of the observations,
 * 2 decimals; null with fewer than 2 observations.
 */
export function meanInterval(n: number, sum: number, sumSquares: number): Interval | null {
  if (!(n >= 2)) return null;
  const mean = sum / n;
  // rounding can make the variance of identical values a hair below 0
  const variance = Math.max(0, (sumSquares - (sum * sum) / n) / (n - 1));
  const half = t975(n - 1) * Math.sqrt(variance / n);
  return [round2(mean - half), round2(mean + half)];
}

/**
 * The two-proportion z statistic (pooled) of x1/n1 against x2/n2; 0 when the pooled
 * proportion is 0 or 1 (no variation: no difference); null when either n is 0.
 */
export function twoProportionZ(x1: number, n1: number, x2: number, n2: number): number | null {
  if (!(n1 > 0) || !(n2 > 0)) return null;
  const pooled = (x1 + x2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  return se > 0 ? (x1 / n1 - x2 / n2) / se : 0;
}

/**
 * `up` or `down` when x1/n1 (this window) differs from x2/n2 (the window before) at the
 * 95% level, two-sided; `stable` otherwise; null when either window has no trials.
 */
export function significantChange(x1: number, n1: number, x2: number, n2: number): 'up' | 'down' | 'stable' | null {
  const z = twoProportionZ(x1, n1, x2, n2);
  if (z === null) return null;
  return z > Z95 ? 'up' : z < -Z95 ? 'down' : 'stable';
}
