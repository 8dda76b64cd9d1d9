import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { seedProject, type SeedResult } from '../src/collection/seed.js';
import { loadConfig } from '../src/config.js';
import { dailyTickJob } from '../src/jobs/catalog.js';
import { PLANS } from '../src/lib/plans.js';
import { normalizeWebsite } from '../src/lib/url.js';
import { textKey } from '../src/modules/common.js';
import { classifyIntent } from '../src/modules/prompts/intent.js';
import { DEFAULT_HTTP_SETTINGS } from '../src/ports/providers/call.js';
import { PROVIDERS, type ProviderName } from '../src/ports/providers/types.js';
import { createRuntime, type Runtime } from '../src/runtime.js';
import { startFakeProvider, type FakeProvider } from '../test/fakes/index.js';
import {
  ADMIN_URL,
  APP_DIR,
  backendPids,
  REDIS_URL,
  ROOT,
  describeMachine,
  fmt,
  http,
  machineInfo,
  machineTicks,
  processCpuMs,
  redisPid,
  revision,
  runLoad,
  serviceEntry,
  sleep,
  startServer,
  table,
  updateReadmeSection,
  waitForQuiet,
  type LoadResult,
  type Machine,
  type ServerProcess,
  type Suite,
  type SuiteOptions,
  withAdmin,
  envNumber,
} from './lib/index.js';

// The issue's load figures, in server mode (PostgreSQL + Redis, `src/cluster.ts`):
// 1. Reads: a mix of read requests on a project holding a year of answers, at 1, 2 and 4
//    API processes, beside the bare Fastify route answering the same bodies.
// 2. Refresh: the daily refresh of 200 projects × 25 prompts × 5 providers by worker
//    processes against the local provider fakes (each answering after a fixed delay):
//    answers/min and the queue depth over time, against the ceiling the providers' own
//    concurrency allows.

const env = process.env;
const num = envNumber;
const list = (name: string, dflt: string) => (env[name] ?? dflt).split(',').map((s) => s.trim()).filter(Boolean);

// Reads
const PROMPTS = num('BENCH_LOAD_PROMPTS', 100);
const DAYS = num('BENCH_LOAD_DAYS', 365);
const REUSE = env.BENCH_LOAD_REUSE === '1';
const API_COUNTS = list('BENCH_LOAD_API_PROCESSES', '1,2,4').map(Number);
const CONNECTIONS = 50;
const KEYS = 50;
const WARMUP_S = Number(env.BENCH_WARMUP_SECONDS ?? 2);
const MEASURE_S = num('BENCH_SECONDS', 10);
// The limiter stays on and does its whole work per request (Redis, one script per hit).
// RATE_LIMIT_WINDOW_MS=100 (the shortest allowed) and a key per connection (the seeded team
// is on the premium tier: 350 requests per key and window) allow 175,000 req/s before a 429.
const WINDOW_MS = 100;
const GOAL_RATIO = 0.3;

// Refresh
const PROJECTS = num('BENCH_LOAD_PROJECTS', 200);
const PROMPTS_PER_PROJECT = num('BENCH_LOAD_PROMPTS_PER_PROJECT', 25);
const WORKER_COUNTS = list('BENCH_LOAD_WORKERS', '2,1').map(Number);
/** The first worker count runs the whole refresh, bounded by this; the others only long enough for a steady rate. */
const REFRESH_MAX_S = num('BENCH_LOAD_REFRESH_MAX_SECONDS', 600);
const REFRESH_OTHER_MAX_S = num('BENCH_LOAD_REFRESH_OTHER_SECONDS', 180);
const SAMPLE_MS = 2000;
const GOAL_OF_CEILING = 0.9;
/** Per-call latency of each fake (a provider's time to answer); within the 200–800 ms of short answers. */
const PROVIDER_DELAY_MS: Record<ProviderName, number> = {
  chatgpt: 500,
  perplexity: 400,
  google_ai_overview: 200,
  gemini: 300,
  claude: 600,
  google_ai_mode: 400,
  grok: 500,
  copilot: 400,
  chatgpt_ui: 600,
};
/** Calls in flight at once per provider in each process (src/ports/providers/call.ts, p-limit). */
const ADAPTER_CONCURRENCY = DEFAULT_HTTP_SETTINGS.concurrency;

const PARTS = list('BENCH_LOAD_PARTS', 'reads,refresh');
const READS_DB = 'sightline_bench_load';
const REFRESH_DB = 'sightline_bench_load_refresh';

/** What a refresh run collects: projects × prompts per project (× every provider), on database `db`. */
export interface RefreshSize {
  projects: number;
  promptsPerProject: number;
  db: string;
}
const LOAD_REFRESH: RefreshSize = { projects: PROJECTS, promptsPerProject: PROMPTS_PER_PROJECT, db: REFRESH_DB };
const SECRET_KEY = 'bench-secret-key-0123456789abcdef';
const REDIS_KEY_PREFIX = 'sightline:bench-load:rl:';
const STATE_FILE = path.join(ROOT, '.bench-data', 'load-reads.json');

// ---------------------------------------------------------------------------------------
// PostgreSQL helpers

function dbUrl(db: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${db}`;
  return url.toString();
}

const recreateDb = (db: string) =>
  withAdmin(async (c) => {
    await c.query(`drop database if exists ${db} with (force)`);
    await c.query(`create database ${db}`);
  });
const dropDb = (db: string) => withAdmin((c) => c.query(`drop database if exists ${db} with (force)`));
const dbExists = (db: string) => withAdmin(async (c) => (await c.query(`select 1 from pg_database where datname = $1`, [db])).rowCount === 1);

/** An in-process runtime on `db` (role api: no workers), to seed and to enqueue. */
async function openRuntime(db: string): Promise<Runtime> {
  const url = dbUrl(db);
  const config = loadConfig({ DATABASE_URL: url, SECRET_KEY, PROVIDERS_MODE: 'simulated', LOG_LEVEL: 'error' }, { role: 'api' });
  return createRuntime(config, pino({ level: 'error' }));
}

/** Child processes of a process (cluster workers of the primary), from /proc. */
function childPids(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

const cpuMsOf = (pids: number[]) => pids.reduce((sum, pid) => sum + (processCpuMs(pid) ?? 0), 0);

/**
 * The CPU of a database's PostgreSQL backends over a run, read at every sample: each
 * backend's last reading less its first (nothing for one that started during the run), so
 * a backend that closes before the end (a pool's idle connection) still counts for what it
 * did while it was read. Summing the backends alive at the start and at the end alone
 * lost the work of those that closed, and took their start off the total.
 */
class BackendCpu {
  readonly #first = new Map<number, number>();
  readonly #last = new Map<number, number>();
  constructor(private readonly db: string) {}

  /** Reads every backend of the database; `start`: the readings the run starts from. */
  async read(start = false): Promise<void> {
    for (const pid of await backendPids(this.db)) {
      const ms = processCpuMs(pid);
      if (ms === null) continue;
      if (!this.#first.has(pid)) this.#first.set(pid, start ? ms : 0);
      this.#last.set(pid, ms);
    }
  }

  get ms(): number {
    let sum = 0;
    for (const [pid, last] of this.#last) sum += last - (this.#first.get(pid) ?? 0);
    return sum;
  }
}

/** SIGTERM through the cluster primary; any of its children still alive afterwards is killed by pid. */
async function stopCluster(server: ServerProcess): Promise<void> {
  const kids = childPids(server.pid);
  await server.stop();
  for (const pid of kids) {
    try {
      process.kill(pid, 0);
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** `dist/cluster.js` (npm run start:cluster) with the given counts, on one database. */
async function startCluster(
  name: string,
  db: string,
  counts: { api: number; workers: number },
  extraEnv: Record<string, string>,
  ready?: () => Promise<boolean>,
): Promise<ServerProcess> {
  const server = await startServer({
    name,
    entry: serviceEntry(APP_DIR, 'cluster'),
    cwd: APP_DIR,
    env: {
      DATABASE_URL: dbUrl(db),
      SECRET_KEY,
      REDIS_URL,
      REDIS_KEY_PREFIX,
      API_PROCESSES: String(counts.api),
      WORKER_PROCESSES: String(counts.workers),
      // info: each API process says when it listens (no per-request logging at any level)
      LOG_LEVEL: 'info',
      ...extraEnv,
    },
    ready,
    timeoutMs: 120_000,
  });
  if (counts.api > 0) {
    // /healthz answers once the first process listens; wait for all of them.
    const deadline = Date.now() + 60_000;
    while (server.tail().split('\n').filter((l) => l.includes('Sightline listening')).length < counts.api) {
      if (Date.now() > deadline) {
        await stopCluster(server);
        throw new Error(`${name}: not every API process started:\n${server.tail()}`);
      }
      await sleep(100);
    }
  }
  return server;
}

// ---------------------------------------------------------------------------------------
// Part 1: reads

interface ReadsState {
  db: string;
  prompts: number;
  days: number;
  projectId: string;
  adminKey: string;
  keys: string[];
  answers: number;
  seedSeconds: number;
  seededAt: string;
}

interface ReadRow {
  label: string;
  processes: number | null;
  result: LoadResult;
}

interface ReadsOutcome {
  state: ReadsState;
  reused: boolean;
  rows: ReadRow[];
  mix: { name: string; path: string; bytes: number }[];
  /** --diagnose: each request of the mix alone, on the first process count. */
  perEndpoint: { name: string; processes: number; result: LoadResult }[];
}

const saveState = (s: ReadsState) => {
  fs.mkdirSync(path.dirname(STATE_FILE), { recursive: true });
  fs.writeFileSync(STATE_FILE, JSON.stringify(s, null, 2));
};

async function reusable(): Promise<ReadsState | null> {
  let s: ReadsState;
  try {
    s = JSON.parse(fs.readFileSync(STATE_FILE, 'utf8'));
  } catch {
    return null;
  }
  if (s.db !== READS_DB || s.prompts !== PROMPTS || s.days !== DAYS || !(await dbExists(READS_DB))) return null;
  const n = await withAdmin(
    async (c) => Number((await c.query(`select count(*) as n from responses where project_id = $1`, [s.projectId])).rows[0].n),
    dbUrl(READS_DB),
  ).catch(() => -1);
  return n === s.answers ? s : null;
}

async function prepareReads(): Promise<{ state: ReadsState; reused: boolean }> {
  if (REUSE) {
    const s = await reusable();
    if (s) {
      console.log(`  reads: REUSED database ${READS_DB} (BENCH_LOAD_REUSE=1), seeded ${s.seededAt}: ${fmt.int(s.answers)} answers`);
      return { state: s, reused: true };
    }
    console.log(`  reads: BENCH_LOAD_REUSE=1 but no database matching ${PROMPTS} prompts × ${DAYS} days; seeding a fresh one`);
  }
  await recreateDb(READS_DB);
  const runtime = await openRuntime(READS_DB);
  let seeded: SeedResult;
  try {
    console.log(`  reads: seeding ${PROMPTS} prompts × ${PROVIDERS.length} providers × ${DAYS} days (${fmt.int(PROMPTS * PROVIDERS.length * DAYS)} answers) …`);
    seeded = await seedProject(runtime.ctx, {
      prompts: PROMPTS,
      providers: [...PROVIDERS],
      days: DAYS,
      competitors: 10,
      log: (l) => console.log(`   ${l}`),
    });
  } finally {
    await runtime.stop();
  }
  await withAdmin((c) => c.query('vacuum analyze'), dbUrl(READS_DB)); // autovacuum's job, done now
  const state: ReadsState = {
    db: READS_DB,
    prompts: PROMPTS,
    days: DAYS,
    projectId: seeded.projectId,
    adminKey: seeded.apiKey,
    keys: [],
    answers: seeded.answers,
    seedSeconds: seeded.seconds,
    seededAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
  console.log(`   seeded in ${state.seedSeconds.toFixed(0)} s (${fmt.int(seeded.answersPerSecond)} answers/s)`);
  saveState(state);
  return { state, reused: false };
}

/** The mix every connection cycles through (default windows: 7 days; 30 for two of them). */
function readMix(projectId: string) {
  return [
    { name: 'GET /v1/projects', path: '/v1/projects' },
    { name: 'prompts (7 days)', path: `/v1/projects/${projectId}/prompts` },
    { name: 'overview (7 days)', path: `/v1/projects/${projectId}/overview` },
    { name: 'visibility (30 days)', path: `/v1/projects/${projectId}/visibility?duration_days=30` },
    { name: 'sources/analytics (30 days)', path: `/v1/projects/${projectId}/sources/analytics?duration_days=30` },
  ];
}

async function ensureKeys(url: string, state: ReadsState): Promise<void> {
  if (state.keys.length >= KEYS) return;
  const keys: string[] = [];
  while (keys.length < KEYS) {
    const created = await http('POST', `${url}/v1/keys`, {
      headers: { 'x-api-key': state.adminKey },
      body: { scope: 'viewer', name: `bench-load-${keys.length}` },
      expect: 201,
    });
    keys.push(created.body.data.api_key);
  }
  state.keys = keys;
  saveState(state);
}

async function runReads(opts: SuiteOptions): Promise<ReadsOutcome> {
  const { state, reused } = await prepareReads();
  const mix = readMix(state.projectId);
  const rows: ReadRow[] = [];
  const perEndpoint: ReadsOutcome['perEndpoint'] = [];
  const bodies = new Map<string, string>();
  const perConnection = () => state.keys.slice(0, KEYS).map((k) => ({ 'x-api-key': k }));

  // The read cache (src/http/read-cache.ts) is on by default; the last run turns it off, so
  // every request computes its figures.
  const variants = [...API_COUNTS.map((n) => ({ n, cacheOff: false })), { n: API_COUNTS[0], cacheOff: true }];
  for (const { n, cacheOff } of variants) {
    console.log(`  reads: ${n} API process(es)${cacheOff ? ', read cache off' : ''} …`);
    const server = await startCluster(`cluster-${n}-api`, READS_DB, { api: n, workers: 0 }, {
      PROVIDERS_MODE: 'simulated',
      RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
      ...(cacheOff ? { READ_CACHE_MB: '0' } : {}),
    });
    try {
      await ensureKeys(server.url, state);
      for (const m of mix) {
        const res = await http('GET', server.url + m.path, { headers: { 'x-api-key': state.keys[0] }, expect: 200 });
        if (!bodies.has(m.path)) bodies.set(m.path, res.text);
      }
      for (const key of state.keys) {
        const res = await http('GET', `${server.url}/v1/projects`, { headers: { 'x-api-key': key }, expect: 200 });
        if (res.headers.get('x-ratelimit-limit') !== '350') throw new Error(`x-ratelimit-limit ${res.headers.get('x-ratelimit-limit')}, expected 350 (premium)`);
      }
      const apiPids = childPids(server.pid);
      const result = await runLoad({
        url: server.url,
        connections: CONNECTIONS,
        warmupSeconds: WARMUP_S,
        seconds: MEASURE_S,
        requests: mix.map((m) => ({ path: m.path })),
        perConnection: perConnection(),
        cpuOf: async () => ({ api: apiPids, primary: [server.pid], postgres: await backendPids(READS_DB), redis: await redisPid() }),
      });
      rows.push({ label: `Sightline, ${n} API process${n > 1 ? 'es' : ''} (cluster)${cacheOff ? ', read cache off' : ''}`, processes: n, result });
      console.log(`   ${fmt.int(result.rps)} req/s, p50 ${fmt.ms(result.p50)}, p99 ${fmt.ms(result.p99)}, non-2xx ${result.non2xx}`);
      if (opts.diagnose && n === API_COUNTS[0] && !cacheOff) {
        for (const m of mix) {
          const alone = await runLoad({
            url: server.url,
            connections: CONNECTIONS,
            warmupSeconds: WARMUP_S,
            seconds: MEASURE_S,
            requests: [{ path: m.path }],
            perConnection: perConnection(),
            cpuOf: async () => ({ api: apiPids, postgres: await backendPids(READS_DB), redis: await redisPid() }),
          });
          perEndpoint.push({ name: m.name, processes: n, result: alone });
          console.log(`   only ${m.name}: ${fmt.int(alone.rps)} req/s, p50 ${fmt.ms(alone.p50)}, p99 ${fmt.ms(alone.p99)}`);
        }
      }
    } catch (err) {
      throw new Error(`cluster-${n}-api: ${(err as Error).message}\n--- server output:\n${server.tail()}`, { cause: err });
    } finally {
      await stopCluster(server);
      const warnings = server.warnings().filter((l) => !l.startsWith('Sightline cluster:') && !l.includes('callback signing secret'));
      if (warnings.length) console.warn(`  cluster-${n}-api logged:\n    ${warnings.slice(0, 5).join('\n    ')}`);
    }
    // Right after the single process, so the ratio's two figures are taken close together.
    if (n === API_COUNTS[0] && !cacheOff) rows.push(await runBareReads(mix, bodies, perConnection()));
  }
  if (!REUSE) {
    await dropDb(READS_DB);
    fs.rmSync(STATE_FILE, { force: true });
  }
  return { state, reused, rows, perEndpoint, mix: mix.map((m) => ({ ...m, bytes: Buffer.byteLength(bodies.get(m.path) ?? '') })) };
}

async function runBareReads(mix: { path: string }[], bodies: Map<string, string>, perConnection: Record<string, string>[]): Promise<ReadRow> {
  console.log('  reads: bare Fastify routes …');
  const file = path.join(ROOT, '.bench-data', 'load-bare-routes.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const routes: Record<string, unknown> = {};
  for (const m of mix) routes[new URL(m.path, 'http://x').pathname] = JSON.parse(bodies.get(m.path)!);
  fs.writeFileSync(file, JSON.stringify(routes));
  const server = await startServer({ name: 'bare', entry: 'bench/bare-server.ts', env: { BENCH_ROUTES_FILE: file } });
  try {
    for (const m of mix) {
      const res = await http('GET', server.url + m.path, { expect: 200 });
      if (JSON.stringify(JSON.parse(res.text)) !== JSON.stringify(JSON.parse(bodies.get(m.path)!))) {
        throw new Error(`the bare route ${m.path} does not return the same JSON`);
      }
    }
    // The same requests, X-API-Key headers included (ignored).
    const result = await runLoad({
      url: server.url,
      connections: CONNECTIONS,
      warmupSeconds: WARMUP_S,
      seconds: MEASURE_S,
      requests: mix.map((m) => ({ path: m.path })),
      perConnection,
      serverPid: server.pid,
    });
    console.log(`   ${fmt.int(result.rps)} req/s, p50 ${fmt.ms(result.p50)}, p99 ${fmt.ms(result.p99)}`);
    return { label: 'bare Fastify 5 routes, same JSON bodies (no auth, no store, 1 process)', processes: null, result };
  } finally {
    await server.stop();
    fs.rmSync(file, { force: true });
  }
}

// ---------------------------------------------------------------------------------------
// Part 2: the daily refresh

interface Sample {
  t: number;
  /** project-refresh jobs waiting (created or retry), running, done, failed. */
  waiting: number;
  active: number;
  done: number;
  failed: number;
  answers: number;
}

interface ProviderFigure {
  provider: ProviderName;
  delayMs: number;
  answers: number;
  apiRequests: number;
  maxInFlight: number;
  /** answers/min this provider allows (ADAPTER_CONCURRENCY × workers calls in flight). */
  ceiling: number;
  /** Share of the time its call slots were busy: requests × delay ÷ (slots × elapsed). */
  busy: number;
}

export interface RefreshRun {
  workers: number;
  capS: number;
  capped: boolean;
  expected: number;
  answers: number;
  /** From the tick to the last answer stored (or to the cap). */
  seconds: number;
  perMinute: number;
  ceiling: number;
  jobs: { queued: number; done: number; failed: number };
  tally: { stored: number; failed: number; skippedNoCredits: number };
  providers: ProviderFigure[];
  samples: Sample[];
  cpu: { workers: number; postgres: number; bench: number; machinePct: number };
  warnings: string[];
}

const COMPETITORS = ['hubspot.com', 'salesforce.com', 'pipedrive.com', 'zoho.com', 'freshworks.com', 'monday.com', 'close.com', 'copper.com', 'insightly.com', 'keap.com'];
const COMPETITOR_NAMES = ['HubSpot', 'Salesforce', 'Pipedrive', 'Zoho CRM', 'Freshsales', 'Monday Sales CRM', 'Close', 'Copper', 'Insightly', 'Keap'];
const TOPICS = ['CRM software', 'Sales pipeline', 'Small business tools', 'Integrations', 'Pricing and plans'];
const ASKS = ['What is the best CRM for', 'Which CRM should I choose for', 'Top CRM tools for', 'Most affordable CRM for', 'CRM with the best email integration for'];
const SUBJECTS = ['a startup', 'a small business', 'a B2B sales team', 'real estate agents', 'a marketing agency', 'freelancers', 'an enterprise', 'nonprofits', 'e-commerce brands', 'SaaS companies'];

/** Projects per team: as many as one month's enterprise credits pay a refresh for (at most 10). */
function projectsPerTeam(size: RefreshSize): number {
  return Math.max(1, Math.min(10, Math.floor(PLANS.enterprise.credits / (size.promptsPerProject * PROVIDERS.length))));
}

/** Teams on the enterprise plan, completed projects with 5 topics, 10 competitors and the active prompts, in SQL. */
async function insertProjects(runtime: Runtime, size: RefreshSize): Promise<void> {
  const perTeam = projectsPerTeam(size);
  const prompts = Array.from({ length: size.promptsPerProject }, (_, i) => {
    const round = Math.floor(i / (ASKS.length * SUBJECTS.length));
    return `${ASKS[i % ASKS.length]} ${SUBJECTS[Math.floor(i / ASKS.length) % SUBJECTS.length]}${round ? ` (${round + 1})` : ''}?`;
  });
  const sites = COMPETITORS.map((d) => normalizeWebsite(d)!);
  await runtime.ctx.store.tx(async (tx) => {
    for (let first = 0; first < size.projects; first += perTeam) {
      const team = await tx.query<{ id: string }>(`insert into teams (plan, rate_limit_tier) values ('enterprise', 'premium') returning id`);
      const teamId = team.rows[0].id;
      const numbers = Array.from({ length: Math.min(perTeam, size.projects - first) }, (_, j) => first + j + 1);
      const projects = await tx.query<{ id: string }>(
        `insert into projects (team_id, name, brand_name, website_url, domain, status, location, language, providers)
         select $1, n, n, 'https://' || d || '/', d, 'completed', 'US', 'en', $4::jsonb from unnest($2::text[], $3::text[]) as x(n, d)
         returning id`,
        // Every engine, the extension ones included (a project names them to track them).
        [teamId, numbers.map((i) => `Brand ${i}`), numbers.map((i) => `brand${i}.example.com`), JSON.stringify(PROVIDERS)],
      );
      const ids = projects.rows.map((r) => r.id);
      await tx.query(
        `insert into topics (project_id, name, name_key) select p, t, k from unnest($1::uuid[]) as p cross join unnest($2::text[], $3::text[]) as x(t, k)`,
        [ids, TOPICS, TOPICS.map(textKey)],
      );
      await tx.query(
        `insert into competitors (project_id, name, website, domain)
         select p, n, w, d from unnest($1::uuid[]) as p cross join unnest($2::text[], $3::text[], $4::text[]) as x(n, w, d)`,
        [ids, COMPETITOR_NAMES, sites.map((s) => s.website), sites.map((s) => s.domain)],
      );
      await tx.query(
        `insert into prompts (project_id, team_id, topic_id, content, content_key, prompt_type, intent)
         select p.id, $2, (select id from topics where project_id = p.id and name = x.topic), x.c, x.k, 'active', x.it
           from unnest($1::uuid[]) as p(id)
          cross join unnest($3::text[], $4::text[], $5::text[], $6::text[]) as x(c, k, it, topic)`,
        [ids, teamId, prompts, prompts.map(textKey), prompts.map(classifyIntent), prompts.map((_, i) => TOPICS[i % TOPICS.length])],
      );
    }
  });
}

async function sampleQueue(c: pg.Client, t0: number): Promise<Sample & { tickDone: boolean }> {
  const { rows } = await c.query<{ name: string; state: string; n: number }>(
    // pg-boss 12 keeps finished jobs in its job table (no archive) until deleteAfterSeconds.
    `select name, state, count(*)::int as n from pgboss.job where name = any($1) group by 1, 2`,
    [['project-refresh', 'daily-refresh-tick']],
  );
  const of = (name: string, ...states: string[]) => rows.filter((r) => r.name === name && states.includes(r.state)).reduce((a, r) => a + r.n, 0);
  const answers = Number((await c.query(`select count(*)::int as n from responses`)).rows[0].n);
  return {
    t: (Date.now() - t0) / 1000,
    waiting: of('project-refresh', 'created', 'retry'),
    active: of('project-refresh', 'active'),
    done: of('project-refresh', 'completed'),
    failed: of('project-refresh', 'failed', 'cancelled'),
    answers,
    tickDone: of('daily-refresh-tick', 'completed', 'failed') > 0,
  };
}

/**
 * The daily refresh of `size` by `workers` worker processes against the provider fakes,
 * from the scheduler's tick to the last answer stored (bounded at capS), on a fresh database.
 */
export async function runRefresh(workers: number, capS: number, size: RefreshSize = LOAD_REFRESH): Promise<RefreshRun> {
  const REFRESH_DB = size.db;
  const expected = size.projects * size.promptsPerProject * PROVIDERS.length;
  console.log(`  refresh: ${workers} worker process(es), ${fmt.int(size.projects)} projects × ${size.promptsPerProject} prompts × ${PROVIDERS.length} providers = ${fmt.int(expected)} answers (bounded at ${capS} s) …`);
  await recreateDb(REFRESH_DB);
  const runtime = await openRuntime(REFRESH_DB);
  const fakes: FakeProvider[] = [];
  let server: ServerProcess | null = null;
  const db = new pg.Client({ connectionString: dbUrl(REFRESH_DB) });
  try {
    await insertProjects(runtime, size);
    for (const p of PROVIDERS) fakes.push(await startFakeProvider(p, { delayMs: PROVIDER_DELAY_MS[p] }));
    const fakeEnv = Object.assign({}, ...fakes.map((f) => f.env)) as Record<string, string>;
    await db.connect();
    const workerCount = async () =>
      Number((await db.query(`select count(*)::int as n from pgboss.instance where name = 'worker' and stopped_on is null`)).rows[0].n) >= workers;
    server = await startCluster(`cluster-${workers}-workers`, REFRESH_DB, { api: 0, workers }, { ...fakeEnv, PROVIDERS_MODE: 'live', LOG_LEVEL: 'warn' }, workerCount);
    const workerPids = childPids(server.pid);
    const postgresCpu = new BackendCpu(REFRESH_DB);
    await postgresCpu.read(true);

    const cpu0 = { workers: cpuMsOf(workerPids), bench: process.cpuUsage(), machine: machineTicks() };
    const t0 = Date.now();
    // The scheduler's own path: the hourly tick, run by a worker, enqueues one refresh per project.
    await runtime.ctx.jobs.send(dailyTickJob, {});
    const samples: Sample[] = [];
    let capped = false;
    for (let k = 1; ; k++) {
      await sleep(Math.max(0, t0 + k * SAMPLE_MS - Date.now()));
      const s = await sampleQueue(db, t0);
      samples.push(s);
      await postgresCpu.read();
      if (k % 10 === 0) {
        console.log(`   ${s.t.toFixed(0).padStart(4)} s: jobs waiting ${s.waiting}, running ${s.active}, done ${s.done}; ${fmt.int(s.answers)} answers`);
      }
      if (s.tickDone && s.waiting === 0 && s.active === 0 && s.done + s.failed > 0) break;
      if (s.t >= capS) {
        capped = true;
        break;
      }
    }
    await postgresCpu.read();
    const bench = process.cpuUsage(cpu0.bench);
    const machine1 = machineTicks();
    const cpuEnd = { workers: cpuMsOf(workerPids), postgres: postgresCpu.ms };
    const tEnd = Date.now();

    const byProvider = await db.query<{ provider: string; n: number; last: string }>(
      `select provider, count(*)::int as n, (extract(epoch from max(collected_at)) * 1000)::float8 as last from responses group by provider`,
    );
    const answers = byProvider.rows.reduce((a, r) => a + r.n, 0);
    const lastAnswer = Math.max(...byProvider.rows.map((r) => Number(r.last)), t0);
    const seconds = capped ? (tEnd - t0) / 1000 : Math.max(0.001, (lastAnswer - t0) / 1000);
    const tally = await db.query<{ stored: number; failed: number; skipped: number }>(
      `select coalesce(sum(stored), 0)::int as stored, coalesce(sum(failed), 0)::int as failed, coalesce(sum(skipped_no_credits), 0)::int as skipped from collection_runs`,
    );
    const last = samples[samples.length - 1];
    const slots = ADAPTER_CONCURRENCY * workers;
    const providers: ProviderFigure[] = fakes.map((f) => {
      const delay = PROVIDER_DELAY_MS[f.kind];
      const apiRequests = f.apiRequests().length;
      return {
        provider: f.kind,
        delayMs: delay,
        answers: byProvider.rows.find((r) => r.provider === f.kind)?.n ?? 0,
        apiRequests,
        maxInFlight: f.maxInFlight(),
        ceiling: (slots * 60_000) / delay,
        busy: (apiRequests * delay) / (slots * seconds * 1000),
      };
    });
    const cores = os.cpus().length;
    const machinePct =
      cpu0.machine && machine1 ? ((machine1.busy - cpu0.machine.busy) / (machine1.total - cpu0.machine.total)) * cores * 100 : NaN;
    const warnings = server.warnings().filter((l) => !l.startsWith('Sightline cluster:'));
    return {
      workers,
      capS,
      capped,
      expected,
      answers,
      seconds,
      perMinute: (answers / seconds) * 60,
      ceiling: refreshCeiling(workers, size),
      jobs: { queued: last.waiting + last.active + last.done + last.failed, done: last.done, failed: last.failed },
      tally: { stored: tally.rows[0].stored, failed: tally.rows[0].failed, skippedNoCredits: tally.rows[0].skipped },
      providers,
      samples,
      cpu: {
        workers: cpuEnd.workers - cpu0.workers,
        postgres: cpuEnd.postgres,
        bench: (bench.user + bench.system) / 1000,
        machinePct,
      },
      warnings,
    };
  } catch (err) {
    throw new Error(`refresh with ${workers} worker(s): ${(err as Error).message}${server ? `\n--- cluster output:\n${server.tail()}` : ''}`, { cause: err });
  } finally {
    if (server) await stopCluster(server);
    await db.end().catch(() => {});
    await Promise.all(fakes.map((f) => f.close()));
    await runtime.stop();
    await dropDb(REFRESH_DB);
  }
}

/**
 * What the providers allow, in answers/min: each provider takes ADAPTER_CONCURRENCY calls
 * at once per worker process, each lasting its delay. A project's run asks every provider
 * equally often, so the run goes at the pace of the provider with the most call-time to
 * serve: total answers ÷ max over providers (answers × delay ÷ slots).
 */
function refreshCeiling(workers: number, size: RefreshSize): number {
  const slots = ADAPTER_CONCURRENCY * workers;
  const perProvider = size.projects * size.promptsPerProject;
  const slowestMs = Math.max(...PROVIDERS.map((p) => (perProvider * PROVIDER_DELAY_MS[p]) / slots));
  return (perProvider * PROVIDERS.length) / (slowestMs / 60_000);
}

// ---------------------------------------------------------------------------------------
// Report

const SPARK = '▁▂▃▄▅▆▇█';
function sparkline(values: number[], width = 60): string {
  if (!values.length) return '';
  const step = Math.max(1, Math.ceil(values.length / width));
  const picked = values.filter((_, i) => i % step === 0);
  const max = Math.max(...picked, 1);
  return picked.map((v) => (v === 0 ? ' ' : SPARK[Math.min(SPARK.length - 1, Math.floor((v / max) * (SPARK.length - 1)))])).join('');
}

function depthTable(samples: Sample[]): string {
  const step = Math.max(1, Math.ceil(samples.length / 15));
  const picked = samples.filter((_, i) => i % step === step - 1 || i === samples.length - 1);
  let prev: Sample = { t: 0, waiting: 0, active: 0, done: 0, failed: 0, answers: 0 };
  const rows = picked.map((s) => {
    const rate = s.t > prev.t ? ((s.answers - prev.answers) / (s.t - prev.t)) * 60 : 0;
    prev = s;
    return [`${s.t.toFixed(0)} s`, s.waiting, s.active, s.done, s.failed, fmt.int(s.answers), fmt.int(rate)];
  });
  return table(['time since the tick', 'jobs waiting', 'running', 'done', 'failed', 'answers stored', 'answers/min (since previous row)'], rows);
}

const sizesNote = () => {
  const reduced =
    PROMPTS < 100 || DAYS < 365 || PROJECTS < 200 || PROMPTS_PER_PROJECT < 25 || MEASURE_S < 10;
  return reduced
    ? `**Reduced-size run** (BENCH_LOAD_PROMPTS=${PROMPTS}, BENCH_LOAD_DAYS=${DAYS}, BENCH_LOAD_PROJECTS=${PROJECTS}, BENCH_LOAD_PROMPTS_PER_PROJECT=${PROMPTS_PER_PROJECT}, BENCH_SECONDS=${MEASURE_S}): not the issue's figures.`
    : '';
};

function readsReport(r: ReadsOutcome, cores: number): string[] {
  const bare = r.rows.find((x) => x.processes === null)!;
  const one = r.rows.find((x) => x.processes === 1 && !x.label.includes('cache off'));
  const off = r.rows.find((x) => x.processes === 1 && x.label.includes('cache off'));
  const us = (x: ReadRow, k: string) => (k in x.result.cpuPerReq ? fmt.us(x.result.cpuPerReq[k]) : '–');
  const serverPct = (x: ReadRow) =>
    x.processes === null ? x.result.cpu?.server ?? NaN : ((x.result.cpuPerReq.api ?? NaN) * x.result.rps) / 1e4;
  const ratio = one ? one.result.rps / bare.result.rps : NaN;
  return [
    `**Reads.** One project holding ${fmt.int(r.state.answers)} answers (${r.state.prompts} prompts × ${PROVIDERS.length} providers × ${r.state.days} days, 10 competitors; seeded ${r.state.seededAt}${r.reused ? ', database reused with BENCH_LOAD_REUSE=1' : ` in ${r.state.seedSeconds.toFixed(0)} s`}). ` +
      `Every connection cycles through ${r.mix.length} requests: ${r.mix.map((m) => `${m.name} (${fmt.int(m.bytes)} B)`).join(', ')}. ` +
      `${CONNECTIONS} connections, one viewer key each (${KEYS} keys made with POST /v1/keys), ${WARMUP_S} s warm-up (discarded), then ${MEASURE_S} s measured. ` +
      `Sightline: \`src/cluster.ts\` with API_PROCESSES=N, WORKER_PROCESSES=0, PostgreSQL + Redis limiter; the bare routes: \`bench/bare-server.ts\`, one process answering each path with the JSON Sightline gave it.`,
    '',
    table(
      ['server under test', 'req/s', 'p50', 'p99', 'non-2xx / errors', 'of bare req/s', 'CPU: server / machine'],
      r.rows.map((x) => [
        x.label,
        fmt.int(x.result.rps),
        fmt.ms(x.result.p50),
        fmt.ms(x.result.p99),
        `${x.result.non2xx} / ${x.result.errors + x.result.timeouts}`,
        x.processes === null ? '100%' : fmt.pct(x.result.rps / bare.result.rps),
        `${Math.round(serverPct(x))}% / ${x.result.cpu ? Math.round(x.result.cpu.machine) : '–'}%`,
      ]),
    ),
    '',
    `CPU time per answered request, by process (${cores} cores: the load generator, the API processes, PostgreSQL and Redis share them):`,
    '',
    table(
      ['server under test', 'API processes', 'cluster primary', 'PostgreSQL backends', 'Redis', 'autocannon', 'sum'],
      r.rows.map((x) => [
        x.label,
        x.processes === null ? us(x, 'server') : us(x, 'api'),
        us(x, 'primary'),
        us(x, 'postgres'),
        us(x, 'redis'),
        us(x, 'autocannon'),
        fmt.us(Object.values(x.result.cpuPerReq).reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0)),
      ]),
    ),
    '',
    `Goal (issue): 1 API process ≥ ${GOAL_RATIO * 100}% of the bare route's req/s on reads: **${fmt.pct(ratio)} — ${ratio >= GOAL_RATIO ? 'met' : 'not met'}** (the default configuration, read cache on: the same figures asked again, as a dashboard does, until the project's data changes)` +
      (off ? `; with the read cache off (every request computes its figures) ${fmt.pct(off.result.rps / bare.result.rps)}.` : '.'),
    ...(r.perEndpoint.length
      ? [
          '',
          `Diagnostic (\`--diagnose\`): each request of the mix alone, ${r.perEndpoint[0].processes} API process, ${CONNECTIONS} connections:`,
          '',
          table(
            ['request', 'req/s', 'p50', 'p99', 'non-2xx', 'CPU per request: API / PostgreSQL / Redis'],
            r.perEndpoint.map((e) => [
              e.name,
              fmt.int(e.result.rps),
              fmt.ms(e.result.p50),
              fmt.ms(e.result.p99),
              e.result.non2xx,
              `${fmt.us(e.result.cpuPerReq.api)} / ${fmt.us(e.result.cpuPerReq.postgres)} / ${fmt.us(e.result.cpuPerReq.redis)}`,
            ]),
          ),
        ]
      : []),
  ];
}

/** The refresh runs' paragraphs and tables (the first run is the main one). */
export function refreshReport(runs: RefreshRun[], size: RefreshSize = LOAD_REFRESH): string[] {
  const PROJECTS = size.projects;
  const PROMPTS_PER_PROJECT = size.promptsPerProject;
  const main = runs[0];
  const lines = [
    `**Daily refresh.** ${fmt.int(PROJECTS)} completed projects (${Math.ceil(PROJECTS / projectsPerTeam(size))} enterprise team${Math.ceil(PROJECTS / projectsPerTeam(size)) > 1 ? 's' : ''} of up to ${projectsPerTeam(size)}: ${fmt.int(PLANS.enterprise.credits)} credits a month each, ${fmt.int(projectsPerTeam(size) * PROMPTS_PER_PROJECT * PROVIDERS.length)} needed) × ${PROMPTS_PER_PROJECT} active prompts × ${PROVIDERS.length} providers = ${fmt.int(main.expected)} answers, inserted in SQL on a fresh database. ` +
      `The \`daily-refresh-tick\` job is sent at t = 0; a worker runs it (one \`project-refresh\` job per project), and worker processes (\`src/cluster.ts\`, API_PROCESSES=0, PROVIDERS_MODE=live) ask the local provider fakes (test/fakes, each provider's real wire format) and store every answer analysed, with its rollups and credits. ` +
      `Each fake answers after a fixed delay: ${PROVIDERS.map((p) => `${p} ${PROVIDER_DELAY_MS[p]} ms`).join(', ')}. ` +
      `The providers' own limit: each adapter keeps at most ${ADAPTER_CONCURRENCY} calls in flight per process, so a provider allows ${ADAPTER_CONCURRENCY} × workers ÷ delay calls/s, and since each project's run asks every provider equally often, the refresh cannot go faster than the provider with the most call-time to serve allows (the ceiling below; it assumes every worker process has a project to work on, as with hundreds of projects).`,
    '',
    table(
      ['worker processes', 'answers stored', 'time', 'answers/min', 'providers\' ceiling', 'of ceiling', 'jobs done / failed', 'failed answers', 'CPU per answer: workers / PostgreSQL / fakes', 'machine CPU'],
      runs.map((r) => [
        r.workers,
        `${fmt.int(r.answers)} of ${fmt.int(r.expected)}`,
        `${r.seconds.toFixed(0)} s${r.capped ? ` (stopped at the ${r.capS} s bound)` : ''}`,
        fmt.int(r.perMinute),
        fmt.int(r.ceiling),
        fmt.pct(r.perMinute / r.ceiling),
        `${r.jobs.done} / ${r.jobs.failed} of ${r.jobs.queued}`,
        r.tally.failed + (r.tally.skippedNoCredits ? ` (+${r.tally.skippedNoCredits} without credits)` : ''),
        `${(r.cpu.workers / Math.max(1, r.answers)).toFixed(1)} / ${(r.cpu.postgres / Math.max(1, r.answers)).toFixed(1)} / ${(r.cpu.bench / Math.max(1, r.answers)).toFixed(1)} ms`,
        `${Math.round(r.cpu.machinePct)}%`,
      ]),
    ),
    '',
    `By provider, ${main.workers} worker process${main.workers > 1 ? 'es' : ''} (slots busy: API calls × delay ÷ (${ADAPTER_CONCURRENCY} × ${main.workers} × time); most in flight at once, seen by the fake):`,
    '',
    table(
      ['provider', 'delay', 'answers', 'API calls', 'answers/min', 'its ceiling (answers/min)', 'slots busy', 'most in flight'],
      main.providers.map((p) => [p.provider, `${p.delayMs} ms`, fmt.int(p.answers), fmt.int(p.apiRequests), fmt.int((p.answers / main.seconds) * 60), fmt.int(p.ceiling), fmt.pct(p.busy), p.maxInFlight]),
    ),
  ];
  for (const r of runs) {
    lines.push(
      '',
      `Queue depth, ${r.workers} worker process${r.workers > 1 ? 'es' : ''} (\`project-refresh\` jobs, sampled every ${SAMPLE_MS / 1000} s; waiting + running: \`${sparkline(r.samples.map((s) => s.waiting + s.active))}\`):`,
      '',
      depthTable(r.samples),
    );
  }
  const met = main.perMinute >= GOAL_OF_CEILING * main.ceiling && !main.capped && main.tally.failed === 0;
  lines.push(
    '',
    `Goal (issue): the refresh keeps up with the providers' own rate limits, not with our code — here: ≥ ${GOAL_OF_CEILING * 100}% of the providers' ceiling, to completion, no failed answer, with ${main.workers} worker processes: ` +
      `**${fmt.pct(main.perMinute / main.ceiling)}${main.capped ? `, stopped at the ${main.capS} s bound` : ''} — ${met ? 'met' : 'not met'}**.`,
  );
  if (runs.length > 1) {
    lines.push(`Other worker counts are run for at most ${REFRESH_OTHER_MAX_S} s (BENCH_LOAD_REFRESH_OTHER_SECONDS): long enough for their rate, not for the whole refresh.`);
  }
  return lines;
}

const METHOD = `
How it is measured:
- Everything on this machine: autocannon 8 in a process of its own, the servers under test, PostgreSQL, Redis and the
  provider fakes (HTTP servers in the benchmark's process) share its cores, so absolute figures are lower than on a
  deployment, and a closed loop's latency at ${CONNECTIONS} connections is about connections ÷ throughput (Little's law).
- Rate limiter on, doing its whole work per request in Redis (REDIS_KEY_PREFIX=${REDIS_KEY_PREFIX}): RATE_LIMIT_WINDOW_MS=${WINDOW_MS}
  (the shortest allowed) and a key per connection (premium tier, 350 per key and window) so that it never refuses the
  benchmark; non-2xx must be 0. Latency percentiles from every answer's own timing.
- Cluster processes: \`node dist/cluster.js\` (the build), LOG_LEVEL=info (no per-request logs); the API processes count
  is checked from their "listening" lines before the warm-up. CPU from Linux /proc over the measured window.
- Refresh: samples of \`pgboss.job\` by state for \`project-refresh\`, and \`count(*)\` of responses,
  every ${SAMPLE_MS / 1000} s. answers/min = answers stored ÷ time from the tick to the last answer stored. The first worker
  count runs to completion or BENCH_LOAD_REFRESH_MAX_SECONDS (${REFRESH_MAX_S} s), whichever comes first.
- \`npm run bench:load\`; sizes: BENCH_LOAD_PROMPTS / BENCH_LOAD_DAYS (reads), BENCH_LOAD_PROJECTS /
  BENCH_LOAD_PROMPTS_PER_PROJECT (refresh), BENCH_LOAD_API_PROCESSES (1,2,4), BENCH_LOAD_WORKERS (2,1), BENCH_LOAD_PARTS
  (reads,refresh); BENCH_LOAD_REUSE=1 keeps the seeded reads database (${READS_DB}) for the next run; \`--diagnose\`
  adds each read request alone.
`;

export const loadSuite: Suite = {
  name: 'load',
  description: 'server mode: mixed reads at 1/2/4 API processes vs bare Fastify; daily refresh of 200 projects against the provider fakes',
  async run(opts) {
    if (opts.profile) console.log('  (load: --profile is not supported by this suite; running without it)');
    const warning = await waitForQuiet(1, Number(env.BENCH_QUIET_WAIT_SECONDS ?? 60) * 1000);
    const machine: Machine = machineInfo();
    console.log(`load: ${describeMachine(machine)}`);
    if (warning) console.warn(`  WARNING: ${warning}`);
    await redisPid(); // fails here, not silently later: the limiter would fail open without Redis

    let reads: ReadsOutcome | null = null;
    const refresh: RefreshRun[] = [];
    if (PARTS.includes('reads')) reads = await runReads(opts);
    if (PARTS.includes('refresh')) {
      for (const [i, w] of WORKER_COUNTS.entries()) refresh.push(await runRefresh(w, i === 0 ? REFRESH_MAX_S : REFRESH_OTHER_MAX_S));
      for (const r of refresh) {
        if (r.warnings.length) console.warn(`  refresh with ${r.workers} worker(s) logged (${r.warnings.length}):\n    ${r.warnings.slice(0, 5).join('\n    ')}`);
      }
    }
    if (reads) {
      for (const r of reads.rows) {
        if (r.result.non2xx || r.result.errors || r.result.timeouts) {
          console.warn(`  WARNING ${r.label}: ${r.result.non2xx} non-2xx ${JSON.stringify(r.result.statusCodes)}, ${r.result.errors} errors, ${r.result.timeouts} timeouts`);
        }
      }
    }

    const text = [
      `Measured ${machine.date} on ${describeMachine(machine).replace(/^[^,]+, /, '')}; Sightline at ${revision()}.` +
        (warning ? ` **Warning: ${warning}.**` : ''),
      ...(sizesNote() ? ['', sizesNote()] : []),
      ...(reads ? ['', ...readsReport(reads, machine.cores)] : []),
      ...(refresh.length ? ['', ...refreshReport(refresh)] : []),
    ].join('\n');
    console.log(`\n${text}\n`);
    if (APP_DIR !== ROOT || !reads || !refresh.length) {
      console.log(`(${APP_DIR !== ROOT ? `BENCH_APP_DIR=${APP_DIR}` : 'only part of the suite ran'}; bench/README.md not updated)`);
      return;
    }
    updateReadmeSection('load', `${text}\n${METHOD}`);
    console.log('bench/README.md updated (section load)');
  },
};
