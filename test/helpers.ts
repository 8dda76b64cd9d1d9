import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { expect, inject } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../src/config.js';
import { createRuntime, type Runtime } from '../src/runtime.js';

/** Which store this run of the suite uses: PGlite in memory, or a fresh PostgreSQL database. */
export const STORE: 'pglite' | 'postgres' = process.env.TEST_STORE === 'postgres' ? 'postgres' : 'pglite';

async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error('TEST_STORE=postgres needs TEST_DATABASE_URL');
  const name = `sightline_t_${crypto.randomBytes(6).toString('hex')}`;
  // A copy of the database test/global-setup.ts migrated once (the app's migrations then find
  // nothing to do), or an empty one when this file runs outside that setup.
  const template = inject('postgresTemplate');
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface TestApp {
  runtime: Runtime;
  app: FastifyInstance;
  config: Config;
  stop(): Promise<void>;
  /**
   * Stops the process's runtime and starts a new one on the same store (the same database,
   * or the same DATA_DIR: use `{ memoryStore: false, dataDir }` on the embedded store).
   */
  restart(): Promise<void>;
}

/** A whole service on a real store (the suite's store), not listening: use inject. */
export async function startTestApp(
  overrides: Partial<Config> = {},
  env: Record<string, string> = {},
  log: pino.Logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
): Promise<TestApp> {
  let db: Awaited<ReturnType<typeof freshDatabase>> | null = null;
  // Brand icons are never fetched from the real sites the fixtures name: a closed local
  // port (refused at once; blocked outright without allowPrivateUrls) stands in for them all.
  const base: Partial<Config> = { memoryStore: true, memoryStoreSnapshot: inject('pgliteSnapshot'), logLevel: 'silent', role: 'all', faviconOrigin: 'http://127.0.0.1:9' };
  if (STORE === 'postgres') {
    db = await freshDatabase();
    base.databaseUrl = db.url;
    base.secretKey = 'test-secret-key-0123456789abcdef';
  }
  if (process.env.TEST_REDIS_URL && overrides.redisUrl === undefined && STORE === 'postgres') {
    // server mode: the shared limiter, with a key prefix per test app (see rate-limit tests)
  }
  const config = loadConfig({ ...env }, { ...base, ...overrides });
  const t: TestApp = {
    runtime: await createRuntime(config, log),
    app: null as unknown as FastifyInstance,
    config,
    async stop() {
      await t.runtime.stop();
      await db?.drop();
    },
    async restart() {
      if (config.memoryStore && !config.databaseUrl) throw new Error('restart needs a store that outlives the runtime');
      await t.runtime.stop();
      t.runtime = await createRuntime(config, log);
      t.app = t.runtime.app!;
    },
  };
  t.app = t.runtime.app!;
  return t;
}

/**
 * A whole service whose store outlives `restart()`: on the embedded store, in a data folder
 * of its own (removed by `stop()`); on PostgreSQL, its fresh database as always.
 */
export async function startRestartableTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  if (STORE === 'postgres') return startTestApp(overrides);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-restart-'));
  const t = await startTestApp({ ...overrides, memoryStore: false, dataDir });
  const stop = t.stop;
  t.stop = async () => {
    try {
      await stop.call(t);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };
  return t;
}

export interface Account {
  email: string;
  password: string;
  teamId: string;
  userId: string;
  key: string;
}

let seq = 0;
export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${Date.now().toString(36)}-${++seq}-${crypto.randomBytes(3).toString('hex')}@example.com`;
}

/** Account create + api-key through HTTP, as an agent would. */
export async function createAccount(app: FastifyInstance, email = uniqueEmail()): Promise<Account> {
  const created = await app.inject({ method: 'POST', url: '/v1/account/create', payload: { email } });
  if (created.statusCode !== 200) throw new Error(`account create: ${created.statusCode} ${created.body}`);
  const { data } = created.json();
  const key = await app.inject({
    method: 'POST',
    url: '/v1/account/api-key',
    payload: { email: data.email, password: data.password },
  });
  if (key.statusCode !== 200) throw new Error(`api-key: ${key.statusCode} ${key.body}`);
  return { email: data.email, password: data.password, teamId: data.team_id, userId: data.user_id, key: key.json().data.api_key };
}

/** Sets a team's plan or tier straight in the store (what the operator API does). */
export async function setTeam(t: TestApp, teamId: string, patch: { plan?: string; rate_limit_tier?: string }) {
  if (patch.plan) await t.runtime.ctx.store.query(`update teams set plan = $2 where id = $1`, [teamId, patch.plan]);
  if (patch.rate_limit_tier)
    await t.runtime.ctx.store.query(`update teams set rate_limit_tier = $2 where id = $1`, [teamId, patch.rate_limit_tier]);
  t.runtime.http!.authCache.invalidateTeam(teamId);
}

export async function createProject(
  app: FastifyInstance,
  key: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/account/projects',
    headers: { 'x-api-key': key },
    payload: { brand_name: 'Acme', brand_url: 'https://acme.com', webhook_url: 'https://hooks.acme.com/cb', ...body },
  });
  if (res.statusCode !== 202) throw new Error(`project create: ${res.statusCode} ${res.body}`);
  return res.json().data.project_id;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

/** Request helper bound to one key. */
export function client(app: FastifyInstance, key?: string) {
  const call = (method: Method, url: string, payload?: unknown): Promise<LightMyRequestResponse> =>
    app.inject({
      method,
      url: url.startsWith('/v1') ? url : `/v1${url}`,
      headers: key ? { 'x-api-key': key } : {},
      ...(payload === undefined ? {} : { payload: payload as any }),
    });
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, body?: unknown) => call('POST', url, body ?? {}),
    patch: (url: string, body?: unknown) => call('PATCH', url, body ?? {}),
    delete: (url: string) => call('DELETE', url),
  };
}

export const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

/** Polls `fn` until it returns a truthy value (or throws after `timeoutMs`). */
export async function until<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`condition not met after ${timeoutMs} ms${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * The body of every error: the detail, a stable machine-readable code (the given one, or
 * any), and the request's id (which the X-Request-Id header carries too).
 */
export function errorBody(detail: unknown, code?: string) {
  return { detail, code: code ?? expect.stringMatching(/^[a-z_]+$/), request_id: expect.any(String) };
}
