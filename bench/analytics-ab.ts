import fs from 'node:fs';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { createRuntime } from '../src/runtime.js';
import { seedProject } from '../src/collection/seed.js';
import { CONTRACT_PROVIDERS as PROVIDERS } from '../src/ports/providers/types.js';
import { ENDPOINTS, firstPrompt } from './analytics.js';
import { backendPids, describeMachine, fmt, freshBenchStore, machineInfo, revision, ROOT, runLoad, serviceEntry, startServer, table, withAdmin } from './lib/index.js';

// A/B of the analytics endpoints on PostgreSQL: this checkout against another
// (BENCH_AB_BASE_DIR, e.g. a worktree of the commit before, with node_modules linked and its
// dist built), on one project seeded once (BENCH_PROMPTS × the contract's 5 engines ×
// BENCH_DAYS, through the real path) in the database BENCH_AB_DB. Every endpoint and window is
// measured on both sides, one right after the other, over BENCH_AB_ROUNDS rounds, the side
// that goes first alternating: on a shared 2-core machine both meet the same load. Each
// measurement: 1 connection, every figure computed (READ_CACHE_MB=0), BENCH_SECONDS after a
// 1 s warm-up; the CPU per request of the server and of its PostgreSQL backends. Prints;
// leaves bench/README.md alone. `npx tsx bench/analytics-ab.ts` (BENCH_AB_REUSE=1 measures
// the database already seeded).

const base = process.env.BENCH_AB_BASE_DIR;
if (!base) throw new Error('BENCH_AB_BASE_DIR: the checkout to compare against');
const PROMPTS = Number(process.env.BENCH_PROMPTS ?? 100);
const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 2);
const WINDOWS = (process.env.BENCH_AB_WINDOWS ?? '90,365').split(',').map(Number);
const ONLY = process.env.BENCH_AB_ENDPOINTS?.split(',');
const DB = process.env.BENCH_AB_DB ?? 'sightline_bench_ab';
const SEED_FILE = `${ROOT}/.bench-data/${DB}.json`;

const sides = [
  { name: 'before', dir: base },
  { name: 'after', dir: ROOT },
];

const bench = await freshOrReused();
const endpoints = ENDPOINTS.filter((e) => !ONLY || ONLY.includes(e.name));
const machine = machineInfo();
console.log(`\n== analytics A/B: ${PROMPTS} prompts × ${PROVIDERS.length} engines × ${DAYS} days, ${describeMachine(machine)}`);
console.log(`   before ${revision(base)}, after ${revision(ROOT)}`);

type Cell = { p50: number; p99: number; server: number; postgres: number };
const cells = new Map<string, Cell[]>();
const key = (side: string, endpoint: string, days: number) => `${side}|${endpoint}|${days}`;
for (let round = 1; round <= ROUNDS; round++) {
  for (const e of endpoints) {
    for (const days of WINDOWS) {
      for (const side of round % 2 ? sides : [...sides].reverse()) {
        const entry = serviceEntry(side.dir);
        const server = await startServer({
          name: `${side.name}-${e.name}`,
          entry,
          cwd: side.dir,
          env: { ...bench.env, ROLE: 'api', LOG_LEVEL: 'warn', RATE_LIMIT_WINDOW_MS: '100', READ_CACHE_MB: '0' },
        });
        try {
          const promptId = await firstPrompt(server, bench.apiKey, bench.projectId);
          const url = `${server.url}${e.path(bench.projectId, promptId)}?duration_days=${days}`;
          const result = await runLoad({
            url,
            connections: 1,
            warmupSeconds: 1,
            seconds: SECONDS,
            headers: { 'x-api-key': bench.apiKey },
            serverPid: server.pid,
            cpuOf: async () => ({ postgres: await backendPids(DB) }),
          });
          if (result.non2xx || result.errors) throw new Error(`${side.name} ${e.name} ${days} d: ${result.non2xx} non-2xx, ${result.errors} errors`);
          const list = cells.get(key(side.name, e.name, days)) ?? [];
          list.push({ p50: result.p50, p99: result.p99, server: result.cpuPerReq.server ?? Number.NaN, postgres: result.cpuPerReq.postgres ?? Number.NaN });
          cells.set(key(side.name, e.name, days), list);
          console.log(`   round ${round} ${side.name.padEnd(6)} ${e.name} ${days} d: p50 ${fmt.ms(result.p50)}, p99 ${fmt.ms(result.p99)}, server ${fmt.us(result.cpuPerReq.server)}, PostgreSQL ${fmt.us(result.cpuPerReq.postgres)}`);
        } finally {
          await server.stop();
        }
      }
    }
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const of = (side: string, endpoint: string, days: number, field: keyof Cell) => median((cells.get(key(side, endpoint, days)) ?? []).map((c) => c[field]));
console.log(
  `\nMedians of ${ROUNDS} rounds (p50 / p99; CPU per request: the server, its PostgreSQL backends):\n\n${table(
    ['endpoint', 'window (days)', 'before', 'after', 'server CPU before → after', 'PostgreSQL CPU before → after'],
    endpoints.flatMap((e) =>
      WINDOWS.map((days) => [
        e.name,
        String(days),
        `${fmt.ms(of('before', e.name, days, 'p50'))} / ${fmt.ms(of('before', e.name, days, 'p99'))}`,
        `${fmt.ms(of('after', e.name, days, 'p50'))} / ${fmt.ms(of('after', e.name, days, 'p99'))}`,
        `${fmt.us(of('before', e.name, days, 'server'))} → ${fmt.us(of('after', e.name, days, 'server'))}`,
        `${fmt.us(of('before', e.name, days, 'postgres'))} → ${fmt.us(of('after', e.name, days, 'postgres'))}`,
      ]),
    ),
  )}`,
);

/** The seeded project: seeded now into a fresh database, or (BENCH_AB_REUSE=1) the one seeded before. */
async function freshOrReused(): Promise<{ env: Record<string, string>; projectId: string; apiKey: string }> {
  if (process.env.BENCH_AB_REUSE === '1' && fs.existsSync(SEED_FILE)) return JSON.parse(fs.readFileSync(SEED_FILE, 'utf8'));
  const store = await freshBenchStore('postgres', DB, DB);
  const config = loadConfig({ ...store.env, PROVIDERS_MODE: 'simulated' }, { role: 'api', ...store.overrides } as never);
  const runtime = await createRuntime(config, pino({ level: 'warn' }));
  let seeded: { env: Record<string, string>; projectId: string; apiKey: string };
  try {
    console.log(`   seeding ${PROMPTS} prompts × ${PROVIDERS.length} engines × ${DAYS} days…`);
    const project = await seedProject(runtime.ctx, { prompts: PROMPTS, providers: [...PROVIDERS], days: DAYS, competitors: 10 });
    seeded = { env: store.env, projectId: project.projectId, apiKey: project.apiKey };
  } finally {
    await runtime.stop();
  }
  await withAdmin(async (c) => c.query('vacuum analyze'), store.dbUrl);
  fs.mkdirSync(`${ROOT}/.bench-data`, { recursive: true });
  fs.writeFileSync(SEED_FILE, JSON.stringify(seeded));
  return seeded;
}
