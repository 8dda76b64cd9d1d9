import os from 'node:os';
import type { SeedResult } from '../src/collection/seed.js';
import { CONTRACT_PROVIDERS as PROVIDERS } from '../src/ports/providers/types.js';
import { ENDPOINTS, firstPrompt, storage } from './analytics.js';
import { refreshReport, runRefresh, type RefreshRun, type RefreshSize } from './load.js';
import {
  APP_DIR,
  ROOT,
  describeMachine,
  fmt,
  freshBenchStore,
  machineInfo,
  revision,
  runLoad,
  seedInChild,
  serviceEntry,
  startServer,
  table,
  updateReadmeSection,
  waitForQuiet,
  type ServerProcess,
  type Suite,
  withAdmin,
  envNumber,
} from './lib/index.js';

// Issue 31, item 5: ten times the analytics bench. BENCH_SCALE_PROJECTS projects of
// BENCH_SCALE_PROMPTS prompts × 5 engines × BENCH_SCALE_DAYS days in one PostgreSQL database
// (10 × 100 × 5 × 365 = 1.8 million answers), seeded through the real path (simulated
// provider → analysis → storeAnswers with every rollup); its storage per answer; the
// analytics p50/p99 of the analytics suite's endpoints at 90 and 365 days on one of its
// projects beside the 1× run (one project of the same size alone in its own database), both
// measured in this run; and the daily collection of BENCH_SCALE_COLLECT_PROJECTS projects by
// BENCH_SCALE_WORKERS worker processes against the provider fakes (bench/load.ts's refresh).

const env = process.env;
const num = envNumber;
const PROJECTS = num('BENCH_SCALE_PROJECTS', 10);
const PROMPTS = num('BENCH_SCALE_PROMPTS', 100);
const DAYS = num('BENCH_SCALE_DAYS', 365);
const COLLECT: RefreshSize = {
  projects: num('BENCH_SCALE_COLLECT_PROJECTS', 1000),
  promptsPerProject: num('BENCH_SCALE_COLLECT_PROMPTS', 25),
  db: 'sightline_bench_scale_collect',
};
const WORKERS = num('BENCH_SCALE_WORKERS', 4);
const COLLECT_MAX_S = num('BENCH_SCALE_COLLECT_MAX_SECONDS', 1800);
const SECONDS = num('BENCH_SECONDS', 4);
const WARMUP = num('BENCH_WARMUP_SECONDS', 1);
const PARTS = (env.BENCH_SCALE_PARTS ?? 'analytics,collect').split(',').map((s) => s.trim());
// the analytics suite's windows; a reduced run shorter than 90 days measures its whole history
const WINDOWS = DAYS >= 365 ? [90, 365] : DAYS >= 90 ? [90] : [DAYS];
const DB_TEN = 'sightline_bench_scale';
const DB_ONE = 'sightline_bench_scale_one';
const FULL_SIZE = PROJECTS >= 10 && PROMPTS >= 100 && DAYS >= 365 && COLLECT.projects >= 1000 && WORKERS === 4;

// The goals of issue 31 at ten times the volume.
const GOAL_OF_ONE = 1.5;
const GOAL_KB = 2.6;
const GOAL_SEED = 3000;
const goalP99 = (days: number) => (days <= 90 ? 10 : 15);

interface Row {
  run: '1×' | '10×';
  endpoint: string;
  days: number;
  p50: number;
  p99: number;
  load: number;
}

interface Seeded {
  projects: SeedResult[];
  answers: number;
  seconds: number;
  /** 1-minute load average when the seeding ended. */
  load: number;
}

/**
 * Seeds `count` projects one after the other in one runtime on the database of `env`, in a
 * process of its own (bench/lib/seeding.ts: this one then times requests without the seeding's heap).
 */
async function seed(storeEnv: Record<string, string>, count: number, label: string): Promise<Seeded> {
  const { projects } = await seedInChild({
    env: storeEnv,
    overrides: {},
    projects: Array.from({ length: count }, (_, i) => ({
      prompts: PROMPTS,
      providers: [...PROVIDERS],
      days: DAYS,
      competitors: 10,
      title: `${label}: seeding project ${i + 1}/${count}: ${PROMPTS} prompts × ${PROVIDERS.length} engines × ${DAYS} days…`,
    })),
  });
  for (const r of projects) console.log(`     ${fmt.int(r.answers)} answers in ${r.seconds.toFixed(1)} s (${fmt.int(r.answersPerSecond)}/s)`);
  const answers = projects.reduce((s, p) => s + p.answers, 0);
  const seconds = projects.reduce((s, p) => s + p.seconds, 0);
  return { projects, answers, seconds, load: os.loadavg()[0] };
}

/** A server on the database of `storeEnv`, every figure computed (READ_CACHE_MB=0). */
function startReader(name: string, storeEnv: Record<string, string>) {
  return startServer({
    name,
    entry: serviceEntry(APP_DIR),
    cwd: APP_DIR,
    env: { ...storeEnv, ROLE: 'api', LOG_LEVEL: 'warn', RATE_LIMIT_WINDOW_MS: '100', READ_CACHE_MB: '0' },
  });
}

/**
 * The analytics endpoints at each window on the 1× project and on the first 10× project,
 * each through a server of its own, one after the other per endpoint and window (so that
 * the machine's load moves both alike).
 */
async function measure(subjects: Array<{ run: Row['run']; storeEnv: Record<string, string>; seeded: SeedResult }>): Promise<Row[]> {
  const servers: ServerProcess[] = [];
  const rows: Row[] = [];
  try {
    const targets = [];
    for (const s of subjects) {
      const server = await startReader(`sightline-scale-${s.run === '1×' ? 'one' : 'ten'}`, s.storeEnv);
      servers.push(server);
      targets.push({ ...s, server, promptId: await firstPrompt(server, s.seeded.apiKey, s.seeded.projectId) });
    }
    for (const endpoint of ENDPOINTS) {
      for (const days of WINDOWS) {
        for (const t of targets) {
          const url = `${t.server.url}${endpoint.path(t.seeded.projectId, t.promptId)}?duration_days=${days}`;
          const load = os.loadavg()[0];
          const result = await runLoad({ url, connections: 1, warmupSeconds: WARMUP, seconds: SECONDS, headers: { 'x-api-key': t.seeded.apiKey }, serverPid: t.server.pid });
          if (result.non2xx) throw new Error(`${url}: ${result.non2xx} answers were not 2xx`);
          rows.push({ run: t.run, endpoint: endpoint.name, days, p50: result.p50, p99: result.p99, load });
          console.log(`   ${t.run} ${endpoint.name} ${days} d: p50 ${fmt.ms(result.p50)} p99 ${fmt.ms(result.p99)} (load ${load.toFixed(2)})`);
        }
      }
    }
  } finally {
    for (const server of servers) await server.stop();
  }
  return rows;
}

interface AnalyticsOutcome {
  ten: Seeded;
  one: Seeded;
  storageBytes: number;
  storageRows: string[][];
  rows: Row[];
}

async function runAnalytics(): Promise<AnalyticsOutcome> {
  const tenStore = await freshBenchStore('postgres', DB_TEN, 'sightline-bench-scale');
  const oneStore = await freshBenchStore('postgres', DB_ONE, 'sightline-bench-scale-one');
  try {
    const ten = await seed(tenStore.env, PROJECTS, '10×');
    await withAdmin((c) => c.query('vacuum analyze'), tenStore.dbUrl);
    const { totalBytes: storageBytes, rows: storageRows } = await storage(tenStore.dbUrl);
    const one = await seed(oneStore.env, 1, '1×');
    await withAdmin((c) => c.query('vacuum analyze'), oneStore.dbUrl);
    const rows = await measure([
      { run: '1×', storeEnv: oneStore.env, seeded: one.projects[0] },
      { run: '10×', storeEnv: tenStore.env, seeded: ten.projects[0] },
    ]);
    return { ten, one, storageBytes, storageRows, rows };
  } finally {
    if (env.BENCH_KEEP_DATA !== '1') {
      await withAdmin(async (c) => {
        await c.query(`drop database if exists ${DB_TEN} with (force)`);
        await c.query(`drop database if exists ${DB_ONE} with (force)`);
      });
    }
  }
}

function analyticsReport(a: AnalyticsOutcome): string[] {
  const kb = a.storageBytes / a.ten.answers / 1024;
  const rate = a.ten.answers / a.ten.seconds;
  const byKey = new Map<string, { one?: Row; ten?: Row }>();
  for (const r of a.rows) {
    const key = `${r.endpoint}|${r.days}`;
    const cell = byKey.get(key) ?? {};
    if (r.run === '1×') cell.one = r;
    else cell.ten = r;
    byKey.set(key, cell);
  }
  const pairs = [...byKey.values()].filter((c): c is { one: Row; ten: Row } => !!c.one && !!c.ten);
  const ratio = (c: { one: Row; ten: Row }) => c.ten.p99 / c.one.p99;
  const overOne = pairs.filter((c) => ratio(c) > GOAL_OF_ONE);
  const overAbs = a.rows.filter((r) => r.run === '10×' && r.p99 > goalP99(r.days));
  return [
    `**Seeding** (10×): ${PROJECTS} projects × ${PROMPTS} prompts × ${PROVIDERS.length} engines × ${DAYS} days = ${fmt.int(a.ten.answers)} answers in ${fmt.int(a.ten.seconds)} s: **${fmt.int(rate)} answers/s** (each project from ${fmt.int(Math.min(...a.ten.projects.map((p) => p.answersPerSecond)))} to ${fmt.int(Math.max(...a.ten.projects.map((p) => p.answersPerSecond)))}/s; load ${a.ten.load.toFixed(2)} at the end). 1×: ${fmt.int(a.one.answers)} answers at ${fmt.int(a.one.answers / a.one.seconds)}/s.`,
    '',
    `**Storage** (10×, after \`vacuum analyze\`): ${fmt.int(a.storageBytes / 1048576)} MB for ${fmt.int(a.ten.answers)} answers = **${kb.toFixed(2)} KB per answer**; tables of 1 MB or more:`,
    '',
    table(['table', 'rows (estimate)', 'heap MB', 'toast MB', 'indexes MB', 'total MB'], a.storageRows),
    '',
    `**Analytics**, every figure computed (READ_CACHE_MB=0), through HTTP with a valid key, 1 connection, ${SECONDS} s after ${WARMUP} s warm-up; the prompt endpoints on the first prompt. 1×: one project alone in its database; 10×: the first of the ${PROJECTS} projects; each endpoint and window measured on both, one after the other. Cells are p50 / p99; the last column is the higher load average of the two measurements.`,
    '',
    table(
      ['endpoint', 'window (days)', '1×', '10×', '10× p99 ÷ 1× p99', 'load'],
      pairs.map((c) => [c.one.endpoint, c.one.days, `${fmt.ms(c.one.p50)} / ${fmt.ms(c.one.p99)}`, `${fmt.ms(c.ten.p50)} / ${fmt.ms(c.ten.p99)}`, `${ratio(c).toFixed(2)}×`, Math.max(c.one.load, c.ten.load).toFixed(2)]),
    ),
    '',
    '**Goals** (issue 31, at ten times the volume):',
    '',
    `- analytics p99 at 10× within ${GOAL_OF_ONE}× of the 1× run: ${overOne.length ? `over on ${overOne.map((c) => `${c.one.endpoint} ${c.one.days} d (${ratio(c).toFixed(2)}×)`).join(', ')}` : 'every endpoint and window'} — **${overOne.length ? 'not met' : 'met'}**.`,
    `- every computed p99 ≤ 10 ms at 90 days and ≤ 15 ms at 365 days (10×): ${overAbs.length ? `over on ${overAbs.map((r) => `${r.endpoint} ${r.days} d (${fmt.ms(r.p99)})`).join(', ')}` : 'every endpoint'} — **${overAbs.length ? 'not met' : 'met'}**.`,
    `- storage ≤ ${GOAL_KB} KB per answer: ${kb.toFixed(2)} KB — **${kb <= GOAL_KB ? 'met' : 'not met'}**.`,
    `- seeding ≥ ${fmt.int(GOAL_SEED)} answers/s on PostgreSQL: ${fmt.int(rate)} (load ${a.ten.load.toFixed(2)} at the end) — **${rate >= GOAL_SEED ? 'met' : 'not met'}**.`,
  ];
}

export const scaleSuite: Suite = {
  name: 'scale',
  description: 'ten times the analytics bench (10 projects × 100 prompts × 5 engines × 365 days): seeding, storage, analytics against 1×, collection of 1,000 projects by 4 workers',
  async run() {
    const quiet = await waitForQuiet();
    const machine = machineInfo();
    const started = new Date().toISOString();
    console.log(
      `\n== scale: ${PROJECTS} projects × ${PROMPTS} prompts × ${PROVIDERS.length} engines × ${DAYS} days; collection of ${fmt.int(COLLECT.projects)} projects by ${WORKERS} workers; ${describeMachine(machine)}`,
    );
    const analytics = PARTS.includes('analytics') ? await runAnalytics() : null;
    let collection: RefreshRun | null = null;
    if (PARTS.includes('collect')) {
      console.log(`\n== scale: collection of ${fmt.int(COLLECT.projects)} projects by ${WORKERS} worker processes`);
      collection = await runRefresh(WORKERS, COLLECT_MAX_S, COLLECT);
    }
    const text = [
      '## Ten times the analytics bench (`npm run bench -- scale`)',
      '',
      `Measured ${started} on ${describeMachine(machine)}${quiet ? `; **${quiet}**` : ''}; Sightline at ${revision()}; PostgreSQL.${
        FULL_SIZE
          ? ''
          : ` **Reduced-size run** (BENCH_SCALE_PROJECTS=${PROJECTS}, BENCH_SCALE_PROMPTS=${PROMPTS}, BENCH_SCALE_DAYS=${DAYS}, BENCH_SCALE_COLLECT_PROJECTS=${COLLECT.projects}, BENCH_SCALE_WORKERS=${WORKERS}): not the issue's figures.`
      }`,
      '',
      ...(analytics ? analyticsReport(analytics) : []),
      ...(collection ? ['', `**Collection** (${WORKERS} worker processes, bench/load.ts's refresh):`, '', ...refreshReport([collection], COLLECT)] : []),
    ].join('\n');
    console.log(`\n${text}`);
    // a reduced or partial run checks the suite; only the full size goes into bench/README.md
    if (FULL_SIZE && analytics && collection && APP_DIR === ROOT) updateReadmeSection('scale', text);
    else console.log('\n(reduced-size, partial or BENCH_APP_DIR run: bench/README.md left alone)');
  },
};
