import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import {
  APP_DIR,
  ROOT,
  describeMachine,
  fmt,
  http,
  machineInfo,
  runLoad,
  startServer,
  summarizeCpuProfile,
  table,
  revision,
  updateReadmeSection,
  waitForQuiet,
  type LoadResult,
  type Suite,
  type SuiteOptions,
} from './lib';

// An authenticated `GET /v1/projects/{id}` on each store, beside a bare Fastify route
// that returns the same JSON. Each server runs in its own process; autocannon drives it
// from this one.

const CONNECTIONS = 50;
const WARMUP_S = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const MEASURE_S = Number(process.env.BENCH_SECONDS ?? 10);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const DB_NAME = 'sightline_bench';

// The limiter stays on and does its full work per request (a sliding-window log per key,
// in memory or in Redis). RATE_LIMIT_WINDOW_MS=100, the shortest the config allows, and
// one key per two connections keep every key far below its 70 requests per window.
const WINDOW_MS = 100;
const KEYS = 25;

const GOAL_RATIO = 0.3;
const GOAL_P99_MS = 10;

interface Target {
  id: string;
  label: string;
  store: 'embedded' | 'postgres';
  env: Record<string, string>;
  redis: boolean;
  diagnostic?: boolean;
}

const TARGETS: Target[] = [
  { id: 'embedded', label: 'Sightline, embedded store (PGlite)', store: 'embedded', env: {}, redis: false },
  { id: 'postgres', label: 'Sightline, PostgreSQL + Redis limiter', store: 'postgres', env: {}, redis: true },
  // --diagnose: what the authenticated path costs, piece by piece.
  { id: 'postgres-nocache', label: 'PostgreSQL + Redis, AUTH_CACHE_MS=0', store: 'postgres', env: { AUTH_CACHE_MS: '0' }, redis: true, diagnostic: true },
  { id: 'postgres-memlimit', label: 'PostgreSQL, in-process limiter (no REDIS_URL)', store: 'postgres', env: {}, redis: false, diagnostic: true },
  { id: 'embedded-nocache', label: 'embedded, AUTH_CACHE_MS=0', store: 'embedded', env: { AUTH_CACHE_MS: '0' }, redis: false, diagnostic: true },
];

interface Row {
  id: string;
  label: string;
  result: LoadResult;
  limiter: string;
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function redisEvalCalls(): Promise<number> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const info = await redis.info('commandstats');
    let calls = 0;
    for (const m of info.matchAll(/cmdstat_(?:evalsha|eval):calls=(\d+)/g)) calls += Number(m[1]);
    return calls;
  } finally {
    redis.disconnect();
  }
}

/** Account, admin key, project and more keys, all through the public API. */
async function seed(url: string): Promise<{ projectId: string; keys: string[]; body: string }> {
  const email = `bench-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const account = await http('POST', `${url}/v1/account/create`, { body: { email }, expect: 200 });
  const { password } = account.body.data;
  const admin = await http('POST', `${url}/v1/account/api-key`, { body: { email, password }, expect: 200 });
  const keys: string[] = [admin.body.data.api_key];
  const project = await http('POST', `${url}/v1/account/projects`, {
    headers: { 'x-api-key': keys[0] },
    body: { brand_name: 'Acme', brand_url: 'https://example.com', webhook_url: 'https://example.com/sightline-callback' },
    expect: 202,
  });
  const projectId: string = project.body.data.project_id;
  while (keys.length < KEYS) {
    const created = await http('POST', `${url}/v1/keys`, {
      headers: { 'x-api-key': keys[0] },
      body: { scope: 'viewer', name: `bench-${keys.length}` },
      expect: 201,
    });
    keys.push(created.body.data.api_key);
  }
  let body = '';
  for (const key of keys) {
    const res = await http('GET', `${url}/v1/projects/${projectId}`, { headers: { 'x-api-key': key }, expect: 200 });
    if (body && res.text !== body) throw new Error('GET /v1/projects/{id} answered differently per key');
    body = res.text;
    if (res.headers.get('x-ratelimit-limit') !== '70') throw new Error(`unexpected x-ratelimit-limit ${res.headers.get('x-ratelimit-limit')}`);
  }
  return { projectId, keys, body };
}

async function runSightline(target: Target, opts: SuiteOptions): Promise<Row & { body: string; projectId: string }> {
  // ROLE=api on both stores: no job workers or scheduler, so the bootstrap job of the
  // project created below waits in the queue instead of fetching its site and calling
  // back while the API is being measured.
  const env: Record<string, string> = {
    ROLE: 'api',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
    PROVIDERS_MODE: 'simulated',
    ...target.env,
  };
  let dataDir: string | null = null;
  if (target.store === 'embedded') {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-'));
    env.DATA_DIR = dataDir;
  } else {
    await adminQuery(`drop database if exists ${DB_NAME} with (force)`);
    await adminQuery(`create database ${DB_NAME}`);
    const dbUrl = new URL(ADMIN_URL);
    dbUrl.pathname = `/${DB_NAME}`;
    Object.assign(env, { DATABASE_URL: dbUrl.toString(), SECRET_KEY: 'bench-secret-key-0123456789abcdef' });
    if (target.redis) env.REDIS_URL = REDIS_URL;
  }
  const server = await startServer({ name: target.id, entry: 'src/main.ts', cwd: APP_DIR, env, profileFile: profileFile(opts, target.id) });
  try {
    const { projectId, keys, body } = await seed(server.url);
    const before = target.redis ? await redisEvalCalls() : 0;
    const result = await runLoad({
      url: `${server.url}/v1/projects/${projectId}`,
      connections: CONNECTIONS,
      warmupSeconds: WARMUP_S,
      seconds: MEASURE_S,
      perConnection: keys.map((k) => ({ 'x-api-key': k })),
      onMeasureStart: server.startProfile,
      onMeasureEnd: async () => printProfile(target.id, await server.stopProfile()),
    });
    let limiter = `in process, ${KEYS} keys`;
    if (target.redis) {
      const calls = (await redisEvalCalls()) - before;
      limiter = `Redis, ${KEYS} keys, ${fmt.int(calls)} scripts run`;
      if (calls < result.total) limiter += ' (fewer than requests: failing open?)';
    }
    return { id: target.id, label: target.label, result, limiter, body, projectId };
  } catch (err) {
    throw new Error(`${target.id}: ${(err as Error).message}\n--- server output:\n${server.tail()}`, { cause: err });
  } finally {
    await server.stop();
    const warnings = server.warnings().filter((l) => !l.includes('callback signing secret'));
    if (warnings.length) console.warn(`  ${target.id} logged:\n    ${warnings.slice(0, 5).join('\n    ')}`);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    if (target.store === 'postgres') await adminQuery(`drop database if exists ${DB_NAME} with (force)`);
  }
}

async function runBare(body: string, projectId: string, keys: number, opts: SuiteOptions): Promise<Row> {
  const server = await startServer({
    name: 'bare',
    entry: 'bench/bare-server.ts',
    env: { BENCH_BODY: body, BENCH_ROUTE: '/v1/projects/:project_id' },
    profileFile: profileFile(opts, 'bare'),
  });
  try {
    const check = await http('GET', `${server.url}/v1/projects/${projectId}`, { expect: 200 });
    if (check.text !== body) throw new Error('the bare route does not return the same JSON');
    // The same request bytes as the authenticated runs: an X-API-Key header per connection.
    const fakeKeys = Array.from({ length: keys }, () => ({ 'x-api-key': `sk_${crypto.randomBytes(24).toString('hex')}` }));
    const result = await runLoad({
      url: `${server.url}/v1/projects/${projectId}`,
      connections: CONNECTIONS,
      warmupSeconds: WARMUP_S,
      seconds: MEASURE_S,
      perConnection: fakeKeys,
      onMeasureStart: server.startProfile,
      onMeasureEnd: async () => printProfile('bare', await server.stopProfile()),
    });
    return { id: 'bare', label: 'bare Fastify 5 route, same JSON (no auth, no store)', result, limiter: 'none' };
  } finally {
    await server.stop();
  }
}

function profileFile(opts: SuiteOptions, id: string): string | undefined {
  return opts.profile ? path.join(ROOT, '.bench-data', 'profiles', 'http-auth', `${id}.cpuprofile`) : undefined;
}

function printProfile(id: string, file: string | null): void {
  if (!file) return;
  const { busyMs, byPlace, byFunction } = summarizeCpuProfile(file);
  console.log(`\n  CPU profile of ${id} (${path.relative(ROOT, file)}), ${fmt.int(busyMs)} ms busy; self time:`);
  console.log(byPlace.map(([k, v]) => `    ${fmt.pct(v).padStart(6)}  ${k}`).join('\n'));
  console.log('  top functions:');
  console.log(byFunction.map(([k, v]) => `    ${fmt.pct(v).padStart(6)}  ${k}`).join('\n'));
}

function report(rows: Row[], machine: ReturnType<typeof machineInfo>): string {
  const bare = rows.find((r) => r.id === 'bare')!;
  const pgRow = rows.find((r) => r.id === 'postgres')!;
  const ratio = pgRow.result.rps / bare.result.rps;
  const ratioMet = ratio >= GOAL_RATIO;
  const p99Met = pgRow.result.p99 < GOAL_P99_MS;
  const tableText = table(
    ['server under test', 'req/s', 'p50', 'p99', 'non-2xx', 'errors', 'of bare req/s', 'rate limiter'],
    rows.map((r) => [
      r.label,
      fmt.int(r.result.rps),
      fmt.ms(r.result.p50),
      fmt.ms(r.result.p99),
      r.result.non2xx,
      r.result.errors + r.result.timeouts,
      r.id === 'bare' ? '100%' : fmt.pct(r.result.rps / bare.result.rps),
      r.limiter,
    ]),
  );
  return [
    `Measured ${machine.date} on ${describeMachine(machine).replace(/^[^,]+, /, '')}; Sightline at ${revision()}.`,
    '',
    `Authenticated \`GET /v1/projects/{id}\` (valid X-API-Key, auth cache, rate limiter, project read, zod response) ` +
      `against a bare Fastify 5 route returning the same JSON body in its own process. ` +
      `${CONNECTIONS} connections, ${WARMUP_S} s warm-up (discarded), then ${MEASURE_S} s measured, each server on its own.`,
    '',
    tableText,
    '',
    `Goals (issue, on PostgreSQL): ≥ ${GOAL_RATIO * 100}% of the bare route's req/s: **${fmt.pct(ratio)} — ${ratioMet ? 'met' : 'not met'}**; ` +
      `p99 < ${GOAL_P99_MS} ms at ${CONNECTIONS} connections: **${fmt.ms(pgRow.result.p99)} — ${p99Met ? 'met' : 'not met'}**.`,
  ].join('\n');
}

const METHOD = `
How it is measured:
- Each server is a child process: \`node --import tsx src/main.ts\` with LOG_LEVEL=warn (the bare one: \`bench/bare-server.ts\`).
  Both with ROLE=api (no job workers or scheduler: the new project's bootstrap waits in the queue rather than
  fetching a site and calling back during the measurement). Embedded: a temporary DATA_DIR, in-process limiter.
  PostgreSQL: the database \`${DB_NAME}\` dropped and created for the run, SECRET_KEY set, REDIS_URL for the shared limiter (server mode).
- Data goes in through the public API: account create → api-key → project create → ${KEYS - 1} more keys (POST /v1/keys).
- Rate limiter: left on, doing its full work per request. RATE_LIMIT_WINDOW_MS=${WINDOW_MS} (the shortest allowed) and
  ${KEYS} keys spread over the ${CONNECTIONS} connections (2 each) keep every key far under its 70 requests per window, so no 429s;
  the team keeps the standard tier. Non-2xx must be 0 (it is reported above); for Redis the scripts it ran are counted.
- autocannon 8 runs in the benchmark's own process. Latency percentiles come from every answer's own timing
  (autocannon's histogram rounds to whole milliseconds).
- The machine has {cores} cores: the load generator, the server under test, PostgreSQL and Redis share them, so
  absolute figures are lower than on a dedicated load-generating host; the ratio to the bare route is the figure to watch.
- Run it with \`npm run bench\` (all suites) or \`npm run bench -- http-auth\`; \`-- http-auth --diagnose\` adds the variants
  below the line, \`--profile\` writes CPU profiles of the measured window to .bench-data/profiles (and leaves this file alone).
`;

export const httpAuth: Suite = {
  name: 'http-auth',
  description: 'authenticated GET /v1/projects/{id} on PGlite and PostgreSQL vs a bare Fastify route',
  async run(opts) {
    await waitForQuiet(1, 60_000);
    const machine = machineInfo();
    if (machine.load >= 1) console.warn(`  WARNING: load average ${machine.load.toFixed(2)}: other work on this machine will skew the figures`);
    console.log(`http-auth: ${describeMachine(machine)}`);
    const rows: (Row & { diagnostic?: boolean })[] = [];
    let body = '';
    let projectId = '';
    const main = TARGETS.filter((t) => !t.diagnostic);
    const extra = opts.diagnose ? TARGETS.filter((t) => t.diagnostic) : [];
    for (const target of [...main, ...extra]) {
      console.log(`  ${target.id}: ${target.label} …`);
      const row = await runSightline(target, opts);
      rows.push({ ...row, diagnostic: target.diagnostic });
      body ||= row.body;
      projectId ||= row.projectId;
      if (target.id === 'postgres') {
        console.log('  bare: Fastify route …');
        rows.push(await runBare(body, projectId, KEYS, opts));
      }
    }
    const mainRows = rows.filter((r) => !r.diagnostic);
    let text = report(mainRows, machine);
    const diag = rows.filter((r) => r.diagnostic);
    if (diag.length) {
      const bare = rows.find((r) => r.id === 'bare')!;
      text +=
        '\n\nDiagnostic variants (`--diagnose`), same load:\n\n' +
        table(
          ['variant', 'req/s', 'p50', 'p99', 'non-2xx', 'of bare req/s'],
          diag.map((r) => [r.label, fmt.int(r.result.rps), fmt.ms(r.result.p50), fmt.ms(r.result.p99), r.result.non2xx, fmt.pct(r.result.rps / bare.result.rps)]),
        );
    }
    for (const r of rows) {
      if (r.result.non2xx || r.result.errors || r.result.timeouts) {
        console.warn(`  WARNING ${r.id}: ${r.result.non2xx} non-2xx (${JSON.stringify(r.result.statusCodes)}), ${r.result.errors} errors, ${r.result.timeouts} timeouts`);
      }
    }
    console.log(`\n${text}\n`);
    if (opts.profile) {
      console.log('(--profile: figures taken under the profiler; bench/README.md not updated)');
      return;
    }
    updateReadmeSection('http-auth', `${text}\n${METHOD.replace('{cores}', String(machine.cores))}`);
    console.log('bench/README.md updated (section http-auth)');
  },
};
