import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserApp, browserTestsOff, newPage, startBrowserApp } from './harness.js';

// A new marketer's first minute, in Chromium: create an account, create a project from
// "Brand" and "Website" alone (the callback URL tucked under "Advanced"), see what the setup
// found (competitors to keep or drop, prompts, suggestions), the first answers as
// formatted text, and the overview's chart, all within 60 s of "Create project".

describe.skipIf(browserTestsOff)('onboarding in Chromium', () => {
  let b: BrowserApp;
  beforeAll(async () => {
    b = await startBrowserApp(); // simulated engines, workers on: the bootstrap runs
  }, 120_000);
  afterAll(async () => b?.stop());

  it('brand + website alone: the first answers and a chart within a minute', async () => {
    const { page, context, errors } = await newPage(b);
    await page.goto('/create-account');
    await page.getByLabel('Email').fill(`marketer-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();

    const form = page.getByRole('form', { name: 'New project' });
    // what a marketer is asked: Brand and Website; the callback URL only under Advanced
    expect(await form.getByLabel('Callback URL').isVisible()).toBe(false);
    await form.getByLabel('Brand', { exact: true }).fill('Lumen Coffee');
    await form.getByLabel('Website').fill('https://lumen-coffee.example');
    const started = Date.now();
    await form.getByRole('button', { name: 'Create project' }).click();

    await page.locator('[data-bootstrap="completed"]').waitFor({ timeout: 60_000 });
    // what the setup found, to keep or drop
    const prompts = page.getByRole('list', { name: 'Prompts written for the brand' });
    await expect.poll(() => prompts.locator('li').count()).toBeGreaterThan(0);
    const accept = prompts.getByRole('button', { name: 'Accept' });
    if (await accept.count()) {
      const before = await prompts.locator('li[data-prompt-type="active"]').count();
      await accept.first().click();
      await expect.poll(() => prompts.locator('li[data-prompt-type="active"]').count()).toBe(before + 1);
    }
    const rivals = page.getByRole('list', { name: 'Competitors tracked' });
    // the competitors are in: named, or said to be none
    await rivals.locator('li').or(page.getByText('No competitor named in the first answers', { exact: false })).first().waitFor();
    const found = await rivals.locator('li').count();
    if (found > 1) {
      const name = (await rivals.locator('li strong').first().textContent()) ?? '';
      await rivals.getByRole('button', { name: `Remove ${name}` }).click();
      await expect.poll(() => rivals.locator('li').count()).toBe(found - 1);
    }
    await page.getByRole('heading', { name: 'Suggested competitors' }).waitFor();
    // the first answers, rendered as formatted text
    const first = page.locator('article.answer .answer-body').first();
    await first.waitFor();
    expect((await first.innerHTML()).length).toBeGreaterThan(0);
    expect(await page.locator('article.answer .answer-body script').count()).toBe(0);

    await page.getByRole('link', { name: 'open its overview' }).click();
    await page.locator('[data-chart]').first().waitFor({ timeout: Math.max(1000, 60_000 - (Date.now() - started)) });
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(errors).toEqual([]);
    await context.close();
  });
});
