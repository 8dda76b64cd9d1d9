import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createAccount, createProject, setTeam, startTestApp, type Account, type TestApp } from './helpers.js';
import { isWrite, routeName, sampleBodies, sampleBody, sampleQuery, sampleUrl, uuid } from './route-samples.js';

// The auth matrix again, with the dashboard's session cookie instead of X-API-Key, over
// every key route of app.routeTable: a revoked or expired session is a 401, a viewer
// session cannot write, a cookie write without its CSRF token is a 403, and another team's
// project stays out of reach.

const t: TestApp = await startTestApp();
afterAll(async () => t.stop());

const keyRoutes = t.app.routeTable.filter((r) => r.auth === 'key');
const adminRoutes = keyRoutes.filter((r) => r.scope === 'admin');
const writeRoutes = keyRoutes.filter((r) => isWrite(r.method));
const projectRoutes = keyRoutes.filter((r) => r.url.includes(':project_id'));

interface Session {
  cookie: string;
  csrf: string;
  id: string;
}

let teamA: Account;
let teamB: Account;
let projectA: string;
let projectB: string;
let admin: Session;
let viewer: Session;
let viewerPerson: Session;
let revoked: Session;
let expired: Session;

let seq = 0;
async function signIn(body: Record<string, string>): Promise<Session> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/session', payload: body, remoteAddress: `10.7.0.${++seq}` });
  expect(res.statusCode, res.body).toBe(201);
  const cookie = String([res.headers['set-cookie']].flat()[0]).split(';')[0];
  return { cookie, csrf: res.json().data.csrf_token, id: res.json().data.id };
}

function call(route: (typeof keyRoutes)[number], s: Session, opts: { url?: string; csrf?: boolean; body?: unknown } = {}): Promise<LightMyRequestResponse> {
  const body = opts.body === undefined ? sampleBody(route) : opts.body;
  return t.app.inject({
    method: route.method as 'GET',
    url: (opts.url ?? sampleUrl(route, { project_id: projectB })) + sampleQuery(route),
    headers: { cookie: s.cookie, ...(opts.csrf === false ? {} : { 'x-csrf-token': s.csrf }) },
    ...(body === null || body === undefined ? {} : { payload: body as object }),
  });
}

beforeAll(async () => {
  teamA = await createAccount(t.app);
  teamB = await createAccount(t.app);
  await setTeam(t, teamB.teamId, { rate_limit_tier: 'premium' });
  projectA = await createProject(t.app, teamA.key, { brand_name: 'Alpha', brand_url: 'https://alpha-brand.com' });
  projectB = await createProject(t.app, teamB.key, { brand_name: 'Beta', brand_url: 'https://beta-brand.com' });
  const v = await t.app.inject({ method: 'POST', url: '/v1/keys', headers: { 'x-api-key': teamB.key }, payload: { scope: 'viewer' } });
  admin = await signIn({ email: teamB.email, password: teamB.password });
  viewer = await signIn({ api_key: v.json().data.api_key });
  // A person invited as a viewer (issue 17): signed in with email and password, on the team's admin key.
  const inv = await t.app.inject({ method: 'POST', url: '/v1/team/invitations', headers: { 'x-api-key': teamB.key }, payload: { email: `viewer-person-${Date.now()}@example.com`, role: 'viewer' } });
  expect(inv.statusCode, inv.body).toBe(201);
  const acc = await t.app.inject({ method: 'POST', url: `/v1/account/invitations/${inv.json().data.token}/accept`, payload: { password: 'viewer-person-password' }, remoteAddress: '10.7.1.1' });
  expect(acc.statusCode, acc.body).toBe(200);
  viewerPerson = await signIn({ email: acc.json().data.email, password: 'viewer-person-password' });
  revoked = await signIn({ api_key: teamB.key });
  expired = await signIn({ api_key: teamB.key });
  const out = await t.app.inject({ method: 'DELETE', url: '/v1/session', headers: { cookie: revoked.cookie, 'x-csrf-token': revoked.csrf } });
  expect(out.statusCode).toBe(200);
  await t.runtime.ctx.store.query(`update sessions set expires_at = now() - interval '1 minute' where id = $1`, [expired.id]);
});

describe.each(keyRoutes.map((r) => [routeName(r), r] as const))('%s with a session cookie', (_name, route) => {
  it('401 for a signed-out session and for an expired one', async () => {
    const a = await call(route, revoked);
    expect(a.statusCode, a.body).toBe(401);
    expect(a.json().detail).toMatch(/signed out/);
    const b = await call(route, expired);
    expect(b.statusCode, b.body).toBe(401);
    expect(b.json().detail).toMatch(/expired/);
  });
});

describe.each(adminRoutes.map((r) => [routeName(r), r] as const))('%s (admin) with a viewer session', (_name, route) => {
  it('403 even with the CSRF token', async () => {
    const res = await call(route, viewer);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().code).toBe('read_only_key');
  });

  it("403 for a viewer person's session (email sign-in on the team's admin key)", async () => {
    const res = await call(route, viewerPerson);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().code).toBe('read_only_key');
  });
});

describe.each(keyRoutes.filter((r) => r.scope !== 'admin' && !isWrite(r.method)).map((r) => [routeName(r), r] as const))(
  '%s (read) with a viewer person session',
  (_name, route) => {
    it('reads (no 401 or 403)', async () => {
      const res = await call(route, viewerPerson);
      expect([401, 403], `${res.statusCode} ${res.body}`).not.toContain(res.statusCode);
      expect(res.statusCode, res.body).toBeLessThan(500);
    });
  },
);

describe.each(writeRoutes.map((r) => [routeName(r), r] as const))('%s (write) without the CSRF token', (_name, route) => {
  it('403 csrf_failed for an admin session', async () => {
    const res = await call(route, admin, { csrf: false });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().code).toBe('csrf_failed');
  });
});

describe.each(projectRoutes.map((r) => [routeName(r), r] as const))('%s (project ownership) with a session', (_name, route) => {
  const bodies = sampleBodies(route);
  it.skipIf(bodies.length === 0)("403 for another team's project, 404 for an unknown one", async () => {
    for (const [projectId, status] of [[projectA, 403], [uuid(), 404]] as const) {
      let res: LightMyRequestResponse | null = null;
      for (const body of bodies) {
        res = await call(route, admin, { url: sampleUrl(route, { project_id: projectId }), body });
        if (res.statusCode !== 400) break;
      }
      expect(res?.statusCode, res?.body).toBe(status);
    }
  });
});
