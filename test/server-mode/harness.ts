import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterEach } from 'vitest';
import { ensureBuilt, exitedEarly, freePort, onFreePort } from '../child-service.js';
import { until } from '../helpers.js';

// Server mode as an operator runs it: real `node dist/main.js` processes (the build) with
// ROLE=api / ROLE=worker on one PostgreSQL database (and Redis), driven over HTTP, checked
// in the database. Every process, database, Redis key and server started here is tracked
// and removed by `cleanup()` (call it from afterAll: it runs even when a test failed).

const execFileAsync = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Why a server-mode file is skipped, or null when it can run. */
export function serverModeSkipReason(needRedis: boolean): string | null {
  if (process.env.TEST_STORE !== 'postgres') return 'server-mode tests run only with TEST_STORE=postgres';
  if (!process.env.TEST_DATABASE_URL) return 'server-mode tests need TEST_DATABASE_URL (a PostgreSQL user with CREATEDB)';
  if (needRedis && !process.env.TEST_REDIS_URL) return 'this file needs TEST_REDIS_URL (a shared Redis)';
  return null;
}

type Cleanup = () => Promise<unknown> | unknown;
const cleanups: Cleanup[] = [];
/** Registers something to undo in cleanup() (fakes, receivers, temporary files). */
export function onCleanup(fn: Cleanup): void {
  cleanups.push(fn);
}

/** Runs every registered cleanup, newest first; never throws (failures are printed). */
export async function cleanup(): Promise<void> {
  while (cleanups.length) {
    const fn = cleanups.pop()!;
    try {
      await fn();
    } catch (err) {
      console.error('server-mode cleanup:', err);
    }
  }
}

// ---------------------------------------------------------------- databases

export interface Database {
  name: string;
  url: string;
  pool: pg.Pool;
  drop(): Promise<void>;
}

/** A new, empty database on the server of `adminUrl`; dropped (with force) by cleanup(). */
export async function freshDatabase(adminUrl = process.env.TEST_DATABASE_URL!): Promise<Database> {
  const name = `sightline_sm_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: u.toString(), max: 4 });
  pool.on('error', () => {}); // the scratch server is stopped on purpose in one test
  let dropped = false;
  const db: Database = {
    name,
    url: u.toString(),
    pool,
    async drop() {
      if (dropped) return;
      dropped = true;
      await pool.end().catch(() => {});
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
  cleanups.push(() => db.drop());
  return db;
}

export async function rows<T = Record<string, any>>(db: Database, sql: string, values: unknown[] = []): Promise<T[]> {
  return (await db.pool.query(sql, values)).rows as T[];
}

// ---------------------------------------------------------------- service processes

export interface Proc {
  role: 'api' | 'worker' | 'cli';
  child: ChildProcess;
  pid: number;
  port: number;
  base: string;
  output(): string;
  alive(): boolean;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** kill -9: no cleanup at all, as a crash. */
  kill(): Promise<void>;
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function spawnNode(args: string[], role: Proc['role'], env: Record<string, string>, port = 0): Proc {
  ensureBuilt();
  // Only what the service needs: nothing leaks in from the test run (TEST_*, DATABASE_URL).
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR ?? '/tmp', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const proc: Proc = {
    role,
    child,
    pid: child.pid!,
    port,
    base: `http://127.0.0.1:${port}`,
    output: () => out,
    alive,
    exited,
    async kill() {
      if (alive()) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (alive()) child.kill('SIGTERM');
      return exited;
    },
  };
  cleanups.push(() => proc.kill());
  started.push(proc);
  return proc;
}

const started: Proc[] = [];
/** Prints the end of every process's output after a failed test (what CI needs to debug it). */
export function printProcessOutputOnFailure(): void {
  afterEach(({ task }) => {
    if (task.result?.state !== 'fail') return;
    for (const p of started) {
      const state = p.alive() ? 'running' : `exited (${p.child.exitCode ?? p.child.signalCode})`;
      console.error(`--- ${p.role} process ${p.pid}, ${state}; last output:\n${p.output().slice(-3000)}`);
    }
  });
}

/** `node dist/cli.js migrate` (what `npm run migrate` runs). */
export async function runMigrate(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const p = spawnNode(['dist/cli.js', 'migrate'], 'cli', env);
  const { code } = await p.exited;
  return { code, output: p.output() };
}

/**
 * One service process. An API process is up once /healthz answers; a worker (no HTTP
 * listener) once it logs that it started, which it does after its handlers are registered.
 * Workers log at debug level: their "job started" lines tell jobHolder() who runs what.
 */
export async function startProcess(role: 'api' | 'worker', env: Record<string, string>, timeoutMs = 60_000): Promise<Proc> {
  if (role === 'worker') return startProcessOn(role, env, timeoutMs, 0);
  return onFreePort((port) => startProcessOn(role, env, timeoutMs, port));
}

async function startProcessOn(role: 'api' | 'worker', env: Record<string, string>, timeoutMs: number, port: number): Promise<Proc> {
  const level = role === 'worker' ? 'debug' : 'info';
  const p = spawnNode(['dist/main.js'], role, { LOG_LEVEL: level, ...env, ROLE: role, PORT: String(port) }, port);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!p.alive()) {
      // its last words may come after the exit: wait for its output to close (at most 0.5 s)
      await Promise.race([new Promise((resolve) => p.child.once('close', resolve)), sleep(500)]);
      throw exitedEarly(`${role} process exited while starting:\n${p.output()}`, p.output());
    }
    if (Date.now() > deadline) {
      await p.kill();
      throw new Error(`${role} process did not come up in ${timeoutMs} ms:\n${p.output()}`);
    }
    const up =
      role === 'api'
        ? await fetch(`${p.base}/healthz`).then((r) => r.ok, () => false)
        : p.output().includes('Sightline worker started');
    if (up) return p;
    await sleep(100);
  }
}

/** JSON over HTTP; never throws on a status (a refused connection is status 0). */
export async function call(base: string, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  try {
    const res = await fetch(`${base}/v1${url}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = { raw: text };
    }
    return { status: res.status, headers: res.headers, json };
  } catch (err) {
    return { status: 0, headers: new Headers(), json: { error: (err as Error).message } };
  }
}

/**
 * The live worker running a job of `queue` now: a worker logs "job started" with the job id
 * (at debug level), and pg-boss's table says which of those jobs is still active. When a job
 * was started more than once (a retry), the latest start counts.
 */
export async function jobHolder(db: Database, queue: string, workers: Proc[]): Promise<Proc | null> {
  const active = new Set(
    (await rows<{ id: string }>(db, `select id from pgboss.job where name = $1 and state = 'active'`, [queue])).map((r) => r.id),
  );
  let latest: { at: number; worker: Proc } | null = null;
  for (const w of workers) {
    if (!w.alive()) continue;
    for (const line of w.output().split('\n')) {
      if (!line.includes('"job started"')) continue;
      try {
        const entry = JSON.parse(line) as { time: number; queue?: string; job?: string };
        if (entry.queue !== queue || !entry.job || !active.has(entry.job)) continue;
        if (!latest || entry.time > latest.at) latest = { at: entry.time, worker: w };
      } catch {
        /* a partial line: the rest is still on its way */
      }
    }
  }
  return latest?.worker ?? null;
}

// ---------------------------------------------------------------- accounts

export interface Tenant {
  email: string;
  teamId: string;
  key: string;
  auth: Record<string, string>;
}

/** Account, key and plan (through the operator API), as an agent and an operator would. */
export async function createTenant(base: string, adminToken: string, plan = 'pro'): Promise<Tenant> {
  const email = `sm-${Date.now().toString(36)}-${crypto.randomBytes(3).toString('hex')}@example.com`;
  const created = await call(base, 'POST', '/account/create', { email });
  if (created.status !== 200) throw new Error(`account create: ${created.status} ${JSON.stringify(created.json)}`);
  const keyRes = await call(base, 'POST', '/account/api-key', { email, password: created.json.data.password });
  if (keyRes.status !== 200) throw new Error(`api-key: ${keyRes.status} ${JSON.stringify(keyRes.json)}`);
  const teamId = created.json.data.team_id;
  const patched = await call(base, 'PATCH', `/admin/teams/${teamId}`, { plan }, { authorization: `Bearer ${adminToken}` });
  if (patched.status !== 200) throw new Error(`plan: ${patched.status} ${JSON.stringify(patched.json)}`);
  const key = keyRes.json.data.api_key as string;
  return { email, teamId, key, auth: { 'x-api-key': key } };
}

// ---------------------------------------------------------------- outside world

export interface SlowReceived {
  headers: Record<string, string>;
  body: string;
  at: number;
}

/**
 * A webhook receiver (plain HTTP) that holds every request for `delayMs` before its 200,
 * so a test can kill the sender while a delivery is in flight.
 */
export async function startSlowReceiver(delayMs: number) {
  const received: SlowReceived[] = [];
  const answered: SlowReceived[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const r: SlowReceived = {
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')])),
      body: Buffer.concat(chunks).toString('utf8'),
      at: Date.now(),
    };
    received.push(r);
    await sleep(delayMs);
    if (res.destroyed || req.socket.destroyed) return; // the sender is gone (killed)
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}', () => answered.push(r));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  cleanups.push(close);
  return { url: `http://127.0.0.1:${port}/hook`, received, answered, close };
}

/** A throwaway redis-server on its own port (no persistence), killed by cleanup(). */
export async function startRedis(port?: number) {
  const p = port ?? (await freePort());
  const child = spawn('redis-server', ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  cleanups.push(kill);
  const probe = new Redis(p, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  await until(async () => {
    try {
      if (probe.status !== 'ready') await probe.connect();
      return (await probe.ping()) === 'PONG';
    } catch {
      probe.disconnect();
      return false;
    }
  }, 15_000, 50);
  probe.disconnect();
  return { port: p, url: `redis://127.0.0.1:${p}`, kill };
}

export function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Deletes the keys under `prefix` in a shared Redis (never FLUSHALL). */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  r.on('error', () => {});
  try {
    await r.connect();
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await r.del(...keys);
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
}

// ---------------------------------------------------------------- a scratch PostgreSQL server

/** The newest installed PostgreSQL server binaries (initdb, pg_ctl), or null. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], 'bin') : null;
}

/** The server binaries, run as `postgres` when the test runs as root (initdb refuses root). */
function postgresTools() {
  const bin = postgresBinDir();
  if (!bin) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot
    ? { uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()) }
    : null;
  // Asynchronous, so the test's own request loops keep running while a server stops and starts.
  const run = async (tool: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]] : [path.join(bin, tool), args];
    await execFileAsync(file, argv, { timeout: 60_000 });
  };
  /** A temporary folder the server's user owns, removed by cleanup(). */
  const folder = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-pg-'));
    if (owner) fs.chownSync(dir, owner.uid, owner.gid);
    return dir;
  };
  return { run, folder };
}

export interface ScratchServer {
  port: number;
  /** The `postgres` database, as the `postgres` user. */
  url: string;
  start(): Promise<void>;
  /** A fast shutdown: sessions are ended, the server says so to its clients. */
  stop(): Promise<void>;
  log(): string;
}

/** pg_ctl over one data folder; stopped (immediate) and the folder removed by cleanup(). */
function serverOn(tools: ReturnType<typeof postgresTools>, dir: string, port: number, settings: string): ScratchServer {
  const data = path.join(dir, 'data');
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off ${settings}`;
  cleanups.push(async () => {
    await tools.run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '60', 'stop']).catch(() => {}); // not running: fine
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => tools.run('pg_ctl', ['-D', data, '-o', opts, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']),
    stop: () => tools.run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']),
    log: () => fs.readFileSync(path.join(dir, 'server.log'), 'utf8'),
  };
}

/**
 * A PostgreSQL server of our own (initdb into a temporary folder, its own port), so a test
 * can stop and start it without touching the shared server other tests use. initdb refuses
 * to run as root: as root, the server runs as the `postgres` user.
 */
export async function startScratchPostgres(): Promise<ScratchServer> {
  const tools = postgresTools();
  const dir = tools.folder();
  await tools.run('initdb', ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const server = serverOn(tools, dir, await freePort(), '-c full_page_writes=off');
  await server.start();
  return server;
}

/**
 * A primary (`wal_level=replica`) and a hot standby streaming from it, both of our own: the
 * standby is a `pg_basebackup -R` of the primary (its recovery settings written by -R) in a
 * second folder, on another port. Every database made on the primary appears on the
 * standby, under the same name, once replayed.
 */
export async function startReplicatedPostgres(): Promise<{ primary: ScratchServer; replica: ScratchServer & ReplicaControls }> {
  const tools = postgresTools();
  const primaryDir = tools.folder();
  await tools.run('initdb', ['-D', path.join(primaryDir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const primary = serverOn(tools, primaryDir, await freePort(), '-c wal_level=replica -c max_wal_senders=4');
  await primary.start();
  const replicaDir = tools.folder();
  await tools.run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', path.join(replicaDir, 'data'), '-R', '-X', 'stream', '-c', 'fast', '--no-sync']);
  const replica = serverOn(tools, replicaDir, await freePort(), '-c hot_standby=on');
  await replica.start();
  const sql = async <T>(text: string): Promise<T> => {
    const c = new pg.Client({ connectionString: replica.url });
    await c.connect();
    try {
      return (await c.query(text)).rows[0] as T;
    } finally {
      await c.end();
    }
  };
  const controls: ReplicaControls = {
    pause: async () => void (await sql('select pg_wal_replay_pause()')),
    resume: async () => void (await sql('select pg_wal_replay_resume()')),
  };
  return { primary, replica: { ...replica, ...controls } };
}

export interface ReplicaControls {
  /** Stops replaying the primary's WAL (`pg_wal_replay_pause()`): the standby falls behind as the primary writes. */
  pause(): Promise<void>;
  resume(): Promise<void>;
}

// ---------------------------------------------------------------- scenarios

/**
 * The tests of a scenario build on each other (a project, then its prompts...): once one
 * fails, the ones after it are skipped with the name of the failed step instead of
 * failing again for an unrelated-looking reason.
 */
export function scenario() {
  let broken: string | null = null;
  afterEach(({ task }) => {
    if (task.result?.state === 'fail') broken ??= task.name;
  });
  return {
    /** Call first in each test: skips it when an earlier step failed. */
    needsEarlierSteps(ctx: { skip: (note?: string) => void }) {
      if (broken) ctx.skip(`an earlier step failed: "${broken}"`);
    },
  };
}

// ---------------------------------------------------------------- a TCP proxy that can go silent

/**
 * A TCP proxy in front of a server (a replica), so a test can make the server stop
 * answering without closing anything: `silence()` keeps every connection open and accepts
 * new ones, but nothing goes through in either direction (a host gone from the network,
 * as clients see it: timeouts, not refusals). `forward()` drops the silenced connections
 * and lets new ones through again.
 */
export async function startTcpProxy(targetPort: number) {
  let silent = false;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => {});
    if (silent) return; // accepted, never answered
    const upstream = net.connect(targetPort, '127.0.0.1');
    open.add(upstream);
    upstream.on('close', () => {
      open.delete(upstream);
      if (!silent) client.destroy();
    });
    upstream.on('error', () => {});
    client.on('close', () => {
      if (!silent) upstream.destroy();
    });
    const pass = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk) => {
        if (!silent) to.write(chunk);
      });
    pass(client, upstream);
    pass(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const s of open) s.destroy();
      server.close(() => resolve());
    });
  cleanups.push(close);
  return {
    port,
    silence() {
      silent = true;
    },
    forward() {
      silent = false;
      for (const s of open) s.destroy();
    },
  };
}
