import { describe, expect, it } from 'vitest';
import { countPages } from './prompt-citations.js';

describe('countPages: the citations of each page, from the citing answers newest first', () => {
  it('counts each page once per answer, ORs the brand masks, spans first to last day and ranks by the newest citation', () => {
    const counted = countPages([
      { day: '2026-03-09', mask: 0b001, cited: '7,3' },
      { day: '2026-03-09', mask: 0b100, cited: '3' },
      { day: '2026-03-02', mask: 0b010, cited: '9,7' },
      { day: '2026-02-27', mask: 0, cited: '7' },
    ]);
    expect(counted.sort((a, b) => a.page - b.page)).toEqual([
      { page: 3, n: 2, mask: 0b101, first: '2026-03-09', last: '2026-03-09', rank: 1 },
      { page: 7, n: 3, mask: 0b011, first: '2026-02-27', last: '2026-03-09', rank: 1 },
      { page: 9, n: 1, mask: 0b010, first: '2026-03-02', last: '2026-03-02', rank: 3 },
    ]);
  });

  it('has nothing to count without answers', () => {
    expect(countPages([])).toEqual([]);
  });
});
