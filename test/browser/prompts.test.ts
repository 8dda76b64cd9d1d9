import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedProject, type SeedResult } from '../../src/collection/seed.js';
import { storeSpecs, type AnswerSpec } from '../analytics-fixture.js';
import { type BrowserApp, browserTestsOff, newPage, signIn, startBrowserApp } from './harness.js';

// The prompts page (sparklines, topics), the competitor suggestions and the choice of
// engines, in Chromium; every figure on the page is compared with what the API answers
// for the same window.

const DAY = 86_400_000;
const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);

describe.skipIf(browserTestsOff)('prompts, topics, suggestions and engines in Chromium', () => {
  let b: BrowserApp;
  let seed: SeedResult;

  const api = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await fetch(`${b.base}/v1${path}`, {
      method: init.method ?? 'GET',
      headers: { 'x-api-key': seed.apiKey, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    return (await res.json()) as { data: any };
  };

  beforeAll(async () => {
    b = await startBrowserApp();
    seed = await seedProject(b.t.runtime.ctx, { prompts: 3, providers: ['chatgpt', 'perplexity'], days: 20, competitors: 3 });
    // Gemini answers (an engine the seed did not ask) naming an untracked brand, Attio, and
    // citing its site: a brand that recurs in the window, whatever the simulated answers name.
    const prompts = (await api(`/projects/${seed.projectId}/prompts`)).data.prompts as Array<{ id: string }>;
    const specs: AnswerSpec[] = prompts.flatMap((p) =>
      Array.from({ length: 10 }, (_, i) => ({
        prompt: p.id,
        provider: 'gemini' as const,
        day: dayOf(Date.now() - i * DAY),
        text: '- **Attio**: a modern CRM. Attio syncs email.\n- **Acme CRM**: simple.',
        cites: [{ url: 'https://attio.com/', domain: 'attio.com', category: 0, urlType: 0 }],
      })),
    );
    await storeSpecs(b.t, seed.projectId, specs, 'acmecrm.com');
  }, 180_000);
  afterAll(async () => b?.stop());

  it('draws a sparkline per prompt with the daily visibility the API gives, and offers every engine the project tracks as a filter', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}/prompts?days=14`);
    const today = dayOf(Date.now());
    const series = (await api(`/projects/${seed.projectId}/prompts/series?date_from=${dayOf(Date.now() - 13 * DAY)}&date_to=${today}`)).data;
    expect(series.dates).toHaveLength(14);
    expect(series.prompts.length).toBe(3);
    await expect.poll(() => page.locator('[data-table="prompts"] svg[data-sparkline]').count()).toBe(series.prompts.length);
    for (const s of series.prompts) {
      expect(s.responses.reduce((x: number, y: number) => x + y, 0)).toBeGreaterThan(0);
      const shown = await page.locator(`tr[data-prompt="${s.prompt_id}"] [data-sparkline]`).getAttribute('data-values');
      expect(shown).toBe(s.visibility.map((v: number | null) => (v === null ? '' : String(v))).join(','));
    }
    // A provider filter changes the series (Gemini here: only the answers added above).
    await page.getByRole('group', { name: 'Engines' }).getByLabel('Gemini', { exact: true }).hover();
    await page.getByRole('group', { name: 'Engines' }).getByRole('button', { name: 'Only Gemini' }).click();
    const gemini = (await api(`/projects/${seed.projectId}/prompts/series?date_from=${dayOf(Date.now() - 13 * DAY)}&date_to=${today}&providers=gemini`)).data;
    const first = gemini.prompts[0];
    await expect
      .poll(() => page.locator(`tr[data-prompt="${first.prompt_id}"] [data-sparkline]`).getAttribute('data-values'))
      .toBe(first.visibility.map((v: number | null) => (v === null ? '' : String(v))).join(','));
    for (const name of ['ChatGPT', 'Perplexity', 'Google AI Overviews', 'Gemini', 'Claude']) {
      expect(await page.getByRole('group', { name: 'Engines' }).getByLabel(name, { exact: true }).count()).toBe(1);
    }
    // not an engine the project does not track
    expect(await page.getByRole('group', { name: 'Engines' }).getByLabel('Grok', { exact: true }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('creates, renames and deletes a topic, and assigns a prompt to it', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}/prompts`);
    await page.locator('[data-table="prompts"]').waitFor();
    await page.getByLabel('Topic name').fill('Browser topic');
    await page.getByRole('button', { name: 'Add topic' }).click();
    await page.locator('[data-table="topics"] tr[data-topic="Browser topic"]').waitFor();
    const topic = ((await api(`/projects/${seed.projectId}/topics`)).data as any[]).find((t) => t.name === 'Browser topic');
    expect(topic).toBeTruthy();

    const prompt = (await api(`/projects/${seed.projectId}/prompts`)).data.prompts[0];
    const before = prompt.topic_id;
    await page.getByLabel(`Topic of ${prompt.content}`).selectOption({ label: 'Browser topic' });
    await expect.poll(async () => (await api(`/projects/${seed.projectId}/prompts/${prompt.id}`)).data.topic_id).toBe(topic.topic_id);
    await expect.poll(() => page.locator('tr[data-topic="Browser topic"] td').first().innerText()).toBe('1');

    const row = page.locator('tr[data-topic="Browser topic"]');
    await row.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('New name for Browser topic').fill('Browser topic renamed');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('tr[data-topic="Browser topic renamed"]').waitFor();
    expect(((await api(`/projects/${seed.projectId}/topics`)).data as any[]).map((t) => t.name)).toContain('Browser topic renamed');

    // Deleting a topic that holds a prompt moves the prompt to the topic chosen in its row.
    const renamed = page.locator('tr[data-topic="Browser topic renamed"]');
    await renamed.getByRole('button', { name: 'Delete topic Browser topic renamed' }).click();
    await renamed.getByLabel('Move its 1 prompt to').selectOption(before);
    await renamed.getByRole('button', { name: 'Move and delete' }).click();
    await page.locator('tr[data-topic="Browser topic renamed"]').waitFor({ state: 'detached' });
    const topics = (await api(`/projects/${seed.projectId}/topics`)).data as any[];
    expect(topics.map((t) => t.topic_id)).not.toContain(topic.topic_id);
    expect((await api(`/projects/${seed.projectId}/prompts/${prompt.id}`)).data.topic_id).toBe(before);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('offers recurring untracked brands as suggestions with the API figures, and tracks one in one click', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}/competitors?days=30`);
    const q = `date_from=${dayOf(Date.now() - 29 * DAY)}&date_to=${dayOf(Date.now())}`;
    const s = (await api(`/projects/${seed.projectId}/competitors/suggestions?${q}`)).data;
    const attio = s.suggestions.find((x: any) => x.name === 'Attio');
    expect(attio).toMatchObject({ website: 'attio.com', answers: 30 });
    await page.locator('[data-table="suggestions"]').waitFor();
    expect(await page.locator('[data-table="suggestions"] tbody tr').count()).toBe(s.suggestions.length);
    for (const x of s.suggestions) {
      expect(await page.locator(`tr[data-suggestion="${x.name}"] td[data-value]`).getAttribute('data-value')).toBe(String(x.share_of_answers));
    }
    await page.getByRole('button', { name: 'Track Attio' }).click();
    await page.locator('[data-table="competitors"] tr[data-competitor="Attio"]').waitFor();
    await page.locator('tr[data-suggestion="Attio"]').waitFor({ state: 'detached' });
    const list = (await api(`/projects/${seed.projectId}/competitors?${q}`)).data.active_competitors;
    expect(list.find((c: any) => c.name === 'Attio')?.website).toMatch(/attio\.com/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('stores the engines chosen at project creation, and changes them in project settings', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    const engines = page.getByRole('group', { name: 'AI engines to track' });
    // The five of the contract are ticked by default.
    for (const name of ['ChatGPT', 'Perplexity', 'Google AI Overviews', 'Gemini', 'Claude']) expect(await engines.getByLabel(name, { exact: true }).isChecked()).toBe(true);
    for (const name of ['Google AI Mode', 'Grok', 'Copilot']) expect(await engines.getByLabel(name, { exact: true }).isChecked()).toBe(false);
    await page.getByLabel('Brand', { exact: true }).fill('Engine Choice Co');
    await page.getByRole('form', { name: 'New project' }).getByLabel('Website').fill('https://enginechoice.example.org');
    // a marketer needs no callback: it stays under Advanced, empty
    await engines.getByLabel('Gemini', { exact: true }).uncheck();
    await engines.getByLabel('Claude', { exact: true }).uncheck();
    await engines.getByLabel('Grok', { exact: true }).check();
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.locator('[data-bootstrap="completed"], [data-bootstrap="error"]').waitFor({ timeout: 60_000 });
    const projects = (await api('/projects')).data as any[];
    const created = projects.find((p) => p.name === 'Engine Choice Co');
    const detail = (await api(`/projects/${created.id}`)).data;
    expect(detail.providers).toEqual(['chatgpt', 'perplexity', 'google_ai_overview', 'grok']);

    await page.goto(`/projects/${created.id}/settings`);
    const settings = page.getByRole('group', { name: 'Engines tracked' });
    await settings.getByLabel('Grok', { exact: true }).waitFor();
    expect(await settings.getByLabel('Grok', { exact: true }).isChecked()).toBe(true);
    expect(await settings.getByLabel('Claude', { exact: true }).isChecked()).toBe(false);
    await settings.getByLabel('Copilot', { exact: true }).check();
    await settings.getByLabel('Perplexity', { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await api(`/projects/${created.id}`)).data.providers).toEqual(['chatgpt', 'google_ai_overview', 'grok', 'copilot']);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);
});
