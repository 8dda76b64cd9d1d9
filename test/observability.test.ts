import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseTrustProxy } from '../src/config.js';
import { REDACTED_PATHS } from '../src/logger.js';
import { client, createAccount, errorBody, startTestApp, type TestApp } from './helpers.js';

// Request ids, the access log and TRUST_PROXY (issue "Production shape", operations).

/** A pino logger whose JSON lines are kept, as the process's logger would write them. */
function capturedLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l));
      done();
    },
  });
  const log = pino({ level: 'info', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, stream);
  return { log, lines };
}

describe('X-Request-Id and the access log', () => {
  let t: TestApp;
  const captured = capturedLogger();
  beforeAll(async () => {
    t = await startTestApp({ logLevel: 'info' }, {}, captured.log);
  });
  afterAll(async () => t?.stop());

  it('every response carries an id, and an error body quotes the same one', async () => {
    const acct = await createAccount(t.app);
    const responses = [
      await t.app.inject({ method: 'GET', url: '/healthz' }),
      await client(t.app, acct.key).get('/projects'),
      await client(t.app).get('/projects'), // 401
      await client(t.app, acct.key).get('/projects/not-a-uuid'), // 400
      await client(t.app, acct.key).get('/nowhere'), // 404
      await t.app.inject({ method: 'GET', url: `/v1/projects/${'x'.repeat(300)}` }), // 414, answered before routing
    ];
    const ids = responses.map((r) => r.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of responses.slice(2)) {
      expect(r.statusCode).toBeGreaterThanOrEqual(400);
      expect(r.json()).toEqual(errorBody(expect.any(String)));
      expect(r.json().request_id).toBe(r.headers['x-request-id']);
    }
    expect(responses[2].json().code).toBe('unauthorized');
    expect(responses[3].json().code).toBe('invalid_request');
    expect(responses[4].json().code).toBe('not_found');
  });

  it("keeps the caller's well-formed id and replaces a malformed one", async () => {
    const mine = 'req-2026.11.23:abc_DEF-1';
    const kept = await t.app.inject({ method: 'GET', url: '/v1/projects', headers: { 'x-request-id': mine } });
    expect(kept.headers['x-request-id']).toBe(mine);
    expect(kept.json().request_id).toBe(mine);
    for (const bad of ['has space', 'x'.repeat(129), '<script>', 'ünïcode']) {
      const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': encodeURI(bad) === bad ? bad : 'a b' } });
      expect(res.headers['x-request-id']).not.toBe(bad);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('one access line per request: method, route, status, duration, key prefix, request id; never the key', async () => {
    const acct = await createAccount(t.app);
    captured.lines.length = 0;
    const ok = await client(t.app, acct.key).get('/projects');
    const denied = await client(t.app, `${acct.key}x`).get('/projects');
    const access = captured.lines.filter((l) => l.msg === 'request');
    expect(access).toHaveLength(2);
    expect(access[0]).toMatchObject({
      level: 30,
      method: 'GET',
      route: '/v1/projects',
      status: 200,
      key_prefix: acct.key.slice(0, 12),
      request_id: ok.headers['x-request-id'],
    });
    expect(access[0].duration_ms).toEqual(expect.any(Number));
    expect(access[1]).toMatchObject({ status: 401, request_id: denied.headers['x-request-id'], key_prefix: acct.key.slice(0, 12) });
    const everything = JSON.stringify(captured.lines);
    expect(everything).not.toContain(acct.key);
    expect(everything).not.toContain(acct.key.slice(12));
  });
});

describe('TRUST_PROXY', () => {
  it('parses off, a hop count and address lists, and refuses the rest', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1,::1, fd00::/8')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8']);
    for (const bad of ['true', 'proxy.local', '10.0.0.0/33', '::1/129', '10.0.0.1/8/1', '1.2.3']) {
      expect(() => parseTrustProxy(bad), bad).toThrow(ConfigError);
    }
  });

  // The account endpoints are limited per client address: each address has its own window.
  const remaining = async (t: TestApp, forwardedFor: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/account/api-key',
      remoteAddress: '10.1.2.3',
      headers: { 'x-forwarded-for': forwardedFor },
      payload: { email: 'nobody@example.com', password: 'wrong-password-123' },
    });
    return Number(res.headers['x-ratelimit-remaining']);
  };

  it('off: X-Forwarded-For is ignored, every request counts against the peer address', async () => {
    const t = await startTestApp();
    try {
      const a = await remaining(t, '203.0.113.1');
      const b = await remaining(t, '203.0.113.2');
      expect(b).toBe(a - 1);
    } finally {
      await t.stop();
    }
  });

  it('trusted proxy: each forwarded client address has its own window', async () => {
    const t = await startTestApp({ trustProxy: ['10.0.0.0/8'] });
    try {
      const a1 = await remaining(t, '203.0.113.1');
      const b1 = await remaining(t, '203.0.113.2');
      const a2 = await remaining(t, '203.0.113.1');
      expect(b1).toBe(a1);
      expect(a2).toBe(a1 - 1);
    } finally {
      await t.stop();
    }
  });

  it('a hop count trusts that many proxies', async () => {
    const t = await startTestApp({ trustProxy: 1 });
    try {
      const a1 = await remaining(t, '198.51.100.7, 203.0.113.1');
      const b1 = await remaining(t, '198.51.100.7, 203.0.113.2');
      expect(b1).toBe(a1); // the last hop (the proxy's view of the client) differs
    } finally {
      await t.stop();
    }
  });
});
