import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from './memory.js';

// The in-process sliding-window log, on an injected clock (no sleeping, exact edges).

const W = 60_000;
const BASE = 1_700_000_000_000;
let now = BASE;
let limiter: MemoryRateLimiter;
const make = (windowMs = W) => (limiter = new MemoryRateLimiter(windowMs, () => now));

afterEach(async () => {
  await limiter?.close();
  now = BASE;
});

async function burst(l: MemoryRateLimiter, n: number, subject = 's', limit = 70) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await l.hit(subject, limit));
  return out;
}

describe('MemoryRateLimiter', () => {
  it('lets exactly `limit` requests through, remaining counting down limit-1..0', async () => {
    const l = make();
    const ds = await burst(l, 100);
    expect(ds.filter((d) => d.allowed)).toHaveLength(70);
    expect(ds.slice(0, 70).map((d) => d.remaining)).toEqual(Array.from({ length: 70 }, (_, i) => 69 - i));
    expect(ds.slice(0, 70).every((d) => d.allowed && d.retryAfter === 0 && d.limit === 70)).toBe(true);
    for (const d of ds.slice(70)) expect(d).toEqual({ allowed: false, limit: 70, remaining: 0, retryAfter: 60 });
  });

  it('is a sliding window: the first burst ages out while the second still counts', async () => {
    const l = make();
    expect((await burst(l, 35)).every((d) => d.allowed)).toBe(true); // at t = 0
    now = BASE + 30_000;
    expect((await burst(l, 35)).every((d) => d.allowed)).toBe(true); // at t = 30 s
    now = BASE + 59_999;
    expect(await l.hit('s', 70)).toEqual({ allowed: false, limit: 70, remaining: 0, retryAfter: 1 });
    now = BASE + 60_000; // the first burst is exactly one window old: gone
    const after = await burst(l, 40);
    expect(after.filter((d) => d.allowed)).toHaveLength(35);
    expect(after.slice(0, 35).every((d) => d.allowed)).toBe(true);
    // A fixed window would have reset everything; here the t = 30 s burst holds until t = 90 s.
    expect(after[35]).toEqual({ allowed: false, limit: 70, remaining: 0, retryAfter: 30 });
    now = BASE + 90_000;
    expect((await burst(l, 35)).every((d) => d.allowed)).toBe(true);
  });

  it('does not count refused requests: a client that backs off gets through when its oldest request ages out', async () => {
    const l = make();
    await burst(l, 70);
    now = BASE + 10_000;
    const refused = await burst(l, 500);
    expect(refused.every((d) => !d.allowed && d.retryAfter === 50)).toBe(true);
    now = BASE + W;
    expect((await burst(l, 70)).every((d) => d.allowed)).toBe(true);
  });

  it('keeps one window per subject', async () => {
    const l = make();
    await burst(l, 70, 'key:a');
    expect((await l.hit('key:a', 70)).allowed).toBe(false);
    expect(await l.hit('key:b', 70)).toMatchObject({ allowed: true, remaining: 69 });
    expect(await l.hit('ip:10.0.0.1', 70)).toMatchObject({ allowed: true, remaining: 69 });
  });

  it('applies the limit given per call (a tier change takes effect at once)', async () => {
    const l = make();
    const premium = await burst(l, 100, 's', 350);
    expect(premium.every((d) => d.allowed && d.limit === 350)).toBe(true);
    expect(premium[99].remaining).toBe(250);
    // Down to standard with 100 in the window: refused until 31 of them have aged out.
    now = BASE + 1;
    const d = await l.hit('s', 70);
    expect(d).toEqual({ allowed: false, limit: 70, remaining: 0, retryAfter: 60 });
    now = BASE + W;
    expect(await l.hit('s', 70)).toMatchObject({ allowed: true, remaining: 69 });
  });

  it('rounds Retry-After up to whole seconds, never below 1', async () => {
    const l = make();
    await burst(l, 70);
    for (const [elapsed, expected] of [
      [1, 60],
      [999, 60],
      [1_000, 59],
      [1_001, 59],
      [58_999, 2],
      [59_000, 1],
      [59_999, 1],
    ] as const) {
      now = BASE + elapsed;
      expect((await l.hit('s', 70)).retryAfter, `after ${elapsed} ms`).toBe(expected);
    }
  });

  it('matches a reference model of the sliding window, and Retry-After is exact (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ advance: fc.oneof(fc.integer({ min: 0, max: 4_000 }), fc.constantFrom(0, 1, 2_500, 5_000, 10_000)), subject: fc.constantFrom('a', 'b'), limit: fc.constantFrom(3, 5) }), {
          minLength: 1,
          maxLength: 200,
        }),
        async (ops) => {
          const window = 10_000;
          let clock = BASE;
          const l = new MemoryRateLimiter(window, () => clock);
          const passed: Record<string, number[]> = { a: [], b: [] };
          try {
            for (const op of ops) {
              clock += op.advance;
              const inWindow = passed[op.subject].filter((ts) => ts > clock - window);
              const d = await l.hit(op.subject, op.limit);
              expect(d.allowed).toBe(inWindow.length < op.limit);
              if (d.allowed) {
                passed[op.subject].push(clock);
                expect(d.remaining).toBe(op.limit - inWindow.length - 1);
              } else {
                // The request passes again exactly when enough of the window has aged out:
                // not a millisecond before retryAfter's last second, and by retryAfter.
                const needed = inWindow.length - op.limit + 1;
                const releaseAt = inWindow[needed - 1] + window; // first instant with < limit in window
                expect(d.retryAfter).toBe(Math.max(1, Math.ceil((releaseAt - clock) / 1000)));
                expect(d.remaining).toBe(0);
              }
            }
          } finally {
            await l.close();
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
