import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedProject, type SeedResult } from '../../src/collection/seed.js';
import { type BrowserApp, browserTestsOff, newPage, signIn, startBrowserApp } from './harness.js';

// Markets on the dashboard (issue 29): the market filter appears only for a project asked in
// two or more markets, narrows every figure to the market chosen (in the URL, so a link keeps
// it), and the prompt page shows and edits a prompt's markets and persona.

describe.skipIf(browserTestsOff)('markets in Chromium', () => {
  let b: BrowserApp;
  let many: SeedResult;
  let one: SeedResult;

  beforeAll(async () => {
    b = await startBrowserApp();
    many = await seedProject(b.t.runtime.ctx, { prompts: 2, providers: ['chatgpt', 'claude'], days: 10, competitors: 2, markets: ['US-en', 'DE-de'] });
    one = await seedProject(b.t.runtime.ctx, { prompts: 2, providers: ['chatgpt', 'claude'], days: 10, competitors: 2 });
  }, 180_000);
  afterAll(async () => b?.stop());

  it('a one-market project shows no market filter', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, one.email, one.password);
    await page.goto(`/projects/${one.projectId}?days=30`);
    await page.locator('[data-story]').waitFor();
    expect(await page.getByLabel('Market').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a project in two markets: the filter lists them by name and narrows every request to the one chosen', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, many.email, many.password);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/projects/')) asked.push(request.url());
    });
    await page.goto(`/projects/${many.projectId}?days=30`);
    const select = page.getByLabel('Market');
    await select.waitFor();
    expect(await select.locator('option').allInnerTexts()).toEqual(['All markets', 'Germany · German (DE-de)', 'United States · English (US-en)']);
    asked.length = 0;
    await select.selectOption('DE-de');
    await page.waitForURL(/market=DE-de/);
    await page.locator('[data-story]').filter({ hasText: 'in Germany · German' }).waitFor();
    const figures = asked.filter((url) => /\/(overview|visibility|competitors)/.test(url));
    expect(figures.length).toBeGreaterThan(0);
    expect(figures.every((url) => url.includes('market=DE-de'))).toBe(true);
    // back to every market
    await select.selectOption('');
    await page.waitForURL((url) => !url.search.includes('market='));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the prompt page shows its markets and persona, and an admin edits them (a bad code is said, not sent)', async () => {
    const { page, context, errors } = await newPage(b, 390);
    await signIn(page, many.email, many.password);
    const prompts = await fetch(`${b.base}/v1/projects/${many.projectId}/prompts`, { headers: { 'x-api-key': many.apiKey } });
    const promptId = ((await prompts.json()) as { data: { prompts: Array<{ id: string }> } }).data.prompts[0].id;
    await page.goto(`/projects/${many.projectId}/prompts/${promptId}`);
    const facts = page.locator('[data-prompt-markets]');
    await facts.waitFor();
    expect(await facts.innerText()).toContain('United States · English (US-en), Germany · German (DE-de)');
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Markets and persona' });
    await form.getByLabel('Markets').fill('US-en, Germany');
    await form.getByRole('button', { name: 'Save' }).click();
    expect(await form.getByRole('alert').innerText()).toContain('such as US-en, DE-de');
    await form.getByLabel('Markets').fill('US-en, fr-FR');
    await form.getByLabel('Persona (optional)').fill('A CFO at a 50-person firm');
    await form.getByRole('button', { name: 'Save' }).click();
    await facts.filter({ hasText: 'France · French (FR-fr)' }).waitFor();
    expect(await facts.innerText()).toContain('A CFO at a 50-person firm');
    const saved = await fetch(`${b.base}/v1/projects/${many.projectId}/prompts/${promptId}`, { headers: { 'x-api-key': many.apiKey } });
    expect(((await saved.json()) as { data: { markets: unknown; persona: string } }).data).toMatchObject({
      markets: [
        { country: 'US', language: 'en' },
        { country: 'FR', language: 'fr' },
      ],
      persona: 'A CFO at a 50-person firm',
    });
    // no sideways scroll at 390 px
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
