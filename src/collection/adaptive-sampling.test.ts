import { describe, expect, it } from 'vitest';
import { adaptiveSampleCounts, type PromptEvidence } from './adaptive-sampling.js';

const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

describe('adaptive sample counts', () => {
  const prompts: PromptEvidence[] = [
    { promptId: 'certain', responses: 600, mentioned: 12 }, // 2%, narrow
    { promptId: 'borderline', responses: 60, mentioned: 30 }, // 50%, wide
    { promptId: 'new', responses: 0, mentioned: 0 }, // unmeasured: planned at 50%
    { promptId: 'middling', responses: 300, mentioned: 90 },
  ];

  it('spends exactly the credits of a fixed run, at least one sample and at most the cap each', () => {
    for (const [samples, cap] of [[1, 5], [2, 3], [3, 5], [5, 5], [4, 2]]) {
      const counts = adaptiveSampleCounts(prompts, 5, samples, cap);
      expect(total(counts)).toBe(prompts.length * Math.min(samples, cap));
      for (const n of counts.values()) {
        expect(n).toBeGreaterThanOrEqual(1);
        expect(n).toBeLessThanOrEqual(cap);
      }
    }
  });

  it('gives the spare samples to the prompts short of the margin, the closest first', () => {
    const counts = adaptiveSampleCounts(prompts, 5, 3, 5);
    // 8 spare samples. 'certain' is within ±5 points already and keeps one; 'middling' (30%
    // of 300, 323 answers needed) is closest, then 'borderline' (50% of 60); 'new' needs 381.
    expect(Object.fromEntries(counts)).toEqual({ certain: 1, borderline: 5, new: 1, middling: 5 });
  });

  it('once every prompt is within the margin, the widest intervals get the rest', () => {
    const met = [
      { promptId: 'narrow', responses: 3000, mentioned: 60 },
      { promptId: 'wider', responses: 3000, mentioned: 1500 },
    ];
    expect(Object.fromEntries(adaptiveSampleCounts(met, 5, 2, 5))).toEqual({ narrow: 1, wider: 3 });
  });

  it('aims at the margin asked for', () => {
    const one = [{ promptId: 'a', responses: 300, mentioned: 150 }, { promptId: 'b', responses: 300, mentioned: 30 }];
    // ±10 points: both met, the wider (50%) gets the spare; ±3 points: both short, 'b' is closer
    expect(adaptiveSampleCounts(one, 5, 2, 5, 10).get('a')).toBe(3);
    expect(adaptiveSampleCounts(one, 5, 2, 5, 3).get('b')).toBe(3);
  });

  it('is reproducible, and a tie goes to the prompt listed first', () => {
    const twins = [0, 1, 2].map((i) => ({ promptId: `p${i}`, responses: 100, mentioned: 50 }));
    expect([...adaptiveSampleCounts(twins, 1, 2, 5)]).toEqual([...adaptiveSampleCounts(twins, 1, 2, 5)]);
    expect(adaptiveSampleCounts(twins, 1, 2, 5).get('p0')).toBeGreaterThanOrEqual(adaptiveSampleCounts(twins, 1, 2, 5).get('p2')!);
    expect(adaptiveSampleCounts([], 5, 3, 5).size).toBe(0);
  });
});
