import { afterAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createAccount, createProject, errorBody, startTestApp, type TestApp } from '../../../test/helpers.js';

// Dashboard sessions through HTTP: sign-in both ways, the cookie's attributes, the cookie
// accepted by the auth layer with the key's scope, CSRF on writes, expiry, revocation.

const t: TestApp = await startTestApp();
afterAll(async () => t.stop());

let addr = 0;
const nextAddress = () => `10.9.${(++addr >> 8) & 255}.${addr & 255}`;

function cookieOf(res: LightMyRequestResponse): string {
  const raw = [res.headers['set-cookie']].flat().find((c) => String(c).startsWith('sightline_session='));
  if (!raw) throw new Error(`no session cookie: ${res.statusCode} ${res.body}`);
  return String(raw).split(';')[0];
}

async function signIn(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/session', payload: body, headers, remoteAddress: nextAddress() });
  expect(res.statusCode, res.body).toBe(201);
  return { res, cookie: cookieOf(res), csrf: res.json().data.csrf_token as string, id: res.json().data.id as string };
}

const as = (cookie: string, csrf?: string) => ({ cookie, ...(csrf ? { 'x-csrf-token': csrf } : {}) });

describe('sign in', () => {
  it('with email and password: an admin session, an HttpOnly SameSite=Strict cookie, not Secure over plain HTTP', async () => {
    const acct = await createAccount(t.app);
    const { res, cookie } = await signIn({ email: acct.email.toUpperCase(), password: acct.password });
    expect(res.json().data).toMatchObject({ team_id: acct.teamId, scope: 'admin', email: acct.email });
    const raw = String([res.headers['set-cookie']].flat()[0]);
    expect(raw).toMatch(/HttpOnly/);
    expect(raw).toMatch(/SameSite=Strict/);
    expect(raw).not.toMatch(/Secure/);
    const me = await t.app.inject({ url: '/v1/session', headers: as(cookie) });
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ team_id: acct.teamId, scope: 'admin', csrf_token: res.json().data.csrf_token });
    const projects = await t.app.inject({ url: '/v1/projects', headers: as(cookie) });
    expect(projects.statusCode).toBe(200);
    expect(projects.headers['x-ratelimit-limit']).toBe('600');
  });

  it('with a viewer key: a viewer session that reads and cannot write (403 even with its CSRF token)', async () => {
    const acct = await createAccount(t.app);
    const projectId = await createProject(t.app, acct.key);
    const v = await t.app.inject({ method: 'POST', url: '/v1/keys', headers: { 'x-api-key': acct.key }, payload: { scope: 'viewer' } });
    const { cookie, csrf, res } = await signIn({ api_key: v.json().data.api_key });
    expect(res.json().data).toMatchObject({ scope: 'viewer', email: null });
    expect((await t.app.inject({ url: `/v1/projects/${projectId}`, headers: as(cookie) })).statusCode).toBe(200);
    const write = await t.app.inject({ method: 'POST', url: `/v1/projects/${projectId}/competitors`, headers: as(cookie, csrf), payload: { competitors: [{ name: 'Rival', website: 'rival.com' }] } });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toEqual(errorBody(expect.any(String), 'read_only_key'));
  });

  it('refuses a wrong password, an unknown key and a malformed body', async () => {
    const acct = await createAccount(t.app);
    const bad = await t.app.inject({ method: 'POST', url: '/v1/session', payload: { email: acct.email, password: 'nope' }, remoteAddress: nextAddress() });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['set-cookie']).toBeUndefined();
    const key = await t.app.inject({ method: 'POST', url: '/v1/session', payload: { api_key: 'tk_live_nope' }, remoteAddress: nextAddress() });
    expect(key.statusCode).toBe(401);
    const both = await t.app.inject({ method: 'POST', url: '/v1/session', payload: { api_key: acct.key, email: acct.email }, remoteAddress: nextAddress() });
    expect(both.statusCode).toBe(400);
  });

  it('limits sign-in attempts per address: the 11th in a minute is a 429 with Retry-After', async () => {
    const statuses: number[] = [];
    let last: LightMyRequestResponse | null = null;
    for (let i = 0; i < 11; i++) {
      last = await t.app.inject({ method: 'POST', url: '/v1/session', payload: { email: 'x@example.com', password: 'guess' }, remoteAddress: '10.99.0.1' });
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('marks the cookie Secure when the request came over TLS through a trusted proxy', async () => {
    const p = await startTestApp({ trustProxy: true });
    try {
      const acct = await createAccount(p.app);
      const res = await p.app.inject({ method: 'POST', url: '/v1/session', payload: { api_key: acct.key }, headers: { 'x-forwarded-proto': 'https' } });
      expect(String([res.headers['set-cookie']].flat()[0])).toMatch(/; Secure/);
    } finally {
      await p.stop();
    }
  });
});

describe('the cookie in the auth matrix', () => {
  it('no cookie or a made-up one: 401', async () => {
    expect((await t.app.inject({ url: '/v1/projects' })).statusCode).toBe(401);
    const res = await t.app.inject({ url: '/v1/projects', headers: { cookie: 'sightline_session=sls_made_up' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(errorBody(expect.stringMatching(/session/i), 'unauthorized'));
  });

  it('a write without the CSRF token, or with another session\'s, is a 403 and changes nothing', async () => {
    const acct = await createAccount(t.app);
    const projectId = await createProject(t.app, acct.key);
    const a = await signIn({ email: acct.email, password: acct.password });
    const b = await signIn({ api_key: acct.key });
    const url = `/v1/projects/${projectId}/competitors`;
    for (const headers of [as(a.cookie), as(a.cookie, b.csrf), as(a.cookie, '')]) {
      const res = await t.app.inject({ method: 'POST', url, headers, payload: { competitors: [{ name: 'Rival', website: 'rival.com' }] } });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('csrf_failed');
    }
    const list = await t.app.inject({ url, headers: as(a.cookie) });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain('Rival');
    const ok = await t.app.inject({ method: 'POST', url, headers: as(a.cookie, a.csrf), payload: { competitors: [{ name: 'Rival', website: 'rival.com' }] } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await t.app.inject({ url, headers: as(a.cookie) })).body).toContain('Rival');
  });

  it("another team's project: 403 with a session as with a key", async () => {
    const mine = await createAccount(t.app);
    const theirs = await createAccount(t.app);
    const theirProject = await createProject(t.app, theirs.key);
    const s = await signIn({ email: mine.email, password: mine.password });
    const res = await t.app.inject({ url: `/v1/projects/${theirProject}`, headers: as(s.cookie) });
    expect(res.statusCode).toBe(403);
    const keyRes = await t.app.inject({ url: `/v1/projects/${theirProject}`, headers: { 'x-api-key': mine.key } });
    expect(keyRes.statusCode).toBe(403);
  });

  it('an expired session: 401', async () => {
    const acct = await createAccount(t.app);
    const s = await signIn({ api_key: acct.key });
    await t.runtime.ctx.store.query(`update sessions set expires_at = now() - interval '1 second' where id = $1`, [s.id]);
    const res = await t.app.inject({ url: '/v1/projects', headers: as(s.cookie) });
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toMatch(/expired/);
  });

  it('sign out revokes the session (needs CSRF) and clears the cookie; the other sessions live on', async () => {
    const acct = await createAccount(t.app);
    const a = await signIn({ email: acct.email, password: acct.password });
    const b = await signIn({ email: acct.email, password: acct.password });
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/session', headers: as(a.cookie) })).statusCode).toBe(403);
    const out = await t.app.inject({ method: 'DELETE', url: '/v1/session', headers: as(a.cookie, a.csrf) });
    expect(out.statusCode).toBe(200);
    expect(String([out.headers['set-cookie']].flat()[0])).toMatch(/^sightline_session=;.*Expires=Thu, 01 Jan 1970/);
    const after = await t.app.inject({ url: '/v1/projects', headers: as(a.cookie) });
    expect(after.statusCode).toBe(401);
    expect(after.json().detail).toMatch(/signed out/);
    expect((await t.app.inject({ url: '/v1/projects', headers: as(b.cookie) })).statusCode).toBe(200);
  });

  it('an admin lists and revokes the team\'s sessions; deactivating the key ends its sessions', async () => {
    const acct = await createAccount(t.app);
    const other = await createAccount(t.app);
    const a = await signIn({ email: acct.email, password: acct.password });
    const b = await signIn({ api_key: acct.key });
    const list = await t.app.inject({ url: '/v1/sessions', headers: { 'x-api-key': acct.key } });
    expect(list.json().data.map((s: { id: string }) => s.id).sort()).toEqual([a.id, b.id].sort());
    // Another team cannot end them.
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/sessions/${a.id}`, headers: { 'x-api-key': other.key } })).statusCode).toBe(404);
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/sessions/${a.id}`, headers: { 'x-api-key': acct.key } });
    expect(del.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/projects', headers: as(a.cookie) })).statusCode).toBe(401);
    const keys = await t.app.inject({ url: '/v1/keys', headers: { 'x-api-key': acct.key } });
    const keyId = keys.json().data[0].id;
    await t.app.inject({ method: 'PATCH', url: `/v1/keys/${keyId}`, headers: { 'x-api-key': acct.key }, payload: { is_active: false } });
    const res = await t.app.inject({ url: '/v1/projects', headers: as(b.cookie) });
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toMatch(/inactive/);
  });

  it('GET /v1/session with an API key (no cookie) is a 404', async () => {
    const acct = await createAccount(t.app);
    const res = await t.app.inject({ url: '/v1/session', headers: { 'x-api-key': acct.key } });
    expect(res.statusCode).toBe(404);
  });
});
