import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeedResult, seedProject } from '../../src/collection/seed.js';
import { type BrowserApp, browserTestsOff, newPage, signIn, startBrowserApp } from './harness.js';

// Issue 26: every list table of the dashboard is a ListTable (web/src/list-table.tsx). Here,
// in Chromium: each table sits in a scroll box that is named and that Tab reaches (a box that
// scrolls sideways must be reachable by keyboard); the prompts table sorts from the keyboard,
// with aria-sort saying how; a table without rows says so in one sentence; at 390 px a wide
// table scrolls inside its box, not the page.

/** The page once its queries have settled: no loading line left, the h1 shown. */
async function settled(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  await expect.poll(() => page.locator('[role="status"]', { hasText: /Loading…|Opening Sightline/ }).count(), { timeout: 20_000 }).toBe(0);
}

/** The data-table names whose scroll box Tab reached, pressing Tab from the top of the page until focus leaves main. */
async function tabbedTables(page: Page): Promise<string[]> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const reached = new Set<string>();
  for (let i = 0; i < 400; i++) {
    await page.keyboard.press('Tab');
    // One round trip per press: the table name of the focused box, if any, and whether focus is still on an element.
    const { name, inBody } = await page.evaluate(() => {
      const el = document.activeElement;
      return {
        name: el?.matches('.list-table-wrap') ? (el.querySelector('table')?.getAttribute('data-table') ?? '?') : null,
        inBody: el !== document.body && !!el,
      };
    });
    if (name) reached.add(name);
    if (!inBody && i > 5) break;
  }
  return [...reached];
}

describe.skipIf(browserTestsOff)('list tables (ListTable) in Chromium', () => {
  let b: BrowserApp;
  let seed: SeedResult;
  let promptId: string;

  beforeAll(async () => {
    b = await startBrowserApp();
    seed = await seedProject(b.t.runtime.ctx, { prompts: 4, providers: ['chatgpt', 'perplexity'], days: 12, competitors: 3 });
    const res = await fetch(`${b.base}/v1/projects/${seed.projectId}/prompts`, { headers: { 'x-api-key': seed.apiKey } });
    promptId = ((await res.json()) as { data: { prompts: Array<{ id: string }> } }).data.prompts[0].id;
    // A write by a key, so the team's audit log has an entry (and its table a row).
    const key = await fetch(`${b.base}/v1/keys`, { method: 'POST', headers: { 'x-api-key': seed.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ scope: 'viewer', name: 'list tables' }) });
    expect(key.status).toBe(201);
  }, 180_000);
  afterAll(async () => b?.stop());

  it('every table is in a named scroll region that Tab reaches', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    const pages = [
      '/projects',
      `/projects/${seed.projectId}?days=30`,
      `/projects/${seed.projectId}/prompts?days=30`,
      `/projects/${seed.projectId}/prompts/${promptId}?days=30`,
      `/projects/${seed.projectId}/competitors?days=30`,
      `/projects/${seed.projectId}/sources?days=30`,
      '/settings',
      '/team',
      '/team/audit',
    ];
    let tables = 0;
    for (const url of pages) {
      await page.goto(url);
      await settled(page);
      // Open the disclosures (summary table, chart tables) so their tables are counted too.
      await page.evaluate(() => {
        for (const d of document.querySelectorAll('details')) d.open = true;
      });
      await page.waitForFunction(() => [...document.querySelectorAll('details.chart-table')].every((d) => d.querySelector('table')));
      const boxes = await page.evaluate(() =>
        // (not list tables: an answer's own markdown tables, the engine's text; uPlot's legend)
        [...document.querySelectorAll('main table')].filter((table) => !table.closest('.answer-body, .uplot')).map((table) => {
          const box = table.closest('.list-table-wrap');
          return {
            table: table.getAttribute('data-table'),
            inBox: !!box,
            tabIndex: box?.getAttribute('tabindex') ?? null,
            role: box?.getAttribute('role') ?? null,
            name: box?.getAttribute('aria-label') ?? '',
            caption: table.querySelector('caption')?.textContent ?? '',
            where: box ? '' : (() => { const chain: string[] = []; for (let el: Element | null = table; el; el = el.parentElement) chain.push(`${el.tagName}.${el.className}`); return chain.join(' < '); })(),
          };
        }),
      );
      expect(boxes.length, `${url} has no table`).toBeGreaterThan(0);
      for (const box of boxes) {
        expect(box, `${url}: table ${box.table} ${box.where}`).toMatchObject({ inBox: true, tabIndex: '0', role: 'region' });
        expect(box.table, url).toMatch(/\S/);
        expect(box.name, `${url}: table ${box.table}`).toMatch(/\S/);
        expect(box.caption, `${url}: table ${box.table}`).toMatch(/\S/);
      }
      const reached = await tabbedTables(page);
      expect(new Set(reached), url).toEqual(new Set(boxes.map((box) => box.table)));
      tables += boxes.length;
      // The box shows a focus ring when focused by keyboard.
      await page.locator('.list-table-wrap').first().focus();
      const ring = await page.evaluate(() => {
        const style = getComputedStyle(document.activeElement as Element);
        return style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2;
      });
      expect(ring, url).toBe(true);
    }
    expect(tables).toBeGreaterThan(12);
    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);

  it('sorts the prompts table from the keyboard, with aria-sort', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}/prompts?days=30`);
    await page.locator('[data-table="prompts"] tbody tr').first().waitFor();
    const header = (key: string) => page.locator(`[data-table="prompts"] th:has(button[data-sort="${key}"])`);
    // Sorted by visibility, highest first, to begin with.
    expect(await header('visibility').getAttribute('aria-sort')).toBe('descending');
    expect(await header('position').getAttribute('aria-sort')).toBe('none');
    const positions = () =>
      page.locator('[data-table="prompts"] tbody tr').evaluateAll((rows) => rows.map((row) => Number.parseFloat(row.children[5]?.textContent ?? 'NaN')));
    const prompts = () => page.locator('[data-table="prompts"] tbody tr a').allInnerTexts();

    // A header is a button: focused, Enter sorts by it (numbers highest first) …
    await page.getByRole('button', { name: 'Position', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => header('position').getAttribute('aria-sort')).toBe('descending');
    expect(await header('visibility').getAttribute('aria-sort')).toBe('none');
    const down = await positions();
    expect(down).toEqual([...down].sort((x, y) => y - x));
    // … and Space turns the order round.
    await page.keyboard.press('Space');
    await expect.poll(() => header('position').getAttribute('aria-sort')).toBe('ascending');
    const up = await positions();
    expect(up).toEqual([...up].sort((x, y) => x - y));
    // Text columns start at A.
    await page.getByRole('button', { name: 'Prompt', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => header('content').getAttribute('aria-sort')).toBe('ascending');
    const names = await prompts();
    expect(names).toEqual([...names].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    // The focus stays on the header after sorting.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-sort'))).toBe('content');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a table without rows says so in one sentence', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    // No prompt matches the search: the table gives way to its sentence.
    await page.goto(`/projects/${seed.projectId}/prompts?days=30`);
    await page.locator('[data-table="prompts"] tbody tr').first().waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill('no prompt is called this');
    await page.locator('[data-empty-table="prompts"]').waitFor();
    expect(await page.locator('[data-empty-table="prompts"]').innerText()).toBe('No prompt matches.');
    expect(await page.locator('[data-table="prompts"]').count()).toBe(0);
    // No access log sent: the crawler agents table is its sentence.
    await page.goto(`/projects/${seed.projectId}/crawlers`);
    await page.locator('[data-empty-table="crawler-agents"]').waitFor();
    expect(await page.locator('[data-empty-table="crawler-agents"]').innerText()).toMatch(/^No AI crawler in the logs/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('at 390 px a wide table scrolls in its box, not the page', async () => {
    const { page, context, errors } = await newPage(b, 390);
    await signIn(page, seed.email, seed.password);
    for (const [url, table] of [
      [`/projects/${seed.projectId}/prompts?days=30`, 'prompts'],
      [`/projects/${seed.projectId}?days=30`, 'providers'],
      [`/projects/${seed.projectId}/competitors?days=30`, 'competitors'],
    ]) {
      await page.goto(url);
      await page.locator(`[data-table="${table}"] tbody tr`).first().waitFor();
      await settled(page);
      const box = await page.locator(`.list-table-wrap:has([data-table="${table}"])`).evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(box.scroll, `${table} is wider than its box`).toBeGreaterThan(box.client);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), url).toBeLessThanOrEqual(0);
      // The keyboard scrolls it: focus the box, press the right arrow.
      const wrap = page.locator(`.list-table-wrap:has([data-table="${table}"])`);
      await wrap.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => wrap.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
