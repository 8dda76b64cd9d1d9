import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { createRuntime } from '../src/runtime.js';
import { STORE, createAccount, setTeam, startTestApp, type TestApp } from './helpers.js';

// Spec section 8 through HTTP: a sliding 60-second window per key, 70 standard / 350
// premium, per client address for the account endpoints, headers on every response.

const RETRY = /^Rate limit exceeded\. Retry after (\d+) seconds\.$/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.stop());

const getProjects = (app: TestApp, key: string) =>
  app.app.inject({ method: 'GET', url: '/v1/projects', headers: { 'x-api-key': key } });

async function sequential(n: number, send: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse[]> {
  const out: LightMyRequestResponse[] = [];
  for (let i = 0; i < n; i++) out.push(await send());
  return out;
}

/** Checks a 429 fully and returns its N. */
function expectThrottled(res: LightMyRequestResponse, limit: number): number {
  expect(res.statusCode).toBe(429);
  const body = res.json();
  expect(Object.keys(body)).toEqual(['detail', 'code', 'request_id']);
  const m = RETRY.exec(body.detail);
  expect(m, body.detail).not.toBeNull();
  const n = Number(m![1]);
  expect(n).toBeGreaterThanOrEqual(1);
  expect(res.headers['retry-after']).toBe(String(n));
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(res.headers['x-ratelimit-remaining']).toBe('0');
  expect(String(res.headers['x-credit-available'])).toMatch(/^\d+$/);
  return n;
}

describe('per key, standard tier', () => {
  it('passes exactly 70 of 200 rapid requests; the other 130 get 429 with Retry-After', async () => {
    const acct = await createAccount(t.app);
    const res = await sequential(200, () => getProjects(t, acct.key));
    const passed = res.filter((r) => r.statusCode === 200);
    expect(passed).toHaveLength(70);
    expect(res.slice(0, 70).every((r) => r.statusCode === 200)).toBe(true);
    expect(passed.map((r) => Number(r.headers['x-ratelimit-remaining']))).toEqual(Array.from({ length: 70 }, (_, i) => 69 - i));
    for (const r of passed) {
      expect(r.headers['x-ratelimit-limit']).toBe('70');
      expect(r.headers['x-credit-available']).toBe('10'); // skip_trial: 10 credits, none used
      expect(r.headers['retry-after']).toBeUndefined();
    }
    const throttled = res.slice(70);
    expect(throttled).toHaveLength(130);
    for (const r of throttled) {
      const n = expectThrottled(r, 70);
      expect(n).toBeLessThanOrEqual(60);
    }
  });

  it('is exact under concurrency too: 70 of 200 simultaneous requests pass', async () => {
    const acct = await createAccount(t.app);
    const res = await Promise.all(Array.from({ length: 200 }, () => getProjects(t, acct.key)));
    expect(res.filter((r) => r.statusCode === 200)).toHaveLength(70);
    expect(res.filter((r) => r.statusCode === 429)).toHaveLength(130);
  });

  it('counts per key: a second key of the same team has its own window', async () => {
    const acct = await createAccount(t.app);
    const created = await t.app.inject({ method: 'POST', url: '/v1/keys', headers: { 'x-api-key': acct.key }, payload: { scope: 'viewer' } });
    expect(created.statusCode).toBe(201);
    await sequential(69, () => getProjects(t, acct.key));
    expectThrottled(await getProjects(t, acct.key), 70);
    const res = await getProjects(t, created.json().data.api_key);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('69');
  });

  it('the error answers of a valid key count and carry the headers (a 404 for an unknown project)', async () => {
    const acct = await createAccount(t.app);
    const res = await sequential(75, () =>
      t.app.inject({ method: 'GET', url: '/v1/projects/00000000-0000-4000-8000-000000000000', headers: { 'x-api-key': acct.key } }),
    );
    expect(res.slice(0, 70).every((r) => r.statusCode === 404)).toBe(true);
    expect(res.slice(0, 70).map((r) => Number(r.headers['x-ratelimit-remaining']))).toEqual(Array.from({ length: 70 }, (_, i) => 69 - i));
    for (const r of res.slice(70)) expectThrottled(r, 70);
  });
});

describe('premium tier', () => {
  it('passes exactly 350 of 400 rapid requests', async () => {
    const acct = await createAccount(t.app);
    await setTeam(t, acct.teamId, { rate_limit_tier: 'premium' });
    const res = await sequential(400, () => getProjects(t, acct.key));
    expect(res.filter((r) => r.statusCode === 200)).toHaveLength(350);
    expect(res.slice(0, 350).every((r) => r.statusCode === 200 && r.headers['x-ratelimit-limit'] === '350')).toBe(true);
    expect(Number(res[0].headers['x-ratelimit-remaining'])).toBe(349);
    expect(Number(res[349].headers['x-ratelimit-remaining'])).toBe(0);
    for (const r of res.slice(350)) expectThrottled(r, 350);
  });

  it('an upgrade applies to requests already in the window', async () => {
    const acct = await createAccount(t.app);
    await sequential(70, () => getProjects(t, acct.key));
    expectThrottled(await getProjects(t, acct.key), 70);
    await setTeam(t, acct.teamId, { rate_limit_tier: 'premium' });
    const res = await getProjects(t, acct.key);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('350');
    expect(res.headers['x-ratelimit-remaining']).toBe(String(350 - 71));
  });
});

describe('per client address (account endpoints and failed authentication)', () => {
  it('limits the account endpoints together per address: 70 standard, other addresses unaffected', async () => {
    const from = '192.0.2.10';
    const res = await sequential(80, async () => {
      // Bodies that fail validation: cheap, and they still count.
      return t.app.inject({ method: 'POST', url: '/v1/account/create', payload: { email: '' }, remoteAddress: from });
    });
    // Mix in the other account endpoint: same window.
    const apiKey = await t.app.inject({ method: 'POST', url: '/v1/account/api-key', payload: {}, remoteAddress: from });
    expect(res.slice(0, 70).every((r) => r.statusCode === 400)).toBe(true);
    expect(res.slice(0, 70).map((r) => Number(r.headers['x-ratelimit-remaining']))).toEqual(Array.from({ length: 70 }, (_, i) => 69 - i));
    for (const r of [...res.slice(70), apiKey]) expectThrottled(r, 70);
    expect(res[0].headers['x-credit-available']).toBe('0');
    const elsewhere = await t.app.inject({ method: 'POST', url: '/v1/account/create', payload: { email: '' }, remoteAddress: '192.0.2.11' });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.headers['x-ratelimit-remaining']).toBe('69');
  });

  it('limits failed authentication per address (key guessing is throttled)', async () => {
    const from = '192.0.2.20';
    const res = await sequential(72, () =>
      t.app.inject({ method: 'GET', url: '/v1/projects', headers: { 'x-api-key': `tk_live_${'0'.repeat(32)}` }, remoteAddress: from }),
    );
    expect(res.slice(0, 70).every((r) => r.statusCode === 401 && r.json().detail === 'Invalid API key')).toBe(true);
    for (const r of res.slice(70)) expectThrottled(r, 70);
  });

  it('a valid key is not limited by its address', async () => {
    const acct = await createAccount(t.app);
    const from = '192.0.2.30';
    await sequential(70, () => t.app.inject({ method: 'POST', url: '/v1/account/create', payload: {}, remoteAddress: from }));
    const res = await t.app.inject({ method: 'GET', url: '/v1/projects', headers: { 'x-api-key': acct.key }, remoteAddress: from });
    expect(res.statusCode).toBe(200);
  });
});

// 4 s: room for a burst of requests to take most of a second on a loaded machine and still
// fall where the test means it to (the second burst in the window, the first out of it)
describe('sliding window (RATE_LIMIT_WINDOW_MS = 4000)', () => {
  const W = 4_000;
  let s: TestApp;
  beforeAll(async () => {
    s = await startTestApp({ rateLimitWindowMs: W });
  });
  afterAll(async () => s?.stop());

  it('the first burst ages out while the second still counts (not a fixed window)', async () => {
    const acct = await createAccount(s.app);
    const burst = async (n: number) => (await sequential(n, () => getProjects(s, acct.key))).map((r) => r.statusCode);
    await getProjects(s, acct.key).then((r) => expect(r.statusCode).toBe(200)); // warm the key cache
    await sleep(W + 50); // and let that request age out

    const t0 = Date.now();
    expect(await burst(35)).toEqual(Array(35).fill(200));
    const t1 = Date.now(); // the whole first burst was recorded by now
    await sleep(Math.max(t0 + 0.45 * W, t1 + 0.4 * W) - Date.now());
    const t2 = Date.now(); // the second burst is recorded from now on
    expect(await burst(35)).toEqual(Array(35).fill(200));
    const full = await getProjects(s, acct.key);
    const n = expectThrottled(full, 70);
    expect(n).toBeLessThanOrEqual(Math.ceil(W / 1000));

    await sleep(t1 + W + 50 - Date.now()); // the first burst is out of the window...
    const after = await burst(40);
    expect(Date.now(), 'measured while the second burst is still in the window').toBeLessThan(t2 + W);
    // ...the second one is not: exactly its 35 free places, not a fresh 70.
    expect(after).toEqual([...Array(35).fill(200), ...Array(5).fill(429)]);

  });
});

describe.skipIf(STORE !== 'postgres' || !process.env.TEST_REDIS_URL)(
  'two API processes on one database share one window through Redis (needs TEST_STORE=postgres and TEST_REDIS_URL)',
  () => {
    it('a key gets 70 in total, not 70 per process', async () => {
      const one = await startTestApp({ redisUrl: process.env.TEST_REDIS_URL });
      const two = await createRuntime(loadConfig({}, { ...one.config, role: 'api' }), pino({ level: 'silent' }));
      try {
        const acct = await createAccount(one.app);
        const res = [];
        for (let i = 0; i < 100; i++) {
          const app = i % 2 ? two.app! : one.app;
          res.push(await app.inject({ method: 'GET', url: '/v1/projects', headers: { 'x-api-key': acct.key } }));
        }
        expect(res.filter((r) => r.statusCode === 200)).toHaveLength(70);
        expect(res.slice(0, 70).every((r) => r.statusCode === 200)).toBe(true);
        for (const r of res.slice(70)) expectThrottled(r, 70);
      } finally {
        await two.stop();
        await one.stop();
      }
    });
  },
);
