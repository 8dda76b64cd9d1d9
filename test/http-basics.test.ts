import net from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { BODY_LIMIT } from '../src/server.js';
import { STORE, createAccount, createProject, startTestApp, type Account, type TestApp, errorBody } from './helpers.js';
import { routeName } from './route-samples.js';

// The HTTP conventions every route shares (spec sections 1 and 7, docs/self-hosting.md): JSON
// errors as {detail}, body limits and media types, the OpenAPI document and docs page,
// health probes, and one round trip over a real socket.

let t: TestApp;
let acct: Account;
beforeAll(async () => {
  t = await startTestApp();
  acct = await createAccount(t.app);
});
afterAll(async () => t?.stop());

function expectError(res: LightMyRequestResponse, status: number, detail: string | RegExp): void {
  const body = res.json();
  if (typeof detail === 'string') expect({ status: res.statusCode, body }).toEqual({ status, body: errorBody(detail) });
  else {
    expect(res.statusCode, res.body).toBe(status);
    expect(Object.keys(body)).toEqual(['detail', 'code', 'request_id']);
    expect(body.detail).toMatch(detail);
  }
  expect(res.headers['content-type']).toMatch(/^application\/json/);
}

function expectLimitHeaders(res: LightMyRequestResponse): void {
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-credit-available']) expect(String(res.headers[h]), h).toMatch(/^\d+$/);
}

const withKey = (extra: Record<string, string> = {}) => ({ 'x-api-key': acct.key, ...extra });

describe('unknown routes', () => {
  it.each([
    ['GET', '/v1/nope'],
    ['GET', '/v1/projects/x/y/z/w'],
    ['PUT', '/v1/projects'],
    ['DELETE', '/v1/projects'],
    ['POST', '/v1'],
  ])('%s %s → 404 {detail}, with the limit headers', async (method, url) => {
    const res = await t.app.inject({ method: method as any, url, headers: withKey() });
    expectError(res, 404, `No route for ${method} ${url}`);
    expectLimitHeaders(res);
  });

  it('outside /v1 too', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/nope?x=1' }), 404, 'No route for GET /nope');
  });
});

describe('request bodies', () => {
  const post = (url: string, payload: string | Buffer, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', ...headers } });

  it.each([['{"email": '], ['{bad json}'], ['{"email":"a@b.co",}'], ["{'email':'a@b.co'}"], ['\u0000']])(
    'malformed JSON %j → 400 Malformed JSON body',
    async (raw) => {
      const res = await post('/v1/account/create', raw);
      expectError(res, 400, 'Malformed JSON body');
      expectLimitHeaders(res);
      expectError(await post('/v1/keys', raw, withKey()), 400, 'Malformed JSON body');
    },
  );

  it('an empty body declared as JSON → 400', async () => {
    expectError(await post('/v1/keys', '', withKey()), 400, 'Request body is empty but Content-Type is application/json');
  });

  it.each([
    ['a JSON array', [{ scope: 'admin' }], 'Request body must be a JSON object'],
    ['a JSON string', 'admin', 'Request body must be a JSON object'],
    ['a JSON null', null, 'Request body must be a JSON object'],
    ['a wrong type', { scope: 5 }, "scope must be 'admin' or 'viewer'"],
    ['a wrong enum value', { scope: 'owner' }, "scope must be 'admin' or 'viewer'"],
    ['an unknown field', { scope: 'admin', owner: true }, 'Unknown field: owner'],
    ['unknown fields', { scope: 'admin', owner: true, root: 1 }, 'Unknown fields: owner, root'],
    ['a past expires_at', { scope: 'admin', expires_at: '2020-01-01T00:00:00Z' }, 'expires_at must be in the future'],
    ['a malformed expires_at', { scope: 'admin', expires_at: 'tomorrow' }, 'expires_at must be an ISO 8601 date-time'],
  ])('POST /keys with %s → 400 {detail}', async (_label, payload, detail) => {
    const res = await post('/v1/keys', JSON.stringify(payload), withKey());
    expectError(res, 400, detail);
    expectLimitHeaders(res);
  });

  it.each([
    [{ brand_url: 'https://acme.com', webhook_url: 'https://acme.com/cb' }, 'brand_name is required'],
    [{ brand_name: '   ', brand_url: 'https://acme.com', webhook_url: 'https://acme.com/cb' }, 'brand_name is required'],
    [{ brand_name: 'Acme', brand_url: 'not a url', webhook_url: 'https://acme.com/cb' }, 'brand_url must be a valid URL'],
    [{ brand_name: 'Acme', webhook_url: 'https://acme.com/cb' }, 'brand_url must be a valid URL'],
    [{ brand_name: 'Acme', brand_url: 'https://acme.com', webhook_url: 'ftp://acme.com/cb' }, 'webhook_url must be a valid URL'],
    [{ brand_name: 'Acme', brand_url: 'https://acme.com', webhook_url: 42 }, 'webhook_url must be a valid URL'],
  ])('POST /account/projects %j → 400 with the spec text', async (payload, detail) => {
    expectError(await post('/v1/account/projects', JSON.stringify(payload), withKey()), 400, detail);
  });

  it('a path parameter that is not a UUID → 400 {detail}', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/v1/projects/not-a-uuid', headers: withKey() }), 400, 'project_id: must be a UUID');
  });

  it(`a body over ${BODY_LIMIT} bytes (1 MiB) → 413 {detail}; exactly 1 MiB is read`, async () => {
    const pad = (size: number) => {
      const head = '{"email":"';
      const tail = '"}';
      return head + 'a'.repeat(size - head.length - tail.length) + tail;
    };
    const over = await post('/v1/account/create', pad(BODY_LIMIT + 1));
    expectError(over, 413, 'Request body is too large');
    expectLimitHeaders(over);
    expectError(await post('/v1/keys', pad(BODY_LIMIT + 1), withKey()), 413, 'Request body is too large');
    expectError(await post('/v1/keys', pad(5 * BODY_LIMIT), withKey()), 413, 'Request body is too large');
    // At the limit the body is parsed and validated: a 400 about the email, not a 413.
    expectError(await post('/v1/account/create', pad(BODY_LIMIT)), 400, 'A valid email is required');
  });

  it.each([
    ['text/plain', '{"scope":"admin"}'],
    ['application/xml', '<scope>admin</scope>'],
    ['application/x-www-form-urlencoded', 'scope=admin'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="scope"\r\n\r\nadmin\r\n--x--'],
    ['application/octet-stream', 'scope'],
  ])('Content-Type %s → 415 {detail}', async (type, payload) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/keys', payload, headers: withKey({ 'content-type': type }) });
    expectError(res, 415, 'Content-Type must be application/json');
    expectLimitHeaders(res);
    const pub = await t.app.inject({ method: 'POST', url: '/v1/account/create', payload, headers: { 'content-type': type } });
    expectError(pub, 415, 'Content-Type must be application/json');
  });

  it('a body without any Content-Type → 415', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/keys', payload: Buffer.from('{"scope":"admin"}'), headers: withKey() });
    expectError(res, 415, 'Content-Type must be application/json');
  });

  it('application/json with a charset is accepted', async () => {
    const res = await post('/v1/keys', '{"scope":"viewer"}', withKey({ 'content-type': 'application/json; charset=utf-8' }));
    expect(res.statusCode, res.body).toBe(201);
  });
});

// Answered by the router before any route (src/server.ts: frameworkErrors, onMaxParamLength).
describe('router-level errors', () => {
  it.each(['/v1/projects/%E0%A4%A', '/v1/projects/%zz', '/v1/projects/abc%'])(
    'a badly percent-encoded path %s → 400 {detail} with the limit headers',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url, headers: withKey() });
      expectError(res, 400, /^Malformed URL/);
      expectLimitHeaders(res);
    },
  );

  it('a path parameter over 200 characters → 414 {detail}', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/projects/${'a'.repeat(201)}`, headers: withKey() });
    expectError(res, 414, 'A path segment is too long (at most 200 characters)');
  });

  it('the 414 carries the limit headers too (answered by the router, limited by address)', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/projects/${'a'.repeat(201)}`, headers: withKey() });
    expect(res.statusCode).toBe(414);
    expectLimitHeaders(res);
  });
});

describe('OpenAPI document and docs page', () => {
  let doc: any;
  beforeAll(async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.json();
  });

  it('is OpenAPI 3.1 with the X-API-Key scheme', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.components.securitySchemes.ApiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
  });

  it('lists every route of app.routeTable (except itself), with its path parameters', () => {
    const missing: string[] = [];
    for (const r of t.app.routeTable) {
      if (r.url === '/v1/openapi.json') continue;
      const path = r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const op = doc.paths?.[path]?.[r.method.toLowerCase()];
      if (!op) {
        missing.push(routeName(r));
        continue;
      }
      const declared = (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name).sort();
      const inUrl = [...r.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]).sort();
      expect(declared, routeName(r)).toEqual(inUrl);
      expect(Object.keys(op.responses ?? {}), `${routeName(r)} documents its success`).toEqual(expect.arrayContaining([expect.stringMatching(/^2\d\d$/)]));
    }
    expect(missing).toEqual([]);
    expect(t.app.routeTable.length).toBeGreaterThan(5);
  });

  it('marks the public routes as needing no key and operator routes as bearer', () => {
    for (const r of t.app.routeTable) {
      if (r.url === '/v1/openapi.json') continue;
      const op = doc.paths[r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')][r.method.toLowerCase()];
      if (r.auth === 'public') expect(op.security, routeName(r)).toEqual([]);
      if (r.auth === 'operator') expect(op.security, routeName(r)).toEqual([{ Operator: [] }]);
      if (r.auth === 'key') expect(op.security ?? doc.security, routeName(r)).toEqual([{ ApiKey: [] }]);
    }
  });

  it('GET /docs serves the HTML docs page (following redirects by hand)', async () => {
    let url = '/docs';
    let res = await t.app.inject({ method: 'GET', url });
    for (let hops = 0; res.statusCode >= 300 && res.statusCode < 400 && hops < 5; hops++) {
      url = new URL(String(res.headers.location), `http://localhost${url}`).pathname;
      res = await t.app.inject({ method: 'GET', url });
    }
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<html/i);
  });
});

describe('health', () => {
  it('/healthz 200 and /readyz 200 without a key', async () => {
    const h = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(h.statusCode).toBe(200);
    expect(h.json()).toEqual({ status: 'ok' });
    const r = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: 'ready' });
  });
});

/** A TCP hop in front of PostgreSQL that can be cut: a database outage on demand. */
async function tcpProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const up = () =>
    new Promise<void>((resolve, reject) => {
      if (server) return resolve();
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
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
  return { port: () => port, up, down };
}

describe('when the store is unreachable', () => {
  it('answers 503 with Retry-After (never 500), /readyz 503, and recovers', async () => {
    if (STORE === 'pglite') {
      const s = await startTestApp();
      const a = await createAccount(s.app);
      await s.runtime.ctx.store.close();
      const ready = await s.app.inject({ method: 'GET', url: '/readyz' });
      expectError(ready, 503, 'Store is not reachable');
      s.runtime.http!.authCache.clear();
      const res = await s.app.inject({ method: 'GET', url: '/v1/projects', headers: { 'x-api-key': a.key } });
      expectError(res, 503, /temporarily unavailable/);
      expect(res.headers['retry-after']).toBe('5');
      await s.stop().catch(() => {});
      return;
    }
    // PostgreSQL: run a second API on the same database through a proxy, then cut it.
    const { createRuntime } = await import('../src/runtime.js');
    const { loadConfig } = await import('../src/config.js');
    const pino = (await import('pino')).default;
    const db = new URL(t.config.databaseUrl!);
    const proxy = await tcpProxy(db);
    const viaProxy = new URL(db);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port());
    const rt = await createRuntime(loadConfig({}, { ...t.config, databaseUrl: viaProxy.toString(), role: 'api' }), pino({ level: 'silent' }));
    try {
      const app = rt.app!;
      expect((await app.inject({ method: 'GET', url: '/v1/projects', headers: withKey() })).statusCode).toBe(200);
      await proxy.down();
      rt.http!.authCache.clear();
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expectError(ready, 503, 'Store is not reachable');
      const res = await app.inject({ method: 'GET', url: '/v1/projects', headers: withKey() });
      expectError(res, 503, /temporarily unavailable/);
      expect(res.headers['retry-after']).toBe('5');
      await proxy.up();
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/v1/projects', headers: withKey() })).statusCode).toBe(200);
    } finally {
      await proxy.up().catch(() => {});
      await rt.stop();
      await proxy.down();
    }
  });
});

describe('over a real socket', () => {
  let base: string;
  beforeAll(async () => {
    const s = t.app.server.listening ? null : await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = s ?? `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
  });

  it('an agent bootstraps over HTTP and reads its project with GET /v1/projects/{id}', async () => {
    const email = `wire-${Date.now()}@example.com`;
    const created = await fetch(`${base}/v1/account/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(created.status).toBe(200);
    const { data: account } = await created.json();
    const keyRes = await fetch(`${base}/v1/account/api-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: account.password }),
    });
    expect(keyRes.status).toBe(200);
    const key = (await keyRes.json()).data.api_key as string;
    const projectId = await createProject(t.app, key, { brand_name: 'Wire Co', brand_url: 'https://wire-co.com' });

    const res = await fetch(`${base}/v1/projects/${projectId}`, { headers: { 'X-API-Key': key } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-ratelimit-limit')).toBe('70');
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(res.headers.get('x-credit-available')).toMatch(/^\d+$/);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, data: { id: projectId, brand_name: 'Wire Co' } });

    const denied = await fetch(`${base}/v1/projects/${projectId}`);
    expect(denied.status).toBe(401);
    expect(await denied.json()).toEqual(errorBody('Missing X-API-Key header'));
    const bad = await fetch(`${base}/v1/account/create`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual(errorBody('Malformed JSON body'));
  });
});

describe('response compression', () => {
  const get = (headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/v1/openapi.json', headers });

  it.each([
    ['br', (b: Buffer) => zlib.brotliDecompressSync(b)],
    ['gzip', (b: Buffer) => zlib.gunzipSync(b)],
  ])('Accept-Encoding %s: the same JSON, compressed, smaller', async (encoding, inflate) => {
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    const res = await get({ 'accept-encoding': encoding });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(inflate(res.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('brotli preferred when both are accepted; small bodies and unknown encodings go out as they are', async () => {
    expect((await get({ 'accept-encoding': 'gzip, deflate, br' })).headers['content-encoding']).toBe('br');
    const small = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ status: 'ok' });
    const other = await get({ 'accept-encoding': 'compress' });
    expect(other.headers['content-encoding']).toBeUndefined();
    expect(other.statusCode).toBe(200);
  });

  it('a gzip request body is not inflated: read as sent (malformed JSON)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/keys',
      payload: zlib.gzipSync(JSON.stringify({ scope: 'admin' })),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', ...withKey() },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});
