import { afterAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createAccount, startTestApp, type TestApp } from '../../../test/helpers.js';

// DASHBOARD_RATE_LIMIT: a signed-in session has its own window; it neither spends nor
// is starved by the team key's budget, and each session counts on its own.

const LIMIT = 5;
const t: TestApp = await startTestApp({ dashboardRateLimit: LIMIT });
afterAll(async () => t.stop());

let addr = 0;
const nextAddress = () => `10.7.${(++addr >> 8) & 255}.${addr & 255}`;

function cookieOf(res: LightMyRequestResponse): string {
  const raw = [res.headers['set-cookie']].flat().find((c) => String(c).startsWith('sightline_session='));
  if (!raw) throw new Error(`no session cookie: ${res.statusCode} ${res.body}`);
  return String(raw).split(';')[0];
}

async function signIn(email: string, password: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/session', payload: { email, password }, remoteAddress: nextAddress() });
  expect(res.statusCode, res.body).toBe(201);
  return cookieOf(res);
}

describe('dashboard requests are limited per session', () => {
  it('the session has DASHBOARD_RATE_LIMIT requests per window, then a 429 with Retry-After; the key keeps its own 70', async () => {
    const acct = await createAccount(t.app);
    const cookie = await signIn(acct.email, acct.password);
    for (let i = 0; i < LIMIT; i++) {
      const res = await t.app.inject({ url: '/v1/projects', headers: { cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
      expect(res.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1 - i));
    }
    const refused = await t.app.inject({ url: '/v1/projects', headers: { cookie } });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().detail).toMatch(/^Rate limit exceeded\. Retry after \d+ seconds\.$/);

    // The team's API key was not touched by the dashboard's requests.
    const byKey = await t.app.inject({ url: '/v1/projects', headers: { 'x-api-key': acct.key } });
    expect(byKey.statusCode).toBe(200);
    expect(byKey.headers['x-ratelimit-limit']).toBe('70');
    expect(byKey.headers['x-ratelimit-remaining']).toBe('69');

    // A second session of the same person starts with a full window of its own.
    const other = await signIn(acct.email, acct.password);
    const fresh = await t.app.inject({ url: '/v1/projects', headers: { cookie: other } });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['x-ratelimit-remaining']).toBe(String(LIMIT - 1));
  });

  it("an exhausted API key does not stop the team's dashboard", async () => {
    const acct = await createAccount(t.app);
    let last = 0;
    for (let i = 0; i < 71; i++) last = (await t.app.inject({ url: '/v1/projects', headers: { 'x-api-key': acct.key } })).statusCode;
    expect(last).toBe(429);
    const cookie = await signIn(acct.email, acct.password);
    const res = await t.app.inject({ url: '/v1/projects', headers: { cookie } });
    expect(res.statusCode).toBe(200);
  });
});
