import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TYPES_FILE, apiTypesSource } from '../scripts/openapi-types.js';
import type { components, paths } from '../web/src/generated/api.js';
import { startTestApp, uniqueEmail, until, type TestApp } from './helpers.js';

// The OpenAPI document proven usable, not only parseable: web/src/generated/api.ts is what
// openapi-typescript generates from it (`npm run openapi:types`), and openapi-fetch calls
// the running service over a real socket with those types. `tsc --noEmit` checks the calls
// against the generated types (see the @ts-expect-error lines); the assertions check the
// answers against what the types promise.

type Schemas = components['schemas'];

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  // role 'all' (the default): the workers run the project's bootstrap, so analytics have data.
  t = await startTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => t?.stop());

/** The body of a success with the expected status; fails the test with the error body otherwise. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }, status: number): T {
  expect({ status: result.response.status, error: result.error }).toEqual({ status, error: undefined });
  return result.data as T;
}

it('web/src/generated/api.ts is what openapi-typescript makes of the served document (else: npm run openapi:types)', async () => {
  const res = await fetch(`${baseUrl}/v1/openapi.json`);
  expect(res.status).toBe(200);
  const generated = await apiTypesSource(await res.json());
  expect(readFileSync(API_TYPES_FILE, 'utf8'), 'web/src/generated/api.ts is stale: run npm run openapi:types').toBe(generated);
});

describe('a typed client over HTTP', () => {
  it('account, key, project (202), list, read, analytics, and another team’s project as a typed Error', async () => {
    const anonymous = createClient<paths>({ baseUrl });
    const created = ok(await anonymous.POST('/v1/account/create', { body: { email: uniqueEmail('openapi') } }), 200);
    const account: Schemas['AccountCreated']['data'] = created.data;
    expect(created.code).toBe(200);
    expect(account.email).toMatch(/^openapi-.*@example\.com$/);

    const keyResult: Schemas['ApiKeyResult'] = ok(
      await anonymous.POST('/v1/account/api-key', { body: { email: account.email, password: account.password } }),
      200,
    );
    expect(keyResult.data.team_id).toBe(account.team_id);
    expect(keyResult.data.rate_limit_tier).toBe('standard');
    const api = createClient<paths>({ baseUrl, headers: { 'X-API-Key': keyResult.data.api_key } });

    const body = { brand_name: 'Acme', brand_url: 'https://acme.com', webhook_url: 'https://hooks.acme.com/cb' };
    const accepted: Schemas['ProjectAccepted'] = ok(await api.POST('/v1/account/projects', { body }), 202);
    expect(accepted.code).toBe(202);
    expect(accepted.data.status).toBe('initializing');
    const projectId = accepted.data.project_id;

    const list = ok(await api.GET('/v1/projects'), 200);
    expect(list.success).toBe(true);
    expect(list.data.map((p: Schemas['Project']) => p.id)).toEqual([projectId]);

    const params = { path: { project_id: projectId } };
    const one: Schemas['Project'] = ok(await api.GET('/v1/projects/{project_id}', { params }), 200).data;
    expect(one).toMatchObject({ id: projectId, name: 'Acme', brand_name: 'Acme', website_url: 'https://acme.com/' });
    expect(Array.isArray(one.brand_aliases)).toBe(true);

    // The bootstrap (simulated engines) collects today's answers; the own brand's visibility
    // series then has today's figure.
    const query = { duration_days: 7 };
    const visibility = await until(async () => {
      const v = ok(await api.GET('/v1/projects/{project_id}/visibility', { params: { ...params, query } }), 200).data;
      const own = v.series.find((s) => s.is_own_brand);
      return own && own.visibility[own.visibility.length - 1] !== null ? v : null;
    }, 60_000, 250);
    expect(visibility.dates).toHaveLength(7);
    expect(visibility.dates[6]).toBe(new Date().toISOString().slice(0, 10));
    const own = visibility.series.find((s) => s.is_own_brand);
    expect(own?.name).toBe('Acme');
    expect(own?.visibility[6]).toBeGreaterThanOrEqual(0);
    expect(own?.visibility[6]).toBeLessThanOrEqual(100);

    const overview = ok(await api.GET('/v1/projects/{project_id}/overview', { params: { ...params, query } }), 200).data;
    const prompts = ok(await api.GET('/v1/projects/{project_id}/prompts', { params }), 200).data;
    const active = prompts.prompts.filter((p) => p.prompt_type === 'active');
    expect(active.length).toBeGreaterThan(0);
    expect(overview.items.map((i) => i.prompt_id).sort()).toEqual(active.map((p) => p.id).sort());

    // Another team asks for this project: the 403 body is typed as the Error schema.
    const other = ok(await anonymous.POST('/v1/account/create', { body: { email: uniqueEmail('openapi-other') } }), 200).data;
    const otherKey = ok(await anonymous.POST('/v1/account/api-key', { body: { email: other.email, password: other.password } }), 200).data;
    const outsider = createClient<paths>({ baseUrl, headers: { 'X-API-Key': otherKey.api_key } });
    const denied = await outsider.GET('/v1/projects/{project_id}', { params });
    expect(denied.response.status).toBe(403);
    expect(denied.data).toBeUndefined();
    const error: Schemas['Error'] | undefined = denied.error;
    expect(error?.detail).toBe('Project does not belong to your team');
  });
});

/** Never called: what tsc must refuse, so the generated types are known to be specific. */
function _typeChecks(api: ReturnType<typeof createClient<paths>>) {
  // @ts-expect-error a path the document does not have
  void api.GET('/v1/no-such-route');
  // @ts-expect-error brand_name is a string
  void api.POST('/v1/account/projects', { body: { brand_name: 1, brand_url: 'https://a.co', webhook_url: 'https://a.co/cb' } });
  // @ts-expect-error the path parameter project_id is required
  void api.GET('/v1/projects/{project_id}', { params: { path: {} } });
  // @ts-expect-error duration_days is a number
  void api.GET('/v1/projects/{project_id}/visibility', { params: { path: { project_id: 'x' }, query: { duration_days: 'seven' } } });
}
