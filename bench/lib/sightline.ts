import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { http } from './http.js';
import { startServer, type ServerProcess } from './servers.js';
import { APP_DIR } from './suite.js';

// A Sightline server under test on a store of its own, and data put in through its API.

export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const BENCH_DB = 'sightline_bench';

/** One short-lived connection (the admin database unless `url` says otherwise) for `fn`. */
export async function withAdmin<T>(fn: (c: pg.Client) => Promise<T>, url = ADMIN_URL): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A bench store made empty: where a seeding runtime and the measured server find it. */
export interface BenchStore {
  /** The service's environment for it (DATA_DIR, or DATABASE_URL and SECRET_KEY). */
  env: Record<string, string>;
  /** The same as config overrides, for a runtime made in the bench process. */
  overrides: Record<string, unknown>;
  /** The embedded store's data directory; null on PostgreSQL. */
  dataDir: string | null;
  /** The PostgreSQL database's URL; '' for the embedded store. */
  dbUrl: string;
}

/** A fresh embedded data directory (named after `prefix`), or the PostgreSQL database `db` dropped and created again. */
export async function freshBenchStore(store: 'embedded' | 'postgres', db: string, prefix: string): Promise<BenchStore> {
  if (store === 'embedded') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
    return { env: { DATA_DIR: dataDir }, overrides: { dataDir, memoryStore: false }, dataDir, dbUrl: '' };
  }
  await withAdmin(async (c) => {
    await c.query(`drop database if exists ${db} with (force)`);
    await c.query(`create database ${db}`);
  });
  const url = new URL(ADMIN_URL);
  url.pathname = `/${db}`;
  const dbUrl = url.toString();
  const secretKey = 'bench-secret-key-0123456789abcdef';
  return { env: { DATABASE_URL: dbUrl, SECRET_KEY: secretKey }, overrides: { databaseUrl: dbUrl, secretKey }, dataDir: null, dbUrl };
}

/** The PostgreSQL backends connected to a database (a server's pool; by default the bench database's). */
export const backendPids = (db = BENCH_DB) =>
  withAdmin(async (c) => (await c.query<{ pid: number }>(`select pid from pg_stat_activity where datname = $1`, [db])).rows.map((r) => r.pid));

async function redisInfo(section: string): Promise<string> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    return await redis.info(section);
  } finally {
    redis.disconnect();
  }
}

export async function redisPid(): Promise<number[]> {
  const m = (await redisInfo('server')).match(/process_id:(\d+)/);
  return m ? [Number(m[1])] : [];
}

/** Lua scripts Redis has run so far (the limiter runs one per hit). */
/** Windows written in Redis so far: one ZADD per request the limiter let through. */
export async function redisRecordedHits(): Promise<number> {
  const m = (await redisInfo('commandstats')).match(/cmdstat_zadd:calls=(\d+)/);
  return m ? Number(m[1]) : 0;
}

export async function redisScriptCalls(): Promise<number> {
  let calls = 0;
  for (const m of (await redisInfo('commandstats')).matchAll(/cmdstat_(?:evalsha|eval):calls=(\d+)/g)) calls += Number(m[1]);
  return calls;
}

/**
 * The entry point that runs a checkout's service: its build (dist/, brought up to date first
 * by the checkout's own scripts/build.mjs), or, for a checkout from before the build existed
 * (an A/B run against an older commit), its sources through tsx.
 */
export function serviceEntry(appDir: string, file: 'main' | 'cluster' | 'cli' = 'main'): string {
  const build = path.join(appDir, 'scripts', 'build.mjs');
  if (!fs.existsSync(build)) return `src/${file}.ts`;
  execFileSync(process.execPath, [build, '--if-stale'], { cwd: appDir, stdio: 'inherit' });
  return `dist/${file}.js`;
}

export interface SightlineOptions {
  name: string;
  store: 'embedded' | 'postgres';
  /** Server mode only: REDIS_URL, the shared limiter. */
  redis?: boolean;
  env?: Record<string, string>;
  appDir?: string;
  profileFile?: string;
}

/**
 * The service (`node dist/main.js`, see serviceEntry) on a temporary DATA_DIR, or on the
 * database sightline_bench dropped and created for it. stop() also removes the store.
 */
export async function startSightline(opts: SightlineOptions): Promise<ServerProcess> {
  const env: Record<string, string> = { LOG_LEVEL: 'warn', PROVIDERS_MODE: 'simulated', ...opts.env };
  let removeStore: () => Promise<void>;
  if (opts.store === 'embedded') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-'));
    env.DATA_DIR = dataDir;
    removeStore = async () => fs.rmSync(dataDir, { recursive: true, force: true });
  } else {
    await withAdmin(async (c) => {
      await c.query(`drop database if exists ${BENCH_DB} with (force)`);
      await c.query(`create database ${BENCH_DB}`);
    });
    const url = new URL(ADMIN_URL);
    url.pathname = `/${BENCH_DB}`;
    Object.assign(env, { DATABASE_URL: url.toString(), SECRET_KEY: 'bench-secret-key-0123456789abcdef' });
    if (opts.redis) {
      await redisPid(); // fails here, not silently later: the limiter would fail open without Redis
      env.REDIS_URL = REDIS_URL;
    }
    removeStore = () => withAdmin(async (c) => void (await c.query(`drop database if exists ${BENCH_DB} with (force)`)));
  }
  let server: ServerProcess;
  try {
    const cwd = opts.appDir ?? APP_DIR;
    server = await startServer({ name: opts.name, entry: serviceEntry(cwd), cwd, env, profileFile: opts.profileFile });
  } catch (err) {
    await removeStore();
    throw err;
  }
  return {
    ...server,
    async stop() {
      try {
        await server.stop();
      } finally {
        await removeStore();
      }
    },
  };
}

export interface SeededAccount {
  email: string;
  /** The account's admin key first, then viewer keys. */
  keys: string[];
  projectId: string;
}

/** Account create → api-key → project create → more keys, as a client of the API would. */
export async function seedAccount(url: string, keyCount = 1): Promise<SeededAccount> {
  const email = `bench-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const account = await http('POST', `${url}/v1/account/create`, { body: { email }, expect: 200 });
  const { password } = account.body.data;
  const admin = await http('POST', `${url}/v1/account/api-key`, { body: { email, password }, expect: 200 });
  const keys: string[] = [admin.body.data.api_key];
  // example.com: nothing is fetched or called back from a benchmark.
  const project = await http('POST', `${url}/v1/account/projects`, {
    headers: { 'x-api-key': keys[0] },
    body: { brand_name: 'Acme', brand_url: 'https://example.com', webhook_url: 'https://example.com/sightline-callback' },
    expect: 202,
  });
  while (keys.length < keyCount) {
    const created = await http('POST', `${url}/v1/keys`, {
      headers: { 'x-api-key': keys[0] },
      body: { scope: 'viewer', name: `bench-${keys.length}` },
      expect: 201,
    });
    keys.push(created.body.data.api_key);
  }
  return { email, keys, projectId: project.body.data.project_id };
}
