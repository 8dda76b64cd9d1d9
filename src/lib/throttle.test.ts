import { describe, expect, it } from 'vitest';
import { atMostEvery } from './throttle.js';

describe('atMostEvery', () => {
  it('runs at most once per interval and reports how many calls it held back', () => {
    let now = 1_000;
    const seen: Array<[string, number]> = [];
    const warn = atMostEvery<string>(60_000, (msg, held) => seen.push([msg, held]), () => now);
    warn('a');
    for (let i = 0; i < 5; i++) {
      now += 10_000;
      warn(`b${i}`);
    }
    expect(seen).toEqual([['a', 0]]);
    now += 10_001; // 60,001 ms after the first
    warn('c');
    expect(seen).toEqual([
      ['a', 0],
      ['c', 5],
    ]);
  });
});
