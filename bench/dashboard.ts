import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import pino from 'pino';
import { type Page, chromium } from 'playwright-core';
import { seedProject } from '../src/collection/seed.js';
import { loadConfig } from '../src/config.js';
// The volume of the figures to beat: the contract's five engines (a project's default).
import { CONTRACT_PROVIDERS as PROVIDERS } from '../src/ports/providers/types.js';
import { createRuntime } from '../src/runtime.js';
import { CHROMIUM_ARGS } from '../test/browser/harness.js';
import { ROOT, describeMachine, fmt, machineInfo, revision, table, updateReadmeSection, type Suite } from './lib/index.js';

// Issue 13: the dashboard's weight (JavaScript shipped for the first page, gzipped) and how
// fast the overview draws its charts on a project holding a year of answers, measured in
// Debian's Chromium. `npm run bench -- screenshots` takes the docs/ screenshots on the same
// seeded project at 1280 and 390 px.

const WEB = path.join(ROOT, 'dist', 'web');
const PROMPTS = Number(process.env.BENCH_PROMPTS ?? 20);
const DAYS = Number(process.env.BENCH_DAYS ?? 365);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The first page's files as index.html names them, gzipped (level 9, what a server would send). */
export function firstPageWeight(): { js: number; jsGz: number; css: number; cssGz: number; files: string[] } {
  const html = fs.readFileSync(path.join(WEB, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]);
  const out = { js: 0, jsGz: 0, css: 0, cssGz: 0, files };
  for (const f of files) {
    const buf = fs.readFileSync(path.join(WEB, f));
    const gz = zlib.gzipSync(buf, { level: 9 }).length;
    if (f.endsWith('.js')) {
      out.js += buf.length;
      out.jsGz += gz;
    } else if (f.endsWith('.css')) {
      out.css += buf.length;
      out.cssGz += gz;
    }
  }
  return out;
}

async function withSeededService<T>(fn: (base: string, seed: Awaited<ReturnType<typeof seedProject>>) => Promise<T>, days = DAYS): Promise<T> {
  const config = loadConfig({ PROVIDERS_MODE: 'simulated' }, { memoryStore: true, role: 'all', logLevel: 'warn', port: 0, host: '127.0.0.1' } as never);
  const runtime = await createRuntime(config, pino({ level: 'warn' }));
  try {
    console.log(`   seeding ${PROMPTS} prompts × ${PROVIDERS.length} providers × ${days} days…`);
    const seed = await seedProject(runtime.ctx, { prompts: PROMPTS, providers: [...PROVIDERS], days, competitors: 10 });
    console.log(`   ${fmt.int(seed.answers)} answers in ${seed.seconds.toFixed(1)} s`);
    const app = runtime.app!;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const addr = app.server.address();
    const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    return await fn(base, seed);
  } finally {
    await runtime.stop();
  }
}

async function signedInPage(
  base: string,
  seed: { email: string; password: string },
  width: number,
  colorScheme: 'light' | 'dark' = 'light',
): Promise<{ page: Page; close: () => Promise<void> }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  const context = await browser.newContext({ baseURL: base, viewport: { width, height: 900 }, colorScheme });
  const res = await context.request.post('/v1/session', { data: { email: seed.email, password: seed.password } });
  if (res.status() !== 201) throw new Error(`sign-in: ${res.status()} ${await res.text()}`);
  return { page: await context.newPage(), close: () => browser.close() };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Where one load's time went, from the page's own Navigation/Resource Timing and marks (ms from navigation start). */
interface Timeline {
  html: number;
  scripts: number;
  domReady: number;
  api: Array<{ path: string; start: number; ttfb: number; end: number }>;
  drawn: number;
}

async function timeline(page: Page): Promise<Timeline> {
  return page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const api = res
      .filter((r) => new URL(r.name).pathname.startsWith('/v1/'))
      .map((r) => {
        const u = new URL(r.name);
        const p = u.searchParams.get('providers');
        const path = u.pathname.replace(/^\/v1/, '').replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ':id');
        return { path: `${path}${p ? ` (${p})` : ''}`, start: r.requestStart || r.startTime, ttfb: r.responseStart - (r.requestStart || r.startTime), end: r.responseEnd };
      });
    const scripts = Math.max(0, ...res.filter((r) => r.name.endsWith('.js')).map((r) => r.responseEnd));
    const drawn = performance.getEntriesByName('chart-drawn:Visibility over time')[0]?.startTime ?? Number.NaN;
    return { html: nav.responseEnd, scripts, domReady: nav.domContentLoadedEventEnd, api, drawn };
  });
}

function describeTimeline(t: Timeline): string {
  const r = (n: number) => Math.round(n);
  const calls = t.api
    .filter((a) => a.start < t.drawn)
    .sort((a, b) => a.start - b.start)
    .map((a) => `${a.path} ${r(a.start)}–${r(a.end)} (server ${r(a.ttfb)})`);
  return `HTML ${r(t.html)}, scripts ${r(t.scripts)}, DOM ready ${r(t.domReady)}; API before the chart: ${calls.join('; ')}; chart drawn ${r(t.drawn)}`;
}

export const dashboardSuite: Suite = {
  name: 'dashboard',
  description: 'first-page JS gzipped; overview charts time-to-drawn on a seeded year, in Chromium',
  async run() {
    const machine = machineInfo();
    console.log(`\n== dashboard (issue 13) ==\n   ${describeMachine(machine)}`);
    const w = firstPageWeight();
    console.log(`   first page: JS ${fmt.int(w.js)} B (${fmt.int(w.jsGz)} B gzipped), CSS ${fmt.int(w.css)} B (${fmt.int(w.cssGz)} B gzipped)`);
    const rows: (string | number)[][] = [];
    const timelines: string[] = [];
    await withSeededService(async (base, seed) => {
      const { page, close } = await signedInPage(base, seed, 1280);
      try {
        for (const days of [30, 365]) {
          const times: number[] = [];
          const drawn: number[] = [];
          const lines: Timeline[] = [];
          for (let i = 0; i < RUNS; i++) {
            // A new document each time (no warm client cache); the server's read cache stays
            // warm after the first run, as it does for a team opening its dashboard daily.
            await page.goto('about:blank');
            const t0 = Date.now();
            await page.goto(`/projects/${seed.projectId}?days=${days}`);
            await page.locator('[data-chart="Visibility over time"][data-drawn="true"]').waitFor({ timeout: 60_000 });
            await page.locator('[data-kpi="Visibility"]').waitFor({ timeout: 60_000 });
            times.push(Date.now() - t0);
            const t = await timeline(page);
            lines.push(t);
            drawn.push(Math.round(t.drawn));
          }
          const mid = lines[drawn.indexOf(median(drawn))];
          console.log(`   overview ${days} d: first ${times[0]} ms, median ${median(times)} ms (${RUNS} loads); chart drawn (page clock) median ${median(drawn)} ms`);
          console.log(`     median load: ${describeTimeline(mid)}`);
          timelines.push(`- ${days} days, the median load (ms from navigation start): ${describeTimeline(mid)}.`);
          rows.push([`${days} days`, `${times[0]} ms`, `${median(times)} ms`, `${Math.max(...times)} ms`, `${median(drawn)} ms`]);
        }
      } finally {
        await close();
      }
      const perPage = await pageWeights(base, seed);
      const section = [
        `### Dashboard (issue 13), ${machine.date.slice(0, 10)}`,
        '',
        `${describeMachine(machine)}; ${revision()}.`,
        '',
        `First page (the script and the chunks index.html names; every page but sign-in and the projects list is a chunk loaded on first visit): **${fmt.int(w.jsGz / 1024)} KB of JavaScript gzipped** (${fmt.int(w.js / 1024)} KB raw; goal < 250 KB gzipped), CSS ${fmt.int(w.cssGz / 1024)} KB gzipped.`,
        '',
        `Overview charts drawn (navigation start to the visibility chart drawn and the KPIs shown, Chromium headless, signed in) on a project of ${fmt.int(seed.answers)} answers (${PROMPTS} prompts × ${PROVIDERS.length} providers × ${DAYS} days, 10 competitors), embedded store; goal: within 1 s.`,
        '',
        table(['window', 'first load', `median of ${RUNS}`, 'slowest', 'chart drawn, median (page clock)'], rows),
        '',
        'Where the time goes (Resource Timing in the page; "server" is the time to the first byte of the answer):',
        '',
        ...timelines,
        '',
        `Requests and bytes per page (a new document each time, the scripts already in the browser's cache; goal: at most 4 \`/v1\` requests on the overview). "API bytes" are the \`/v1\` bodies as sent (compressed where the server compressed them), "all bytes" every resource's body, scripts included:`,
        '',
        table(['page', '/v1 requests', 'API bytes', 'all bytes', 'settled in'], perPage),
      ].join('\n');
      updateReadmeSection('dashboard', section);
    });
  },
};

/** Every signed-in page once at 1280 px: its /v1 requests, their bytes, every resource's bytes. */
async function pageWeights(base: string, seed: Awaited<ReturnType<typeof seedProject>>): Promise<(string | number)[][]> {
  const prompts = await (await fetch(`${base}/v1/projects/${seed.projectId}/prompts`, { headers: { 'x-api-key': seed.apiKey } })).json();
  const promptId = prompts.data.prompts[0].id as string;
  const { page, close } = await signedInPage(base, seed, 1280);
  const rows: (string | number)[][] = [];
  try {
    for (const [name, url] of PAGES.filter(([n]) => n !== 'sign-in')) {
      // Once to warm the browser's cache of the page's scripts, then the load that is measured.
      await page.goto(url(seed.projectId, promptId));
      await page.waitForLoadState('networkidle');
      await page.goto('about:blank');
      const t0 = Date.now();
      await page.goto(url(seed.projectId, promptId));
      await page.waitForLoadState('networkidle');
      const settled = Date.now() - t0;
      const r = await page.evaluate(() => {
        const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        const api = res.filter((x) => new URL(x.name).pathname.startsWith('/v1/'));
        return { api: api.length, apiBytes: api.reduce((n, x) => n + x.encodedBodySize, 0), all: res.reduce((n, x) => n + x.encodedBodySize, 0) };
      });
      rows.push([name, r.api, `${fmt.int(r.apiBytes / 1024)} KB`, `${fmt.int(r.all / 1024)} KB`, `${settled} ms`]);
      console.log(`   ${name}: ${r.api} /v1 requests, ${fmt.int(r.apiBytes)} B from the API, ${fmt.int(r.all)} B in all, settled in ${settled} ms`);
    }
  } finally {
    await close();
  }
  return rows;
}

const PAGES: Array<[string, (p: string, prompt: string) => string]> = [
  ['sign-in', () => '/sign-in'],
  ['projects', () => '/projects'],
  ['overview', (p) => `/projects/${p}?days=90`],
  ['prompts', (p) => `/projects/${p}/prompts?days=30`],
  ['prompt-detail', (p, q) => `/projects/${p}/prompts/${q}?days=30`],
  ['competitors', (p) => `/projects/${p}/competitors?days=30`],
  ['sources', (p) => `/projects/${p}/sources?days=30`],
  ['actions', (p) => `/projects/${p}/actions`],
  ['alerts', (p) => `/projects/${p}/alerts`],
  ['project-settings', (p) => `/projects/${p}/settings`],
  ['settings', () => '/settings'],
];

/**
 * Every page of the router (web/src/pages/routes.tsx) for the screenshots: PAGES, and the
 * pages the weights table leaves out (signed out, the answers feed, crawlers, site audit,
 * team, audit log, an unknown address).
 */
const SCREENSHOT_PAGES: Array<[string, (p: string, prompt: string) => string]> = [
  // The signed-out pages together, so each browser signs in again once (sign-in is limited to 10 a minute).
  ['sign-in', () => '/sign-in'],
  ['create-account', () => '/create-account'],
  // The overview over 30 days: the 90-day seed then has a previous window, so the changes show.
  ...PAGES.filter(([name]) => name !== 'sign-in').map(([name, url]): [string, (p: string, prompt: string) => string] =>
    name === 'overview' ? [name, (p) => `/projects/${p}?days=30`] : [name, url],
  ),
  ['answers', (p) => `/projects/${p}/answers?days=30`],
  ['crawlers', (p) => `/projects/${p}/crawlers`],
  ['site-audit', (p) => `/projects/${p}/audit`],
  ['team', () => '/team'],
  ['team-audit', () => '/team/audit'],
  ['page-not-found', () => '/projects/not-a-page/at-all'],
];

export const screenshotSuite: Suite = {
  name: 'screenshots',
  description: 'docs/screenshots: every page of the router at 1280 and 390 px, light and dark, on a seeded project (90 days: the pages, not the speed)',
  async run() {
    const out = path.join(ROOT, 'docs', 'screenshots');
    fs.mkdirSync(out, { recursive: true });
    await withSeededService(async (base, seed) => {
      const prompts = await (await fetch(`${base}/v1/projects/${seed.projectId}/prompts`, { headers: { 'x-api-key': seed.apiKey } })).json();
      const promptId = prompts.data.prompts[0].id as string;
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const width of [1280, 390]) {
          const { page, close } = await signedInPage(base, seed, width, colorScheme);
          try {
            for (const [name, url] of SCREENSHOT_PAGES) {
              if (name === 'sign-in') await page.context().clearCookies();
              await page.goto(url(seed.projectId, promptId));
              await page.waitForLoadState('networkidle');
              await page.waitForTimeout(300);
              const tall = await page.evaluate(() => document.documentElement.scrollHeight);
              const file = `${name}-${width}${colorScheme === 'dark' ? '-dark' : ''}.png`;
              // Whole pages at 1280 px up to 2,400 px high; the first screen otherwise (and at 390 px).
              await page.screenshot({ path: path.join(out, file), fullPage: width === 1280 && tall <= 2400 });
              if (name === 'create-account') {
                const r = await page.context().request.post('/v1/session', { data: { email: seed.email, password: seed.password } });
                if (r.status() !== 201) throw new Error('sign-in failed');
              }
              console.log(`   ${file}`);
            }
          } finally {
            await close();
          }
        }
      }
    }, 90);
  },
};
