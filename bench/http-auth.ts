import crypto from 'node:crypto';
import path from 'node:path';
import { http } from './lib/http.js';
import { runLoad, type LoadResult } from './lib/load.js';
import { describeMachine, machineInfo, revision, waitForQuiet, type Machine } from './lib/machine.js';
import { summarizeCpuProfile } from './lib/profile.js';
import { fmt, table, updateReadmeSection } from './lib/report.js';
import { startServer, type ServerProcess } from './lib/servers.js';
import { backendPids, BENCH_DB, redisPid, redisRecordedHits, redisScriptCalls, seedAccount, startSightline } from './lib/sightline.js';
import { APP_DIR, ROOT, type Suite, type SuiteOptions } from './lib/suite.js';

// An authenticated `GET /v1/projects/{id}` on each store, beside a bare Fastify route
// returning the same JSON. Each server runs in its own process; autocannon drives it from
// another (bench/lib/load-generator.ts).

const CONNECTIONS = 50;
const WARMUP_S = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const MEASURE_S = Number(process.env.BENCH_SECONDS ?? 10);
// The limiter stays on and does its whole work per request (a sliding-window log per key,
// in memory or in Redis). RATE_LIMIT_WINDOW_MS=100, the shortest the config allows, and a
// key per connection allow 50 × 70 requests per 100 ms (35,000 req/s) before any 429.
const WINDOW_MS = 100;
const KEYS = 50;
const GOAL_RATIO = 0.5;
const GOAL_P99_MS = 10;

export interface Target {
  id: string;
  label: string;
  store: 'embedded' | 'postgres';
  redis?: boolean;
  env?: Record<string, string>;
  /** Only with --diagnose. */
  diagnostic?: boolean;
  /** Fewer connections than the 50 of the suite (latency without queueing). */
  connections?: number;
  /** Another checkout to run (default APP_DIR), for A/B runs of a change. */
  appDir?: string;
}

export const TARGETS: Target[] = [
  { id: 'embedded', label: 'Sightline, embedded store (PGlite)', store: 'embedded' },
  { id: 'postgres', label: 'Sightline, PostgreSQL + Redis limiter', store: 'postgres', redis: true },
  { id: 'postgres-nocache', label: 'PostgreSQL + Redis, AUTH_CACHE_MS=0', store: 'postgres', redis: true, env: { AUTH_CACHE_MS: '0' }, diagnostic: true },
  { id: 'postgres-memlimit', label: 'PostgreSQL, in-process limiter (no REDIS_URL)', store: 'postgres', diagnostic: true },
  { id: 'postgres-1conn', label: 'PostgreSQL + Redis, 1 connection', store: 'postgres', redis: true, connections: 1, diagnostic: true },
  { id: 'embedded-nocache', label: 'embedded, AUTH_CACHE_MS=0', store: 'embedded', env: { AUTH_CACHE_MS: '0' }, diagnostic: true },
];

export interface Row {
  target: Pick<Target, 'id' | 'label' | 'diagnostic' | 'connections'>;
  result: LoadResult;
  limiter: string;
}

const profileFile = (opts: SuiteOptions, id: string) =>
  opts.profile ? path.join(ROOT, '.bench-data', 'profiles', 'http-auth', `${id}.cpuprofile`) : undefined;

/** Warm-up and measured window against one server; CPU of the helpers counted when given. */
function load(server: ServerProcess, url: string, keys: string[], _opts: SuiteOptions, extra: Partial<Parameters<typeof runLoad>[0]> = {}) {
  return runLoad({
    url,
    connections: CONNECTIONS,
    warmupSeconds: WARMUP_S,
    seconds: MEASURE_S,
    perConnection: keys.map((k) => ({ 'x-api-key': k })),
    serverPid: server.pid,
    onMeasureStart: server.startProfile,
    onMeasureEnd: async () => printProfile(server.name, await server.stopProfile()),
    ...extra,
  });
}

/** One Sightline target; also returns the project JSON, for the bare route to serve. */
export async function runSightline(target: Target, opts: SuiteOptions): Promise<Row & { body: string; path: string }> {
  // ROLE=api: no job workers or scheduler, so the new project's bootstrap waits in the
  // queue instead of running beside the measurement.
  const server = await startSightline({
    name: target.id,
    store: target.store,
    redis: target.redis,
    env: { ROLE: 'api', RATE_LIMIT_WINDOW_MS: String(WINDOW_MS), ...target.env },
    appDir: target.appDir,
    profileFile: profileFile(opts, target.id),
  });
  try {
    const { keys, projectId } = await seedAccount(server.url, KEYS);
    const url = `${server.url}/v1/projects/${projectId}`;
    let body = '';
    for (const key of keys) {
      const res = await http('GET', url, { headers: { 'x-api-key': key }, expect: 200 });
      if (body && res.text !== body) throw new Error('GET /v1/projects/{id} answered differently per key');
      if (res.headers.get('x-ratelimit-limit') !== '70') throw new Error(`x-ratelimit-limit: ${res.headers.get('x-ratelimit-limit')}`);
      body = res.text;
    }
    let scripts0 = 0;
    let hits0 = 0;
    // One connection cycles through the keys (one key alone would meet its limit).
    const spread = target.connections && target.connections < KEYS;
    const result = await load(server, url, keys, opts, {
      connections: target.connections ?? CONNECTIONS,
      ...(spread ? { perConnection: undefined, perRequest: keys.map((k) => ({ 'x-api-key': k })) } : {}),
      // Read after the warm-up, right before the measured window.
      cpuOf: async () => {
        if (target.redis) [scripts0, hits0] = [await redisScriptCalls(), await redisRecordedHits()];
        if (target.store === 'embedded') return {};
        return { postgres: await backendPids(), ...(target.redis ? { redis: await redisPid() } : {}) };
      },
    });
    let limiter = `in process, ${KEYS} keys`;
    if (target.redis) {
      const scripts = (await redisScriptCalls()) - scripts0;
      const hits = (await redisRecordedHits()) - hits0;
      // A script checks every request a process received in one turn of its event loop.
      // A refused request (429) records no hit, so every request that passed should have one.
      const passed = result.total - (result.statusCodes['429'] ?? 0);
      limiter = `Redis, ${KEYS} keys, ${(hits / result.total).toFixed(2)} hits recorded and ${(scripts / result.total).toFixed(2)} scripts per request`;
      if (hits < passed) limiter += ` (${passed - hits} passed requests without a hit: failing open?)`;
    }
    return { target, result, limiter, body, path: `/v1/projects/${projectId}` };
  } catch (err) {
    throw new Error(`${target.id}: ${(err as Error).message}\n--- server output:\n${server.tail()}`, { cause: err });
  } finally {
    await server.stop();
    const warnings = server.warnings().filter((l) => !l.includes('callback signing secret'));
    if (warnings.length) console.warn(`  ${target.id} logged:\n    ${warnings.slice(0, 5).join('\n    ')}`);
  }
}

export async function runBare(body: string, urlPath: string, opts: SuiteOptions): Promise<Row> {
  const server = await startServer({
    name: 'bare',
    entry: 'bench/bare-server.ts',
    env: { BENCH_BODY: body, BENCH_ROUTE: '/v1/projects/:project_id' },
    profileFile: profileFile(opts, 'bare'),
  });
  try {
    const check = await http('GET', server.url + urlPath, { expect: 200 });
    if (check.text !== body) throw new Error('the bare route does not return the same JSON');
    // The same request bytes as the authenticated runs: an X-API-Key header per connection.
    const keys = Array.from({ length: KEYS }, () => `sk_${crypto.randomBytes(24).toString('hex')}`);
    const result = await load(server, server.url + urlPath, keys, opts);
    return { target: { id: 'bare', label: 'bare Fastify 5 route, same JSON (no auth, no store)' }, result, limiter: 'none' };
  } finally {
    await server.stop();
  }
}

function printProfile(id: string, file: string | null): void {
  if (!file) return;
  const { busyMs, byOwner, byFunction } = summarizeCpuProfile(file);
  const list = (xs: [string, number][]) => xs.map(([k, v]) => `    ${fmt.pct(v).padStart(6)}  ${k}`).join('\n');
  console.log(`\n  CPU profile of ${id} over the measured window (${path.relative(ROOT, file)}), ${fmt.int(busyMs)} ms busy.`);
  console.log(`  By owner (native and Node-internal time counted for the package or src/ file that called it):\n${list(byOwner)}`);
  console.log(`  Top functions, self time:\n${list(byFunction)}`);
}

const cpuCell = (r: Row, k: string) => (k in r.result.cpuPerReq ? fmt.us(r.result.cpuPerReq[k]) : '–');
const ofBare = (r: Row, bare: Row) =>
  r.target.id === 'bare' ? '100%' : r.target.connections ? `(${r.target.connections} conn.)` : fmt.pct(r.result.rps / bare.result.rps);

function report(rows: Row[], machine: Machine, warning: string | null): string {
  const bare = rows.find((r) => r.target.id === 'bare')!;
  const pgRow = rows.find((r) => r.target.id === 'postgres')!;
  const ratio = pgRow.result.rps / bare.result.rps;
  const main = rows.filter((r) => !r.target.diagnostic);
  const diag = rows.filter((r) => r.target.diagnostic);
  const lines = [
    `Measured ${machine.date} on ${describeMachine(machine).replace(/^[^,]+, /, '')}; Sightline at ${revision()}.` +
      (warning ? ` **Warning: ${warning}.**` : ''),
    '',
    `Authenticated \`GET /v1/projects/{id}\` (X-API-Key checked through the auth cache, rate limiter, project read through the per-process project cache (AUTH_CACHE_MS, 2 s; with AUTH_CACHE_MS=0 every request reads the key and the project from the store), ` +
      `zod-validated response) against a bare Fastify 5 route returning the same JSON body, each in its own process: ` +
      `${CONNECTIONS} connections, ${WARMUP_S} s warm-up (discarded), then ${MEASURE_S} s measured.`,
    '',
    table(
      ['server under test', 'req/s', 'p50', 'p99', 'non-2xx / errors', 'of bare req/s', 'CPU: server / autocannon / machine', 'rate limiter'],
      main.map((r) => [
        r.target.label, fmt.int(r.result.rps), fmt.ms(r.result.p50), fmt.ms(r.result.p99),
        `${r.result.non2xx} / ${r.result.errors + r.result.timeouts}`, ofBare(r, bare), fmt.cpu(r.result.cpu), r.limiter,
      ]),
    ),
    '',
    'CPU time per answered request, by process (where the time goes):',
    '',
    table(
      ['server under test', 'Node server', 'PostgreSQL backends', 'Redis', 'autocannon', 'sum'],
      rows.map((r) => [
        r.target.label, cpuCell(r, 'server'), cpuCell(r, 'postgres'), cpuCell(r, 'redis'), cpuCell(r, 'autocannon'),
        fmt.us(Object.values(r.result.cpuPerReq).reduce((a, b) => a + b, 0)),
      ]),
    ),
    '',
    `Goals (issue, on PostgreSQL): ≥ ${GOAL_RATIO * 100}% of the bare route's req/s: **${fmt.pct(ratio)} — ${ratio >= GOAL_RATIO ? 'met' : 'not met'}**; ` +
      `p99 < ${GOAL_P99_MS} ms at ${CONNECTIONS} connections: **${fmt.ms(pgRow.result.p99)} — ${pgRow.result.p99 < GOAL_P99_MS ? 'met' : 'not met'}**.`,
  ];
  if (diag.length) {
    lines.push('', 'Diagnostic variants (`--diagnose`; 50 connections unless stated):', '', table(
      ['variant', 'req/s', 'p50', 'p99', 'non-2xx / errors', 'of bare req/s', 'CPU: server / autocannon / machine'],
      diag.map((r) => [
        r.target.label, fmt.int(r.result.rps), fmt.ms(r.result.p50), fmt.ms(r.result.p99),
        `${r.result.non2xx} / ${r.result.errors + r.result.timeouts}`, ofBare(r, bare), fmt.cpu(r.result.cpu),
      ]),
    ));
  }
  return lines.join('\n');
}

const METHOD = `
How it is measured:
- Each server is a child process: \`node dist/main.js\` (the build, on the pinned Node), LOG_LEVEL=warn, ROLE=api (no job workers or
  scheduler: the new project's bootstrap waits in the queue instead of running beside the measurement); the bare one
  is \`bench/bare-server.ts\`. Embedded: a temporary DATA_DIR, in-process limiter. PostgreSQL: the database
  \`${BENCH_DB}\` dropped and created for the run, SECRET_KEY set, REDIS_URL for the shared limiter (server mode).
- Data goes in through the API: account create → api-key → project create → ${KEYS - 1} more keys (POST /v1/keys).
- Rate limiter: on, doing its whole work per request. RATE_LIMIT_WINDOW_MS=${WINDOW_MS} (the shortest allowed) and a key per
  connection (${KEYS} keys, the team on the standard tier: 70 requests per key and window) allow up to 35,000 req/s before
  a 429. Non-2xx must be 0 (reported above); with Redis, the hits it recorded (ZADD) and the scripts it ran per request
  are counted (one script checks every request that arrived in one turn of the server's event loop).
- autocannon 8 runs in a process of its own (bench/lib/load-generator.ts), one per measured run. Latency percentiles come from every answer's own timing
  (autocannon's histogram rounds to whole milliseconds).
- CPU (Linux /proc, over the measured window): server, autocannon and the whole machine in % of one core
  ({cores}00% = every core busy), and CPU time per answered request of each process involved (the server, the
  PostgreSQL backends of the bench database, Redis, autocannon); the latter is the figure least disturbed by other work.
- The machine has {cores} cores: load generator, server, PostgreSQL and Redis share them, so absolute figures are lower
  than with a separate load-generating host, and at 50 connections a closed loop's latency is about
  connections ÷ throughput (Little's law): p99 < 10 ms needs well over 5,000 req/s here.
- \`npm run bench -- http-auth --diagnose\` adds the variants; \`--profile\` prints CPU profiles of the measured windows
  (files in .bench-data/profiles) and leaves this file alone.
`;

export const httpAuth: Suite = {
  name: 'http-auth',
  description: 'authenticated GET /v1/projects/{id} on PGlite and PostgreSQL vs a bare Fastify route',
  async run(opts) {
    const warning = await waitForQuiet(1, Number(process.env.BENCH_QUIET_WAIT_SECONDS ?? 60) * 1000);
    const machine = machineInfo();
    console.log(`http-auth: ${describeMachine(machine)}`);
    if (warning) console.warn(`  WARNING: ${warning}`);
    const rows: Row[] = [];
    let bare: Row | null = null;
    for (const target of TARGETS.filter((t) => !t.diagnostic || opts.diagnose)) {
      console.log(`  ${target.id}: ${target.label} …`);
      const row = await runSightline(target, opts);
      rows.push(row);
      // Right after PostgreSQL, so the two figures of the ratio are taken close together.
      if (target.id === 'postgres') {
        console.log('  bare: Fastify route …');
        rows.push((bare = await runBare(row.body, row.path, opts)));
      }
    }
    if (!bare) throw new Error('the postgres target did not run');
    for (const r of rows) {
      if (r.result.non2xx || r.result.errors || r.result.timeouts) {
        console.warn(`  WARNING ${r.target.id}: ${r.result.non2xx} non-2xx ${JSON.stringify(r.result.statusCodes)}, ${r.result.errors} errors, ${r.result.timeouts} timeouts`);
      }
    }
    const text = report(rows, machine, warning);
    console.log(`\n${text}\n`);
    if (opts.profile || APP_DIR !== ROOT) {
      console.log(`(${opts.profile ? '--profile: figures taken under the profiler' : `BENCH_APP_DIR=${APP_DIR}`}; bench/README.md not updated)`);
      return;
    }
    updateReadmeSection('http-auth', `${text}\n${METHOD.replaceAll('{cores}', String(machine.cores))}`);
    console.log('bench/README.md updated (section http-auth)');
  },
};
