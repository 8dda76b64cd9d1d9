import { describe, expect, it } from 'vitest';
import { addIntArrayText, addWeightedIntArrayTexts } from './codec.js';

describe('int arrays read as text', () => {
  it('addIntArrayText adds element by element into a sparse array, negatives and longer arrays included', () => {
    const into: number[] = [];
    addIntArrayText('{}', into);
    expect(into).toEqual([]);
    addIntArrayText('{3,0,12}', into);
    expect(into).toEqual([3, 0, 12]);
    addIntArrayText('{-1,5}', into);
    expect(into).toEqual([2, 5, 12]);
    addIntArrayText('{0,0,0,1048576}', into);
    expect(into).toEqual([2, 5, 12, 1048576]);
    expect(addIntArrayText('{0,2147483647}', [])).toEqual([0, 2147483647]);
  });

  it('adds times a weight: a window cover subtracts a bucket with -1', () => {
    const into = addIntArrayText('{7,1}', []);
    addIntArrayText('{10,-20,30}', into, -1);
    expect(into).toEqual([-3, 21, -30]);
    addIntArrayText('{2}', into, 0);
    expect(into).toEqual([-3, 21, -30]);
  });

  it('addWeightedIntArrayTexts adds a string_agg of weighted arrays as addIntArrayText adds each', () => {
    expect(addWeightedIntArrayTexts('1{7,1}-1{10,-20,30}', [])).toEqual([-3, 21, -30]);
    expect(addWeightedIntArrayTexts('1{}12{1}', [])).toEqual([12]);
    expect(addWeightedIntArrayTexts('-2{-5,0,4}1{0,0,0,2147483647}', [1])).toEqual([11, 0, -8, 2147483647]);
    // against addIntArrayText, one array at a time, on random arrays and weights
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 200; round++) {
      const parts = Array.from({ length: 1 + next(6) }, () => ({ weight: next(5) - 2, values: Array.from({ length: next(14) }, () => next(2001) - 1000) }));
      const text = parts.map((p) => `${p.weight}{${p.values.join(',')}}`).join('');
      const oneByOne: number[] = [];
      for (const p of parts) addIntArrayText(`{${p.values.join(',')}}`, oneByOne, p.weight);
      expect(addWeightedIntArrayTexts(text, [])).toEqual(oneByOne);
    }
  });
});
