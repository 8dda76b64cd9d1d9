import fs from 'node:fs';
import os from 'node:os';
import type { SeedResult } from '../src/collection/seed.js';
import { CONTRACT_PROVIDERS as PROVIDERS } from '../src/ports/providers/types.js';
import { ENDPOINTS, firstPrompt } from './analytics.js';
import {
  APP_DIR,
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
  type Suite,
  withAdmin,
} from './lib/index.js';

// Issue 29: the analytics bench at a year with every prompt in 3 markets (each a series of
// its own: three times the answers and rollup rows of the one-market project), against the
// same project in one market seeded and measured in the same run. Every figure computed
// (READ_CACHE_MB=0); p50/p99 at 1 connection. Goals ("Analytics at the limit"): p99 ≤ 10 ms
// at 90 days and ≤ 15 ms at 365 days, with 3 markets, read whole and one market at a time.

const PROMPTS = Number(process.env.BENCH_PROMPTS ?? 100);
const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);
// Before the timed reads, every read of the run once for this long, untimed: the store is
// just loaded (547,500 answers written a minute before) and its caches hold the last
// project's pages, not the first's. BENCH_SETTLE_SECONDS=0 measures straight after seeding.
const SETTLE = Number(process.env.BENCH_SETTLE_SECONDS ?? 1);
const MARKETS = ['US-en', 'DE-de', 'FR-fr'];
const DB = process.env.BENCH_MARKETS_DB ?? 'sightline_bench_markets';
const ALL_STORES = ['postgres', 'embedded'] as const;
const STORES = (process.env.BENCH_STORES ?? 'postgres')
  .split(',')
  .map((s) => s.trim())
  .filter((s): s is (typeof ALL_STORES)[number] => (ALL_STORES as readonly string[]).includes(s));

interface Row {
  store: string;
  project: string;
  endpoint: string;
  days: number;
  p50: number;
  p99: number;
  rps: number;
  load: number;
  /** urls only: the answer's bytes (as sent, no compression asked) and its URLs. */
  body?: { bytes: number; items: number };
}

/** The urls answer's size: the contract returns every URL of the window in one list. */
async function urlsBody(url: string, apiKey: string): Promise<{ bytes: number; items: number }> {
  const res = await fetch(url, { headers: { 'x-api-key': apiKey, 'accept-encoding': 'identity' } });
  const text = await res.text();
  return { bytes: Buffer.byteLength(text), items: (JSON.parse(text) as { data: { items: unknown[] } }).data.items.length };
}

/** Both projects, seeded in a process of their own (bench/lib/seeding.ts: this one then times requests without the seeding's heap). */
async function seed(env: Record<string, string>, overrides: Record<string, unknown>): Promise<{ one: SeedResult; three: SeedResult }> {
  const providers = [...PROVIDERS];
  const { projects } = await seedInChild({
    env,
    overrides,
    projects: [
      { prompts: PROMPTS, providers, days: DAYS, competitors: 10, log: true, title: `seeding ${PROMPTS} prompts × ${PROVIDERS.length} providers × ${DAYS} days, one market…` },
      { prompts: PROMPTS, providers, days: DAYS, competitors: 10, markets: [...MARKETS], log: true, title: `seeding the same in ${MARKETS.length} markets (${MARKETS.join(', ')})…` },
    ],
  });
  const [one, three] = projects;
  return { one, three };
}

async function runStore(store: 'embedded' | 'postgres'): Promise<{ rows: Row[]; one: SeedResult; three: SeedResult }> {
  const { env, overrides, dataDir, dbUrl } = await freshBenchStore(store, DB, 'sightline-bench-markets');
  const { one, three } = await seed(env, overrides);
  if (store === 'postgres') {
    await withAdmin((c) => c.query(`vacuum analyze`).catch(() => {}), dbUrl);
    // the seeding's writes reach the data files now, not during the timed reads
    await withAdmin((c) => c.query('checkpoint'), dbUrl);
  }
  const settled = await waitForQuiet(1, 120_000);
  if (settled) console.log(`   after seeding: ${settled}`);
  const server = await startServer({
    name: `sightline-markets-${store}`,
    entry: serviceEntry(APP_DIR),
    cwd: APP_DIR,
    env: { ...env, ROLE: 'api', LOG_LEVEL: 'warn', RATE_LIMIT_WINDOW_MS: '100', READ_CACHE_MB: '0' },
  });
  const label = store === 'embedded' ? 'embedded (PGlite)' : 'PostgreSQL';
  const rows: Row[] = [];
  try {
    const subjects = [
      { project: '1 market', seeded: one, market: null },
      { project: '3 markets, all', seeded: three, market: null },
      { project: '3 markets, market=DE-de', seeded: three, market: 'DE-de' },
    ];
    const targets = await Promise.all(
      subjects.map(async (subject) => ({ subject, ids: { projectId: subject.seeded.projectId, promptId: await firstPrompt(server, subject.seeded.apiKey, subject.seeded.projectId) } })),
    );
    const urlOf = (target: (typeof targets)[number], endpoint: (typeof ENDPOINTS)[number], days: number) =>
      `${server.url}${endpoint.path(target.ids.projectId, target.ids.promptId)}?duration_days=${days}${target.subject.market ? `&market=${target.subject.market}` : ''}`;
    if (SETTLE > 0) {
      console.log(`   settling: every read for ${SETTLE} s, untimed…`);
      for (const target of targets)
        for (const endpoint of ENDPOINTS)
          for (const days of [90, 365]) await runLoad({ url: urlOf(target, endpoint, days), connections: 1, warmupSeconds: 0, seconds: SETTLE, headers: { 'x-api-key': target.subject.seeded.apiKey } });
    }
    for (const { subject, ids } of targets) {
      for (const endpoint of ENDPOINTS) {
        for (const days of [90, 365]) {
          const url = urlOf({ subject, ids }, endpoint, days);
          const load = os.loadavg()[0];
          const result = await runLoad({ url, connections: 1, warmupSeconds: WARMUP, seconds: SECONDS, headers: { 'x-api-key': subject.seeded.apiKey }, serverPid: server.pid });
          if (result.non2xx) throw new Error(`${url}: ${result.non2xx} answers were not 2xx`);
          const body = endpoint.name === 'urls' ? await urlsBody(url, subject.seeded.apiKey) : undefined;
          rows.push({ store: label, project: subject.project, endpoint: endpoint.name, days, p50: result.p50, p99: result.p99, rps: result.rps, load, body });
          console.log(`   ${label} ${subject.project} ${endpoint.name} ${days}d: p50 ${fmt.ms(result.p50)} p99 ${fmt.ms(result.p99)} (load ${load.toFixed(2)})`);
        }
      }
    }
  } finally {
    await server.stop();
    if (process.env.BENCH_KEEP_DATA !== '1') {
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      else await withAdmin((c) => c.query(`drop database if exists ${DB} with (force)`));
    }
  }
  return { rows, one, three };
}

export const marketsSuite: Suite = {
  name: 'markets',
  description: 'a year of answers with every prompt in 3 markets: analytics p50/p99, whole and per market, beside one market',
  async run() {
    const quiet = await waitForQuiet();
    const machine = machineInfo();
    const started = new Date().toISOString();
    console.log(`\n== markets: ${PROMPTS} prompts × ${PROVIDERS.length} providers × ${DAYS} days × ${MARKETS.length} markets, ${describeMachine(machine)}`);
    const results: Array<Awaited<ReturnType<typeof runStore>>> = [];
    for (const store of STORES) results.push(await runStore(store));
    const rows = results.flatMap((r) => r.rows);
    const goals: string[] = [];
    for (const store of new Set(rows.map((r) => r.store))) {
      for (const project of ['3 markets, all', '3 markets, market=DE-de']) {
        // urls apart, as "Analytics at the limit" left it: its answer is the contract's whole
        // list of the window's URLs (no paging), so its time follows its body (table below).
        const over = rows.filter((r) => r.store === store && r.project === project && r.endpoint !== 'urls' && r.p99 > (r.days === 90 ? 10 : 15));
        goals.push(
          `- ${store}, ${project}: p99 ≤ 10 ms at 90 days and ≤ 15 ms at 365 days on every endpoint but urls: ${
            over.length ? `over on ${over.map((r) => `${r.endpoint} ${r.days} d (${fmt.ms(r.p99)})`).join(', ')}` : 'within on every one'
          } — **${over.length ? 'not met' : 'met'}**.`,
        );
        const urls = rows.filter((r) => r.store === store && r.project === project && r.endpoint === 'urls');
        goals.push(
          `- ${store}, ${project}, urls: ${urls
            .map((r) => `${r.days} d p99 ${fmt.ms(r.p99)} for ${fmt.int(r.body?.items ?? 0)} URLs in ${fmt.int(Math.round((r.body?.bytes ?? 0) / 1024))} KB (${r.p99 <= (r.days === 90 ? 10 : 15) ? 'within' : 'over'})`)
            .join('; ')}.`,
        );
      }
    }
    // per endpoint and window: the 3-market p99s beside the one-market run's
    const byKey = new Map<string, Row[]>();
    for (const r of rows) {
      const key = `${r.store}|${r.endpoint}|${r.days}`;
      byKey.set(key, [...(byKey.get(key) ?? []), r]);
    }
    const compared = [...byKey.values()].map((group) => {
      const of = (project: string) => group.find((r) => r.project === project);
      const cell = (r: Row | undefined) => (r ? `${fmt.ms(r.p50)} / ${fmt.ms(r.p99)}` : '–');
      return [group[0].store, group[0].endpoint, group[0].days, cell(of('1 market')), cell(of('3 markets, all')), cell(of('3 markets, market=DE-de')), Math.max(...group.map((r) => r.load)).toFixed(2)];
    });
    const seeding = results.map((r) => [
      r.rows[0]?.store ?? '',
      `${fmt.int(r.one.answers)} in ${r.one.seconds.toFixed(0)} s (${fmt.int(r.one.answersPerSecond)}/s)`,
      `${fmt.int(r.three.answers)} in ${r.three.seconds.toFixed(0)} s (${fmt.int(r.three.answersPerSecond)}/s)`,
    ]);
    const text = [
      '## Markets at a year (`npm run bench -- markets`)',
      '',
      `Measured ${started} on ${describeMachine(machine)}${quiet ? `; ${quiet}` : ''}; Sightline at ${revision()}. Two projects seeded in the same run through the real path: ${PROMPTS} prompts × ${PROVIDERS.length} engines × ${DAYS} days in one market (the yardstick), and the same prompts in ${MARKETS.length} markets (${MARKETS.join(', ')}), each prompt in each market a series of its own. After the seeding, \`vacuum analyze\`, a checkpoint${SETTLE > 0 ? `, and every read of the table once for ${SETTLE} s, untimed` : ''}. Every figure computed (READ_CACHE_MB=0), through HTTP with a valid key, 1 connection, ${SECONDS} s after ${WARMUP} s warm-up; the prompt endpoints on the first prompt. Cells are p50 / p99; the last column is the highest 1-minute load average of the row's three measurements.`,
      '',
      table(['store', 'answers, 1 market', 'answers, 3 markets'], seeding),
      '',
      table(['store', 'endpoint', 'window (days)', '1 market', '3 markets, all', '3 markets, market=DE-de', 'load'], compared),
      '',
      "The urls answer is every URL the prompt's answers cited in the window, in one list (the contract has no paging), each with the brands named beside it. Its size and its time per megabyte, per project and window:",
      '',
      table(
        ['store', 'project', 'window (days)', 'URLs', 'body', 'p50', 'p50 per MB'],
        rows
          .filter((r) => r.endpoint === 'urls' && r.body)
          .map((r) => [r.store, r.project, r.days, fmt.int(r.body!.items), `${fmt.int(Math.round(r.body!.bytes / 1024))} KB`, fmt.ms(r.p50), fmt.ms(r.p50 / (r.body!.bytes / 1048576))]),
      ),
      '',
      '**Goals** (issue 29, the limits of "Analytics at the limit"):',
      '',
      ...goals,
    ].join('\n');
    console.log(`\n${text}`);
    updateReadmeSection('markets', text);
  },
};
