import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meanInterval, significantChange, t975, tQuantileUpper, trialsForMargin, twoProportionZ, wilson, wilsonHalfWidth, Z95 } from './statistics.js';

// Reference values computed with R 4.2.2 (Debian r-base-core), the commands in each test.

describe('Wilson score interval', () => {
  // prop.test(x, n, correct = FALSE)$conf.int * 100; the 0/20, 1/29, 15/148 and 81/263
  // rows are also Newcombe (1998), Stat Med 17:857, Table I, method 3.
  const REF: Array<[number, number, number, number]> = [
    [0, 1, 0, 79.345069],
    [1, 1, 20.654931, 100],
    [0, 20, 0, 16.112516],
    [1, 29, 0.611321, 17.175522],
    [15, 148, 6.23864, 16.048724],
    [81, 263, 25.528852, 36.620958],
    [5, 10, 23.659309, 76.340691],
    [3, 7, 15.821986, 74.954164],
    [50, 100, 40.383153, 59.616847],
    [999, 1000, 99.435744, 99.982345],
    [1, 3, 6.149194, 79.23404],
  ];
  it.each(REF)('%i of %i matches R prop.test', (x, n, low, high) => {
    const ci = wilson(x, n)!;
    expect(ci[0]).toBeCloseTo(low, 2);
    expect(ci[1]).toBeCloseTo(high, 2);
    // exactly R's value rounded to 2 decimals
    expect(ci).toEqual([Math.round(low * 100) / 100, Math.round(high * 100) / 100]);
  });

  it('is null without trials', () => {
    expect(wilson(0, 0)).toBeNull();
  });

  const trials = fc.integer({ min: 1, max: 100_000 }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n)));

  it('stays within [0, 100] and contains the observed percent', () => {
    fc.assert(
      fc.property(trials, ([x, n]) => {
        const [low, high] = wilson(x, n)!;
        const p = Math.round((10_000 * x) / n) / 100;
        expect(low).toBeGreaterThanOrEqual(0);
        expect(high).toBeLessThanOrEqual(100);
        expect(low).toBeLessThanOrEqual(p);
        expect(p).toBeLessThanOrEqual(high);
      }),
    );
  });

  it('narrows as n grows at a fixed proportion', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 2, max: 50 }), (x, extra, k) => {
        const n = x + extra;
        const [l1, h1] = wilson(x, n)!;
        const [l2, h2] = wilson(k * x, k * n)!;
        expect(h2 - l2).toBeLessThan(h1 - l1);
      }),
    );
  });

  it('is monotone in x at a fixed n', () => {
    fc.assert(
      fc.property(
        trials.filter(([x, n]) => x < n),
        ([x, n]) => {
          const [l1, h1] = wilson(x, n)!;
          const [l2, h2] = wilson(x + 1, n)!;
          expect(l2).toBeGreaterThanOrEqual(l1);
          expect(h2).toBeGreaterThanOrEqual(h1);
        },
      ),
    );
  });
});

describe('Student t quantile', () => {
  // sprintf("%.10f", qt(0.975, df))
  const REF: Array<[number, number]> = [
    [1, 12.7062047362],
    [2, 4.3026527297],
    [5, 2.5705818356],
    [10, 2.228138852],
    [30, 2.0422724563],
    [100, 1.9839715185],
    [1000, 1.9623390808],
  ];
  it.each(REF)('qt(0.975, %i) matches R to 9 significant digits', (df, q) => {
    expect(Math.abs(t975(df) - q) / q).toBeLessThan(1e-9);
  });

  it('other tails: qt(0.995, 1) = 63.65674, qt(0.95, 3) = 2.353363 (printed tables)', () => {
    expect(tQuantileUpper(0.005, 1)).toBeCloseTo(63.656741, 5);
    expect(tQuantileUpper(0.05, 3)).toBeCloseTo(2.353363, 5);
  });

  it('decreases with df towards the normal quantile 1.959964', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), (df) => {
        expect(t975(df + 1)).toBeLessThan(t975(df));
        expect(t975(df)).toBeGreaterThan(1.959963984);
      }),
      { numRuns: 50 },
    );
  });
});

describe('t interval of a mean', () => {
  const sums = (xs: number[]) => [xs.length, xs.reduce((a, b) => a + b, 0), xs.reduce((a, b) => a + b * b, 0)] as const;

  // t.test(x)$conf.int
  it.each([
    [[2, 3, 5, 7, 11], 1.157687832, 10.042312168],
    [[50, 60, 70, 80], 44.45739743, 85.54260257],
    [[1, 1, 2, 1, 3, 2], 0.8098060548, 2.5235272785],
  ])('%j matches R t.test', (xs, low, high) => {
    expect(meanInterval(...sums(xs))).toEqual([Math.round(low * 100) / 100, Math.round(high * 100) / 100]);
  });

  it('is null below 2 observations and a point for identical values', () => {
    expect(meanInterval(0, 0, 0)).toBeNull();
    expect(meanInterval(1, 70, 4900)).toBeNull();
    expect(meanInterval(3, 210, 14700)).toEqual([70, 70]);
  });

  it('contains the mean and narrows when the sample is repeated', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 2, maxLength: 40 }), (xs) => {
        const [n, s, q] = sums(xs);
        const [low, high] = meanInterval(n, s, q)!;
        const mean = Math.round((100 * s) / n) / 100;
        expect(low).toBeLessThanOrEqual(mean);
        expect(mean).toBeLessThanOrEqual(high);
        const [l2, h2] = meanInterval(2 * n, 2 * s, 2 * q)!;
        expect(h2 - l2).toBeLessThanOrEqual(high - low);
      }),
    );
  });
});

describe('two-proportion z-test', () => {
  // sqrt(prop.test(c(x1, x2), c(n1, n2), correct = FALSE)$statistic): the pooled z
  it.each([
    [30, 100, 45, 100, -2.19089],
    [52, 100, 38, 100, 1.989873],
    [51, 100, 38, 100, 1.849702],
    [60, 200, 40, 200, 2.309401],
    [5000, 10000, 4700, 10000, 4.244551],
  ])('%i/%i against %i/%i: |z| as R', (x1, n1, x2, n2, z) => {
    expect(twoProportionZ(x1, n1, x2, n2)).toBeCloseTo(z, 5);
  });

  it('says up or down only beyond the 95% level', () => {
    expect(significantChange(52, 100, 38, 100)).toBe('up'); // p = 0.0466
    expect(significantChange(51, 100, 38, 100)).toBe('stable'); // p = 0.0644, though 13 points apart
    expect(significantChange(38, 100, 52, 100)).toBe('down');
    expect(significantChange(38, 100, 51, 100)).toBe('stable');
    expect(significantChange(5000, 10000, 4700, 10000)).toBe('up'); // 3 points, but 20,000 answers
    expect(significantChange(0, 10, 0, 10)).toBe('stable');
    expect(significantChange(10, 10, 0, 10)).toBe('up');
  });

  it('is null when either window is empty', () => {
    expect(significantChange(0, 0, 3, 10)).toBeNull();
    expect(significantChange(3, 10, 0, 0)).toBeNull();
  });

  it('is antisymmetric', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 500 }), fc.nat(), fc.nat(), (n1, n2, a, b) => {
        const x1 = a % (n1 + 1);
        const x2 = b % (n2 + 1);
        expect(twoProportionZ(x1, n1, x2, n2)! + twoProportionZ(x2, n2, x1, n1)!).toBeCloseTo(0, 9);
      }),
    );
  });
});

describe('trials for a margin (sampling plan)', () => {
  it('at p = 0.5 matches the closed form n ≥ z²/(4m²) − z² of the Wilson half-width z / (2√(n + z²))', () => {
    for (const margin of [1, 2.5, 5, 10, 20]) {
      const closedForm = Math.ceil((Z95 * Z95) / (4 * (margin / 100) ** 2) - Z95 * Z95);
      expect(trialsForMargin(0.5, margin)).toBe(closedForm);
    }
    expect(trialsForMargin(0.5, 5)).toBe(381);
  });

  it('is the fewest trials whose interval fits, at any proportion', () => {
    for (const p of [0, 0.03, 0.2, 0.5, 0.77, 1]) {
      for (const margin of [1, 3, 5, 10, 50]) {
        const n = trialsForMargin(p, margin);
        expect(wilsonHalfWidth(p, n)).toBeLessThanOrEqual(margin / 100);
        if (n > 1) expect(wilsonHalfWidth(p, n - 1)).toBeGreaterThan(margin / 100);
      }
    }
  });

  it('agrees with the rounded interval that figures show', () => {
    const n = trialsForMargin(0.5, 5);
    const [low, high] = wilson(n / 2, n)!; // 381 is odd: x = 190.5 as a proportion is still 0.5
    expect((high - low) / 2).toBeLessThanOrEqual(5.005);
    expect(wilsonHalfWidth(0.5, n) * 100).toBeCloseTo((high - low) / 2, 1);
  });
});
