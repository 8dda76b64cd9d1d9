import crypto from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { RedisRateLimiter } from './redis.js';

// The shared limiter of server mode, against a real Redis (TEST_REDIS_URL). Every test
// uses its own key prefix, so runs and parallel files never see each other's windows.

const URL = process.env.TEST_REDIS_URL;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const open: RedisRateLimiter[] = [];
function limiter(windowMs: number, prefix: string, onError: (err: unknown) => void = () => {}, url = URL!) {
  const l = new RedisRateLimiter(url, windowMs, onError, prefix);
  open.push(l);
  return l;
}
const newPrefix = () => `sightline:test:${crypto.randomBytes(6).toString('hex')}:`;

afterEach(async () => {
  await Promise.all(open.splice(0).map((l) => l.close()));
});

async function burst(l: RedisRateLimiter, n: number, subject = 'key:s', limit = 70) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await l.hit(subject, limit));
  return out;
}

describe.skipIf(!URL)('RedisRateLimiter (needs TEST_REDIS_URL, e.g. redis://127.0.0.1:6379)', () => {
  const inspect = URL ? new Redis(URL, { lazyConnect: true }) : null;
  const prefixes: string[] = [];
  const p = () => {
    const x = newPrefix();
    prefixes.push(x);
    return x;
  };

  afterAll(async () => {
    if (!inspect) return;
    for (const prefix of prefixes) {
      const keys = await inspect.keys(`${prefix}*`);
      if (keys.length) await inspect.del(...keys);
    }
    inspect.disconnect();
  });

  it('lets exactly `limit` requests through, remaining counting down, then Retry-After up to the window', async () => {
    const l = limiter(60_000, p());
    const ds = await burst(l, 100);
    expect(ds.filter((d) => d.allowed)).toHaveLength(70);
    expect(ds.slice(0, 70).map((d) => d.remaining)).toEqual(Array.from({ length: 70 }, (_, i) => 69 - i));
    for (const d of ds.slice(70)) {
      expect(d).toMatchObject({ allowed: false, limit: 70, remaining: 0 });
      expect(d.retryAfter).toBeGreaterThanOrEqual(59);
      expect(d.retryAfter).toBeLessThanOrEqual(60);
    }
  });

  it('two limiters on one Redis (two API processes) share one window: 70 in total', async () => {
    const prefix = p();
    const a = limiter(60_000, prefix);
    const b = limiter(60_000, prefix);
    const ds = [];
    for (let i = 0; i < 100; i++) ds.push(await (i % 2 ? a : b).hit('key:shared', 70));
    expect(ds.filter((d) => d.allowed)).toHaveLength(70);
    expect(ds.slice(0, 70).every((d) => d.allowed)).toBe(true);
    // And concurrently, from both at once, the check-and-record stays atomic.
    const c = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).hit('key:concurrent', 70)));
    expect(c.filter((d) => d.allowed)).toHaveLength(70);
    expect(c.filter((d) => d.allowed).map((d) => d.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: 70 }, (_, i) => i));
  });

  it('keeps one window per subject and applies the limit given per call', async () => {
    const l = limiter(60_000, p());
    await burst(l, 70, 'key:a');
    expect((await l.hit('key:a', 70)).allowed).toBe(false);
    expect(await l.hit('key:b', 70)).toMatchObject({ allowed: true, remaining: 69 });
    // premium for the same subject: 350 - 70 left
    expect(await l.hit('key:a', 350)).toMatchObject({ allowed: true, remaining: 279 });
  });

  it('is a sliding window: the first burst ages out while the second still counts', async () => {
    const W = 1_500;
    const l = limiter(W, p());
    const t0 = Date.now();
    expect((await burst(l, 35)).every((d) => d.allowed)).toBe(true);
    const t1 = Date.now();
    await sleep(Math.max(t0 + 600, t1 + 400) - Date.now());
    const t2 = Date.now();
    expect((await burst(l, 35)).every((d) => d.allowed)).toBe(true);
    const full = await l.hit('key:s', 70);
    expect(full.allowed).toBe(false);
    expect(full.retryAfter).toBeGreaterThanOrEqual(1);
    expect(full.retryAfter).toBeLessThanOrEqual(2);
    await sleep(t1 + W + 50 - Date.now());
    const after = await burst(l, 40);
    expect(Date.now(), 'measured while the second burst is still in the window').toBeLessThan(t2 + W);
    expect(after.filter((d) => d.allowed)).toHaveLength(35);
    expect(after.slice(0, 35).every((d) => d.allowed)).toBe(true);
  });

  it('lets its keys expire with the window, so idle subjects cost Redis nothing', async () => {
    const prefix = p();
    const l = limiter(2_000, prefix);
    await l.hit('key:ttl', 70);
    const ttl = await inspect!.pttl(`${prefix}key:ttl`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(2_000);
    // The window is the subject's only key.
    expect(await inspect!.keys(`${prefix}*`)).toEqual([`${prefix}key:ttl`]);
  });

  it('hits of one turn of the event loop go in one script call, each decided in order as if alone', async () => {
    const l = limiter(60_000, p());
    await l.hit('key:warm', 70); // the script loaded into Redis (a first call may take two commands)
    // Script calls sent by this process (Redis's own counters are shared with other test files).
    const sent = vi.spyOn(Redis.prototype, 'sendCommand');
    const scriptCalls = () => sent.mock.calls.filter(([cmd]) => /^eval(sha)?$/i.test((cmd as { name: string }).name)).length;
    const before = scriptCalls();
    // Three subjects interleaved, two limits: one batch.
    const ds = await Promise.all(Array.from({ length: 240 }, (_, i) => l.hit(`key:${i % 3}`, i % 3 === 2 ? 350 : 70)));
    expect(scriptCalls()).toBe(before + 1);
    for (const subject of [0, 1, 2]) {
      const mine = ds.filter((_, i) => i % 3 === subject);
      const limit = subject === 2 ? 350 : 70;
      expect(mine.filter((d) => d.allowed)).toHaveLength(Math.min(80, limit));
      expect(mine.slice(0, Math.min(80, limit)).map((d) => d.remaining)).toEqual(Array.from({ length: Math.min(80, limit) }, (_, i) => limit - 1 - i));
      for (const d of mine.slice(limit)) expect(d).toMatchObject({ allowed: false, remaining: 0, retryAfter: 60 });
    }
    // The next turn is another call, on the same windows.
    expect(await l.hit('key:0', 70)).toMatchObject({ allowed: false, remaining: 0 });
    expect(await l.hit('key:2', 350)).toMatchObject({ allowed: true, remaining: 269 });
    expect(scriptCalls()).toBe(before + 3);
    sent.mockRestore();
  });
});

/** A TCP hop in front of Redis that the test can cut and restore (a Redis outage). */
async function redisProxy(target: string) {
  const { hostname, port } = new globalThis.URL(target);
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let listenPort = 0;
  const up = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(port || 6379), hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(listenPort, '127.0.0.1', () => {
        listenPort = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server ? server.close(() => resolve()) : resolve();
      server = null;
    });
  await up();
  return { url: `redis://127.0.0.1:${listenPort}`, up, down };
}

describe.skipIf(!URL)('RedisRateLimiter through a Redis outage (needs TEST_REDIS_URL)', () => {
  it('fails open while Redis is away and limits again, with the same window, once it is back', async () => {
    const proxy = await redisProxy(URL!);
    const onError = vi.fn();
    const l = limiter(60_000, newPrefix(), onError, proxy.url);
    try {
      const ds = await burst(l, 71);
      expect(ds.filter((d) => d.allowed)).toHaveLength(70);
      await proxy.down();
      await sleep(50);
      const during = await burst(l, 5);
      expect(during.every((d) => d.allowed && d.remaining === 70)).toBe(true);
      expect(onError).toHaveBeenCalled();
      await proxy.up();
      const deadline = Date.now() + 10_000;
      let back = await l.hit('key:s', 70);
      while (back.allowed && Date.now() < deadline) {
        await sleep(100);
        back = await l.hit('key:s', 70);
      }
      // The window kept in Redis survived the outage: the subject is still over its limit.
      expect(back).toMatchObject({ allowed: false, remaining: 0 });
    } finally {
      await l.close();
      await proxy.down();
    }
  });
});

describe('RedisRateLimiter when Redis is unreachable', () => {
  it('fails open: the request is allowed (remaining = limit) and the error is reported, quickly', async () => {
    const onError = vi.fn();
    const l = limiter(60_000, newPrefix(), onError, 'redis://127.0.0.1:1');
    const started = Date.now();
    const ds = await burst(l, 100);
    expect(Date.now() - started).toBeLessThan(5_000);
    for (const d of ds) expect(d).toEqual({ allowed: true, limit: 70, remaining: 70, retryAfter: 0 });
    expect(onError).toHaveBeenCalled();
  });
});
