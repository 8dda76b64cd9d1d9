import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedProject, type SeedResult } from '../../src/collection/seed.js';
import { createProject } from '../helpers.js';
import { type BrowserApp, browserTestsOff, newPage, signIn, startBrowserApp } from './harness.js';

// The dashboard's frame (issue 24): the sidebar's project switcher, the window as a
// segmented control, the engines as chips that never reach an empty selection, the drawer
// at 390 px by keyboard, the collapsed sidebar remembered, skeletons while data loads.

const DAY = 86_400_000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

describe.skipIf(browserTestsOff)('the frame in Chromium', () => {
  let b: BrowserApp;
  let seed: SeedResult;
  let second: string;

  const api = async (path: string) => {
    const res = await fetch(`${b.base}/v1${path}`, { headers: { 'x-api-key': seed.apiKey } });
    return (await res.json()) as { data: any };
  };

  beforeAll(async () => {
    b = await startBrowserApp();
    seed = await seedProject(b.t.runtime.ctx, { prompts: 2, providers: ['chatgpt', 'claude'], days: 20, competitors: 2 });
    second = await createProject(b.t.app, seed.apiKey, { brand_name: 'Pipewise', brand_url: 'https://pipewise.example' });
  }, 180_000);
  afterAll(async () => b?.stop());

  it('the project switcher lists the team’s projects, marks the current one and switches by keyboard', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}?days=30`);
    await page.getByRole('heading', { level: 1, name: /overview/ }).waitFor();
    // The sidebar marks the page shown; no underlined navigation link.
    const nav = page.getByRole('navigation', { name: 'Project' });
    expect(await nav.locator('[aria-current="page"]').innerText()).toBe('Overview');
    expect(await nav.getByRole('link', { name: 'Overview' }).evaluate((link) => getComputedStyle(link).textDecorationLine)).toBe('none');
    const button = page.getByRole('button', { name: /switch project/ });
    await button.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Projects' });
    await menu.getByRole('menuitemradio').nth(1).waitFor();
    const items = menu.getByRole('menuitemradio');
    expect(await items.count()).toBe(2);
    // Focus starts on the current project, which is checked; "New project" comes last.
    const current = menu.locator('[aria-checked="true"]');
    expect(await current.getAttribute('data-project')).toBe(seed.projectId);
    // Focus moves there once the list is in.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-project'))).toBe(seed.projectId);
    expect(await menu.locator('[role^="menuitem"]').last().innerText()).toBe('New project');
    // Esc closes it and gives focus back to the button.
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    await expect.poll(() => button.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('switcher-button'))).toBe(true);
    // Down arrow opens it again; move to the other project and press Enter.
    await page.keyboard.press('ArrowDown');
    await menu.locator(`[data-project="${second}"]`).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-project'))).toBe(seed.projectId);
    while ((await page.evaluate(() => document.activeElement?.getAttribute('data-project'))) !== second) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/projects/${second}`);
    await page.getByRole('heading', { level: 1, name: 'Pipewise: overview' }).waitFor();
    await page.getByRole('button', { name: /switch project/ }).click();
    expect(await page.getByRole('menu', { name: 'Projects' }).locator('[aria-checked="true"]').getAttribute('data-project')).toBe(second);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('the window is a radio group: a click or an arrow changes the URL and the figures', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}?days=30`);
    const windowGroup = page.getByRole('radiogroup', { name: 'Window' });
    await windowGroup.waitFor();
    expect(await windowGroup.getByRole('radio', { name: '30 days' }).getAttribute('aria-checked')).toBe('true');
    await windowGroup.getByRole('radio', { name: '7 days' }).click();
    await page.waitForURL((url) => url.searchParams.get('days') === '7');
    const figure = async (days: number) => {
      const summary = (await api(`/projects/${seed.projectId}/overview/summary?date_from=${dayOf(Date.now() - (days - 1) * DAY)}&date_to=${dayOf(Date.now())}`)).data;
      return summary.current.active_competitors.find((c: { is_own_brand: boolean }) => c.is_own_brand).metrics.visibility;
    };
    await expect.poll(() => page.locator('[data-kpi="Visibility"] .kpi-value').getAttribute('data-value'), { timeout: 20_000 }).toBe(String(await figure(7)));
    // Arrow keys move the choice (radio-group semantics): 7 → 30 days.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-window'))).toBe('7');
    await page.keyboard.press('ArrowRight');
    await page.waitForURL((url) => url.searchParams.get('days') === '30');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-window'))).toBe('30');
    await expect.poll(() => page.locator('[data-kpi="Visibility"] .kpi-value').getAttribute('data-value'), { timeout: 20_000 }).toBe(String(await figure(30)));
    // Custom shows the from / to inputs, the dates in the URL.
    await windowGroup.getByRole('radio', { name: 'Custom dates' }).click();
    await page.waitForURL((url) => url.searchParams.has('from') && url.searchParams.has('to') && !url.searchParams.has('days'));
    await page.getByLabel('From', { exact: true }).waitFor();
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(dayOf(Date.now()));
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('engine chips: turning off the last one turns every engine back on, never an empty selection', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}?days=30&providers=chatgpt,claude`);
    const chips = page.getByRole('group', { name: 'Engines' });
    await chips.waitFor();
    expect(await chips.getByLabel('All engines').isChecked()).toBe(false);
    await chips.getByLabel('Claude', { exact: true }).uncheck();
    await page.waitForURL((url) => url.searchParams.get('providers') === 'chatgpt');
    // The last chip on: unticking it is "all" again, not nothing.
    await chips.getByLabel('ChatGPT', { exact: true }).click();
    await page.waitForURL((url) => !url.searchParams.has('providers'));
    expect(await chips.getByLabel('All engines').isChecked()).toBe(true);
    // The chips are the engines the project tracks (the five of the contract, by default).
    for (const name of ['ChatGPT', 'Perplexity', 'Google AI Overviews', 'Gemini', 'Claude']) {
      expect(await chips.getByLabel(name, { exact: true }).isChecked()).toBe(true);
    }
    expect(await chips.getByLabel('Grok', { exact: true }).count()).toBe(0);
    // Each chip shows its engine's mark.
    // "Only" narrows to one engine: shown under a hovered chip (or on keyboard focus).
    await chips.getByLabel('Claude', { exact: true }).hover();
    await chips.getByRole('button', { name: 'Only Claude' }).click();
    await page.waitForURL((url) => url.searchParams.get('providers') === 'claude');
    expect(await chips.locator('[data-engine] .engine-mark').count()).toBe(5);
    // An engine the project does not track shows when a link names it, and one the project
    // starts tracking joins the chips.
    await page.goto(`/projects/${seed.projectId}?days=30&providers=grok`);
    await chips.getByLabel('Grok', { exact: true }).waitFor();
    expect(await chips.getByLabel('Grok', { exact: true }).isChecked()).toBe(true);
    const tracked = await fetch(`${b.base}/v1/projects/${seed.projectId}`, {
      method: 'PATCH',
      headers: { 'x-api-key': seed.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ providers: ['chatgpt', 'claude', 'copilot'] }),
    });
    expect(tracked.status).toBe(200);
    await page.goto(`/projects/${seed.projectId}?days=30`);
    await chips.getByLabel('Copilot', { exact: true }).waitFor();
    expect(await chips.locator('[data-engine]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-engine')))).toEqual(['chatgpt', 'claude', 'copilot']);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('at 390 px the sidebar is a drawer: opened by keyboard, focus kept inside, Esc closes it', async () => {
    const { page, context } = await newPage(b, 390);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}?days=30`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const menu = page.getByRole('button', { name: 'Menu' });
    const sidebar = page.locator('#site-menu');
    expect(await sidebar.isVisible()).toBe(false);
    await menu.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('link', { name: 'Competitors' }).waitFor({ state: 'visible' });
    // Focus moved into the drawer and Tab, forwards or back, never leaves it.
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press(i < 14 ? 'Tab' : 'Shift+Tab');
      await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('#site-menu'))).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Menu');
    await expect.poll(() => sidebar.isVisible()).toBe(false);
    // Opened again, a link is followed by keyboard and the drawer closes.
    await page.keyboard.press('Enter');
    // the drawer opens on the next frame: focusing its link before then moves no focus
    await page.getByRole('link', { name: 'Sources' }).waitFor({ state: 'visible' });
    await page.getByRole('link', { name: 'Sources' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Sources' }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await context.close();
  }, 120_000);

  it('at 1280 px the sidebar collapses to its icons and stays so after a reload', async () => {
    const { page, context } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}/prompts`);
    await page.getByRole('heading', { level: 1, name: 'Prompts' }).waitFor();
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Prompts' }).waitFor();
    expect(await page.locator('.frame.collapsed').count()).toBe(1);
    const width = await page.locator('#site-menu').evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeLessThan(80);
    // The links keep their names (read out, shown as a tooltip) and the current page is marked.
    expect(await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Prompts' }).getAttribute('aria-current')).toBe('page');
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    expect(await page.locator('.frame.collapsed').count()).toBe(0);
    await context.close();
  }, 120_000);

  it('skeletons, not a spinner, while a slow request is pending', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/v1\/projects\/[^/]+\/(overview\/summary|visibility)\?/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/projects/${seed.projectId}?days=14`);
    const kpis = page.locator('[data-skeleton="kpis"]');
    await kpis.waitFor();
    expect(await kpis.getAttribute('aria-busy')).toBe('true');
    expect(await kpis.getAttribute('role')).toBe('status');
    expect(await kpis.innerText()).toContain('Loading');
    expect(await page.locator('[data-skeleton="chart"]').count()).toBe(1);
    expect(await page.locator('[data-skeleton="table"]').count()).toBe(1);
    expect(await page.locator('.kpi-value').count()).toBe(0);
    release();
    await page.locator('[data-kpi="Visibility"] .kpi-value').waitFor();
    await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
