import { describe, expect, it } from 'vitest';
import { addIntArrayText } from './codec.js';

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
});
