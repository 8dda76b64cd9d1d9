import { describe, expect, it } from 'vitest';
import { addInts } from './prompt-metrics.js';

describe('int arrays read as text', () => {
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
    expect(addInts('{0,2147483647}', [])).toEqual([0, 2147483647]);
  });

  it('adds times a weight: a window cover subtracts a bucket with -1', () => {
    const into = addInts('{7,1}', []);
    addInts('{10,-20,30}', into, -1);
    expect(into).toEqual([-3, 21, -30]);
    addInts('{2}', into, 0);
    expect(into).toEqual([-3, 21, -30]);
  });
});
