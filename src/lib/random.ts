/** A source of uniform numbers in [0, 1). */
export type Rng = () => number;

/**
 * mulberry32: a small, fast generator whose sequence follows from its seed alone, for made-up
 * answers, simulated samples and test values that must come out the same on every run.
 */
export function mulberry32(seed: number): Rng {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
