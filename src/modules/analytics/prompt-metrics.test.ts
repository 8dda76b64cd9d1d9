import { describe, expect, it } from 'vitest';
import { addInts, intsOf } from './prompt-metrics.js';

describe('int arrays read as text', () => {
  it('intsOf splits an array, empty or not', () => {
    expect(intsOf('{}')).toEqual([]);
    expect(intsOf('{3,0,-12}')).toEqual([3, 0, -12]);
  });

  it('addInts adds element by element into a sparse array, negatives and longer arrays included', () => {
    const into: number[] = [];
    addInts('{}', into);
    expect(into).toEqual([]);
    addInts('{3,0,12}', into);
    expect(into).toEqual([3, 0, 12]);
    addInts('{-1,5}', into);
    expect(into).toEqual([2, 5, 12]);
    addInts('{0,0,0,1048576}', into);
    expect(into).toEqual([2, 5, 12, 1048576]);
    // as intsOf, summed, for any text PostgreSQL writes
    const texts = ['{7}', '{10,-20,30}', '{0,2147483647}'];
    const sum: number[] = [];
    for (const t of texts) {
      for (const [i, v] of intsOf(t).entries()) sum[i] = (sum[i] ?? 0) + v;
    }
    expect(texts.reduce((acc, t) => addInts(t, acc), [] as number[])).toEqual(sum);
  });
});
