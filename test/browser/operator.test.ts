import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeedResult, seedProject } from '../../src/collection/seed.js';
import { type BrowserApp, browserTestsOff, newPage, signIn, startBrowserApp } from './harness.js';

// Issue 24 in a real browser: browsing every page twice at 1280 and 390 px draws no 429
// (the dashboard has its own per-session budget), an overview load makes at most 4 /v1
// requests, simulated data is flagged with the key that makes each engine live, unknown
// paths say "Page not found", day one reads well, "All engines" is a choice of its own,
// the credits say what they buy, and a 429 on GET /session says when it will retry.

const settle = async (page: Page) => {
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  await expect.poll(() => page.locator('main').innerText(), { timeout: 30_000 }).not.toMatch(/Loading…|Loading the page|Opening Sightline/);
};

describe.skipIf(browserTestsOff)('the dashboard for a marketing team’s first week', () => {
  let b: BrowserApp;
  let seed: SeedResult;
  let dayOne: SeedResult;
  let promptId: string;

  beforeAll(async () => {
    b = await startBrowserApp();
    seed = await seedProject(b.t.runtime.ctx, { prompts: 3, providers: ['chatgpt', 'claude'], days: 40, competitors: 3 });
    dayOne = await seedProject(b.t.runtime.ctx, { prompts: 2, providers: ['chatgpt', 'claude'], days: 1, competitors: 2 });
    const prompts = await fetch(`${b.base}/v1/projects/${seed.projectId}/prompts`, { headers: { 'x-api-key': seed.apiKey } }).then((r) => r.json());
    promptId = (prompts.data.prompts ?? prompts.data)[0].id;
  }, 300_000);
  afterAll(async () => b?.stop());

  it('every page twice at 1280 and 390 px: no 429; an overview load makes at most 4 /v1 requests', async () => {
    const p = `/projects/${seed.projectId}`;
    const pages = ['/projects', '/settings', '/team', '/team/audit', p, `${p}/prompts`, `${p}/prompts/${promptId}`, `${p}/competitors`, `${p}/sources`, `${p}/actions`, `${p}/settings`];
    let limited = 0;
    for (const width of [1280, 390]) {
      const { page, context, errors } = await newPage(b, width);
      page.on('response', (r) => {
        if (r.status() === 429) limited++;
      });
      await signIn(page, seed.email, seed.password);
      for (let round = 0; round < 2; round++) {
        for (const path of pages) {
          await page.goto(path);
          await settle(page);
        }
      }
      // A fresh load of the overview: count what it asks of the API.
      const asked: string[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname.startsWith('/v1/')) asked.push(new URL(r.url()).pathname);
      });
      await page.goto('about:blank');
      await page.goto(`${p}?days=30`);
      await page.locator('[data-chart="Visibility over time"][data-drawn="true"]').waitFor({ timeout: 60_000 });
      await page.locator('[data-kpi="Visibility"]').waitFor();
      await settle(page);
      expect(asked.length, asked.join(', ')).toBeLessThanOrEqual(4);
      expect(asked).toContain(`/v1/projects/${seed.projectId}/overview/summary`);
      // The per-engine table is filled from that one read.
      expect(await page.locator('[data-table="providers"] tbody tr').count()).toBe(5);
      expect(errors).toEqual([]);
      await context.close();
    }
    expect(limited).toBe(0);
  }, 600_000);

  it('simulated engines are flagged on every project page, with the key that makes each live', async () => {
    const { page, context } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    for (const tab of ['', '/prompts', '/competitors', '/sources', '/actions', '/settings']) {
      await page.goto(`/projects/${seed.projectId}${tab}`);
      const notice = page.locator('[data-simulated]');
      await notice.waitFor();
      const text = await notice.innerText();
      expect(text).toContain('simulated');
      expect(text).toContain('OPENAI_API_KEY');
      expect(text).toContain('ANTHROPIC_API_KEY');
    }
    // Not on pages outside a project.
    await page.goto('/settings');
    await settle(page);
    expect(await page.locator('[data-simulated]').count()).toBe(0);
    await context.close();
  }, 180_000);

  it('unknown paths say "Page not found" with a way home; /chats opens the answers', async () => {
    const { page, context } = await newPage(b, 390);
    await signIn(page, seed.email, seed.password);
    for (const path of ['/no-such-page', `/projects/${seed.projectId}/no-such-tab`]) {
      await page.goto(path);
      await page.getByRole('heading', { name: 'Page not found', level: 1 }).waitFor();
      expect(await page.getByText('Not built yet').count()).toBe(0);
    }
    await page.getByRole('link', { name: 'Go to your projects' }).click();
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    await page.goto(`/projects/${seed.projectId}/chats`);
    await page.waitForURL(`**/projects/${seed.projectId}/answers`);
    expect(await page.getByText('Not built yet').count()).toBe(0);
    await context.close();
  }, 120_000);

  it('day one: bars with "First data today", one "No earlier period to compare" line, "All engines" checked', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, dayOne.email, dayOne.password);
    await page.goto(`/projects/${dayOne.projectId}?days=30`);
    const bars = page.locator('[data-first-day]');
    await bars.waitFor({ timeout: 60_000 });
    expect(await bars.innerText()).toContain('First data today');
    expect(await bars.locator('li').count()).toBeGreaterThan(1);
    expect(await page.locator('[data-chart="Visibility over time"].chart').count()).toBe(0);
    await page.locator('[data-kpi="Visibility"]').waitFor();
    expect(await page.locator('[data-no-previous]').count()).toBe(1);
    expect(await page.locator('[data-no-previous]').innerText()).toMatch(/^No earlier period to compare/);
    expect(await page.getByText('no previous window').count()).toBe(0);
    // "All engines" is explicit, and choosing one engine turns it off.
    const all = page.getByLabel('All engines');
    expect(await all.isChecked()).toBe(true);
    expect(await page.getByLabel('Claude', { exact: true }).isChecked()).toBe(true);
    await page.getByLabel('Claude', { exact: true }).uncheck();
    await page.waitForURL(/providers=/);
    expect(await all.isChecked()).toBe(false);
    expect(await page.getByLabel('Claude', { exact: true }).isChecked()).toBe(false);
    expect(await page.getByLabel('ChatGPT', { exact: true }).isChecked()).toBe(true);
    await all.check();
    await page.waitForURL((u) => !u.searchParams.has('providers'));
    expect(await page.getByLabel('Claude', { exact: true }).isChecked()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('settings: the credits left, what a day of tracking costs, the days it buys and the reset', async () => {
    const { page, context } = await newPage(b, 390);
    await signIn(page, seed.email, seed.password);
    await page.goto('/settings');
    const box = page.locator('[data-team-credits-left]');
    await box.waitFor();
    const credits = await fetch(`${b.base}/v1/team/credits`, { headers: { 'x-api-key': seed.apiKey } }).then((r) => r.json());
    expect(await box.getAttribute('data-team-credits-left')).toBe(String(credits.data.credits_left));
    const text = await box.innerText();
    expect(text).toContain(`A day of tracking costs ${credits.data.credits_per_day} credits`);
    expect(text).toMatch(/They reset on \d{1,2} \w+ \d{4}/);
    await context.close();
  }, 120_000);

  it('a 429 on GET /session says when it retries, then opens the dashboard', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    let refused = 0;
    await page.route('**/v1/session', async (route: Route) => {
      if (route.request().method() === 'GET' && refused === 0) {
        refused++;
        await route.fulfill({ status: 429, headers: { 'content-type': 'application/json', 'retry-after': '2' }, body: JSON.stringify({ detail: 'Rate limit exceeded. Retry after 2 seconds.' }) });
        return;
      }
      await route.continue();
    });
    await page.goto('/projects');
    const notice = page.locator('[data-rate-limited]');
    await notice.waitFor();
    expect(await notice.innerText()).toMatch(/tries again at/);
    expect(await page.getByText('Opening Sightline').count()).toBe(1);
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor({ timeout: 15_000 });
    expect(refused).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
