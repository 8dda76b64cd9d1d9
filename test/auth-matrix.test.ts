import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { randomBase62 } from '../src/lib/crypto.js';
import type { RouteEntry } from '../src/server.js';
import { createAccount, createProject, setTeam, startTestApp, type Account, type TestApp, errorBody } from './helpers.js';
import { isWrite, routeName, sampleBodies, sampleBody, sampleQuery, sampleUrl, uuid } from './route-samples.js';

// The security matrix of spec section 5 and docs/decisions.md, walked over app.routeTable so
// that every route a module registers later is covered without touching this file.

const t: TestApp = await startTestApp();
afterAll(async () => t.stop());

const routes = [...t.app.routeTable];
const keyRoutes = routes.filter((r) => r.auth === 'key');
const adminRoutes = keyRoutes.filter((r) => r.scope === 'admin');
const readRoutes = keyRoutes.filter((r) => r.scope !== 'admin');
const projectRoutes = keyRoutes.filter((r) => r.url.includes(':project_id'));
const operatorRoutes = routes.filter((r) => r.auth === 'operator');

// Requests refused before a key is known are limited per client address (70 a minute):
// each such request here comes from its own address, so the limit never answers first.
let addressSeq = 0;
const nextAddress = () => {
  const n = ++addressSeq;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

interface Call {
  key?: string;
  url?: string;
  body?: unknown;
  headers?: Record<string, string>;
  app?: TestApp;
}

function expectLimitHeaders(res: LightMyRequestResponse): void {
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-credit-available']) {
    expect(String(res.headers[h]), `${h} on ${res.statusCode} ${res.body.slice(0, 120)}`).toMatch(/^\d+$/);
  }
}

/** One request to a route; every answer must carry the limit headers, errors included. */
async function call(route: RouteEntry, c: Call = {}): Promise<LightMyRequestResponse> {
  const body = c.body === undefined ? sampleBody(route) : c.body;
  const res = await (c.app ?? t).app.inject({
    method: route.method as any,
    url: (c.url ?? sampleUrl(route)) + sampleQuery(route),
    headers: { ...(c.key ? { 'x-api-key': c.key } : {}), ...c.headers },
    remoteAddress: nextAddress(),
    ...(body === null || body === undefined ? {} : { payload: body as object }),
  });
  expectLimitHeaders(res);
  return res;
}

function expectError(res: LightMyRequestResponse, status: number, detail: string | RegExp): void {
  const got = { status: res.statusCode, body: res.json() };
  if (typeof detail === 'string') expect(got).toEqual({ status, body: errorBody(detail) });
  else {
    expect(got.status, res.body).toBe(status);
    expect(Object.keys(got.body)).toEqual(['detail', 'code', 'request_id']);
    expect(got.body.detail).toMatch(detail);
  }
}

let teamA: Account;
let teamB: Account;
let projectA: string;
let projectB: string;
let viewerKey: string;
let inactiveKey: string;
let expiredKey: string;
const unknownKey = `tk_live_${randomBase62(32)}`;

async function newKey(owner: Account, scope: 'admin' | 'viewer'): Promise<{ id: string; api_key: string }> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/keys', headers: { 'x-api-key': owner.key }, payload: { scope } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

beforeAll(async () => {
  teamA = await createAccount(t.app);
  teamB = await createAccount(t.app);
  // Team B makes most of the requests below: premium, so its own limit never answers first.
  await setTeam(t, teamB.teamId, { rate_limit_tier: 'premium' });
  projectA = await createProject(t.app, teamA.key, { brand_name: 'Alpha', brand_url: 'https://alpha-brand.com' });
  projectB = await createProject(t.app, teamB.key, { brand_name: 'Beta', brand_url: 'https://beta-brand.com' });

  viewerKey = (await newKey(teamB, 'viewer')).api_key;

  const inactive = await newKey(teamB, 'admin');
  const off = await t.app.inject({
    method: 'PATCH',
    url: `/v1/keys/${inactive.id}`,
    headers: { 'x-api-key': teamB.key },
    payload: { is_active: false },
  });
  expect(off.statusCode, off.body).toBe(200);
  inactiveKey = inactive.api_key;

  const expired = await newKey(teamB, 'admin');
  await t.runtime.ctx.store.query(`update api_keys set expires_at = now() - interval '1 hour' where id = $1`, [expired.id]);
  t.runtime.http!.authCache.clear();
  expiredKey = expired.api_key;
});

it('the route table holds the routes of the spec that are built', () => {
  const names = routes.map(routeName);
  for (const r of ['POST /v1/account/create', 'POST /v1/account/api-key', 'POST /v1/account/projects', 'GET /v1/projects', 'GET /v1/projects/:project_id']) {
    expect(names).toContain(r);
  }
  expect(routes.find((r) => r.url === '/v1/account/create')?.auth).toBe('public');
  expect(routes.find((r) => r.url === '/v1/account/api-key')?.auth).toBe('public');
  expect(routes.find((r) => r.url === '/v1/account/projects')?.auth).toBe('key');
  // Only the two account bootstrap calls, the sign-in, the invitation and reset links, a
  // log drain's push (its URL's token is the credential) and the OpenAPI document go without a key.
  expect(routes.filter((r) => r.auth === 'public').map(routeName).sort()).toEqual(
    [
      'GET /v1/openapi.json',
      'POST /v1/crawler-log-drains/:token',
      'POST /v1/account/api-key',
      'POST /v1/account/create',
      'POST /v1/session',
      'POST /v1/account/invitations/:token/accept',
      'POST /v1/account/password/reset',
    ].sort(),
  );
});

describe.each(keyRoutes.map((r) => [routeName(r), r] as const))('%s', (_name, route) => {
  it('401 Missing X-API-Key header without a key', async () => {
    expectError(await call(route), 401, 'Missing X-API-Key header');
  });

  it('401 Invalid API key for a well-formed unknown key', async () => {
    expectError(await call(route, { key: unknownKey }), 401, 'Invalid API key');
  });

  it('401 API key is inactive for a deactivated key', async () => {
    expectError(await call(route, { key: inactiveKey, url: sampleUrl(route, { project_id: projectB }) }), 401, 'API key is inactive');
  });

  it('401 API key has expired for a key past expires_at', async () => {
    expectError(await call(route, { key: expiredKey, url: sampleUrl(route, { project_id: projectB }) }), 401, 'API key has expired');
  });
});

describe.each(adminRoutes.map((r) => [routeName(r), r] as const))('%s (admin scope)', (_name, route) => {
  it('403 with {detail} for a viewer key, before the body is validated', async () => {
    const url = sampleUrl(route, { project_id: projectB });
    expectError(await call(route, { key: viewerKey, url }), 403, /admin|read-only/i);
    // Even an invalid body: scope is checked first.
    if (isWrite(route.method)) expectError(await call(route, { key: viewerKey, url, body: { nonsense: true } }), 403, /admin|read-only/i);
  });
});

describe.each(readRoutes.map((r) => [routeName(r), r] as const))('%s (read)', (_name, route) => {
  it('works for a viewer key (no 401 or 403)', async () => {
    const res = await call(route, { key: viewerKey, url: sampleUrl(route, { project_id: projectB }) });
    expect([401, 403], `${res.statusCode} ${res.body}`).not.toContain(res.statusCode);
    expect(res.statusCode, res.body).toBeLessThan(500);
  });
});

describe('scopes in the route table (docs/decisions.md: every write under /projects, /webhooks, /keys is admin)', () => {
  const writes = keyRoutes.filter((r) => isWrite(r.method) && /^\/v1\/(projects|webhooks|keys|account\/projects)\b/.test(r.url));
  it.each(writes.map((r) => [routeName(r), r] as const))('%s needs an admin key', (_name, route) => {
    expect(route.scope).toBe('admin');
  });
});

describe.each(projectRoutes.map((r) => [routeName(r), r] as const))('%s (project ownership)', (_name, route) => {
  // Validation may answer before ownership (400 for input the route refuses): each valid
  // body the generator has is tried, and the first one the route takes must get the
  // project's 403 / 404, before anything under the project is read or changed.
  const bodies = sampleBodies(route);
  const skip = bodies.length === 0;

  async function firstPastValidation(projectId: string) {
    const tried: string[] = [];
    for (const body of bodies) {
      const res = await call(route, { key: teamB.key, url: sampleUrl(route, { project_id: projectId }), body });
      if (res.statusCode !== 400) return res;
      tried.push(`${JSON.stringify(body)} → ${res.body}`);
    }
    throw new Error(`every sample body was refused with 400:\n${tried.join('\n')}`);
  }

  it.skipIf(skip)("403 Project does not belong to your team for another team's project", async () => {
    expectError(await firstPastValidation(projectA), 403, 'Project does not belong to your team');
  });

  it.skipIf(skip)('404 Project not found for an unknown project id', async () => {
    expectError(await firstPastValidation(uuid()), 404, 'Project not found');
  });
});

describe("another team's records outside projects", () => {
  it("a key of team B cannot see, deactivate or delete team A's keys", async () => {
    const keysA = (await t.app.inject({ method: 'GET', url: '/v1/keys', headers: { 'x-api-key': teamA.key } })).json().data;
    const idA = keysA[0].id as string;
    const listB = await t.app.inject({ method: 'GET', url: '/v1/keys', headers: { 'x-api-key': teamB.key } });
    expect(listB.json().data.map((k: { id: string }) => k.id)).not.toContain(idA);
    const patch = routes.find((r) => r.method === 'PATCH' && r.url === '/v1/keys/:key_id')!;
    const del = routes.find((r) => r.method === 'DELETE' && r.url === '/v1/keys/:key_id')!;
    expect((await call(patch, { key: teamB.key, url: `/v1/keys/${idA}`, body: { is_active: false } })).statusCode).toBe(404);
    expect((await call(del, { key: teamB.key, url: `/v1/keys/${idA}` })).statusCode).toBe(404);
    const still = await t.app.inject({ method: 'GET', url: '/v1/projects', headers: { 'x-api-key': teamA.key } });
    expect(still.statusCode).toBe(200);
  });

  it("a key of team B cannot see, change or remove team A's members or invitations, nor read its audit log", async () => {
    const inv = await t.app.inject({ method: 'POST', url: '/v1/team/invitations', headers: { 'x-api-key': teamA.key }, payload: { email: `a-invitee-${Date.now()}@example.com`, role: 'viewer' } });
    expect(inv.statusCode, inv.body).toBe(201);
    const invId = inv.json().data.id as string;
    const find = (method: string, url: string) => routes.find((r) => r.method === method && r.url === url)!;
    const membersB = (await t.app.inject({ method: 'GET', url: '/v1/team/members', headers: { 'x-api-key': teamB.key } })).json().data;
    expect(membersB.map((m: { user_id: string }) => m.user_id)).not.toContain(teamA.userId);
    const invB = (await t.app.inject({ method: 'GET', url: '/v1/team/invitations', headers: { 'x-api-key': teamB.key } })).json().data;
    expect(invB.map((i: { id: string }) => i.id)).not.toContain(invId);
    const patch = await call(find('PATCH', '/v1/team/members/:user_id'), { key: teamB.key, url: `/v1/team/members/${teamA.userId}`, body: { role: 'viewer' } });
    expectError(patch, 404, 'Member not found');
    expectError(await call(find('DELETE', '/v1/team/members/:user_id'), { key: teamB.key, url: `/v1/team/members/${teamA.userId}` }), 404, 'Member not found');
    expectError(await call(find('DELETE', '/v1/team/invitations/:invitation_id'), { key: teamB.key, url: `/v1/team/invitations/${invId}` }), 404, 'Invitation not found');
    const auditB = (await t.app.inject({ method: 'GET', url: '/v1/team/audit?page_size=200', headers: { 'x-api-key': teamB.key } })).json().data;
    expect(JSON.stringify(auditB)).not.toContain(invId);
    const stillA = (await t.app.inject({ method: 'GET', url: '/v1/team/invitations', headers: { 'x-api-key': teamA.key } })).json().data;
    expect(stillA.map((i: { id: string }) => i.id)).toContain(invId);
  });

  it.skipIf(!routes.some((r) => r.url === '/v1/webhooks/:webhook_id'))("a key of team B cannot delete team A's webhook", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: { 'x-api-key': teamA.key },
      payload: { url: 'https://hooks.alpha-brand.com/sightline', events: ['action.completed'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    const del = routes.find((r) => r.method === 'DELETE' && r.url === '/v1/webhooks/:webhook_id')!;
    expect((await call(del, { key: teamB.key, url: `/v1/webhooks/${id}` })).statusCode).toBe(404);
    const listA = await t.app.inject({ method: 'GET', url: '/v1/webhooks', headers: { 'x-api-key': teamA.key } });
    expect(listA.json().data.map((w: { id: string }) => w.id)).toContain(id);
  });
});

describe('key header edge cases', () => {
  const route = () => routes.find((r) => r.method === 'GET' && r.url === '/v1/projects')!;
  it.each([
    ['garbage', 'not-a-key'],
    ['a prefix of a real key', 'tk_live_'],
    ['an over-long value', `tk_live_${'x'.repeat(500)}`],
  ])('401 Invalid API key for %s', async (_label, key) => {
    expectError(await call(route(), { key }), 401, 'Invalid API key');
  });

  it('401 Missing X-API-Key header for an empty header', async () => {
    expectError(await call(route(), { headers: { 'x-api-key': '' } }), 401, 'Missing X-API-Key header');
  });

  it('a deactivated key works again once re-activated; deleting a key ends it at once', async () => {
    const k = await newKey(teamB, 'viewer');
    const get = route();
    expect((await call(get, { key: k.api_key })).statusCode).toBe(200);
    const patch = (on: boolean) =>
      t.app.inject({ method: 'PATCH', url: `/v1/keys/${k.id}`, headers: { 'x-api-key': teamB.key }, payload: { is_active: on } });
    expect((await patch(false)).statusCode).toBe(200);
    expectError(await call(get, { key: k.api_key }), 401, 'API key is inactive');
    expect((await patch(true)).statusCode).toBe(200);
    expect((await call(get, { key: k.api_key })).statusCode).toBe(200);
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/keys/${k.id}`, headers: { 'x-api-key': teamB.key } });
    expect(del.statusCode).toBe(200);
    expectError(await call(get, { key: k.api_key }), 401, 'Invalid API key');
  });
});

describe('operator routes (Bearer ADMIN_TOKEN)', () => {
  const TOKEN = 'operator-token-0123456789abcdef';
  let op: TestApp;
  beforeAll(async () => {
    op = await startTestApp({ adminToken: TOKEN });
  });
  afterAll(async () => op?.stop());

  describe.each(operatorRoutes.map((r) => [routeName(r), r] as const))('%s', (_name, route) => {
    it('404 {detail} while ADMIN_TOKEN is unset, even with a team admin key', async () => {
      expectError(await call(route, {}), 404, /ADMIN_TOKEN/);
      expectError(await call(route, { key: teamB.key }), 404, /ADMIN_TOKEN/);
    });

    it('401 without, or with a wrong, bearer token; an API key is not an operator token', async () => {
      expectError(await call(route, { app: op }), 401, 'Invalid operator token');
      expectError(await call(route, { app: op, headers: { authorization: `Bearer ${TOKEN}x` } }), 401, 'Invalid operator token');
      expectError(await call(route, { app: op, headers: { authorization: TOKEN } }), 401, 'Invalid operator token');
      const acct = await createAccount(op.app);
      expectError(await call(route, { app: op, key: acct.key }), 401, 'Invalid operator token');
    });

    it('passes authentication with the token', async () => {
      const res = await call(route, { app: op, headers: { authorization: `Bearer ${TOKEN}` } });
      expect([401, 403], res.body).not.toContain(res.statusCode);
      expect(res.statusCode, res.body).toBeLessThan(500);
    });
  });
});
