import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedProject, type SeedResult } from '../../src/collection/seed.js';
import { encodeAnswerBody } from '../../src/modules/answers/answer-body.js';
import { createAccount, createProject, type Account } from '../helpers.js';
import { type BrowserApp, browserTestsOff, newPage, signIn, signInWithKey, startBrowserApp } from './harness.js';

// The dashboard in a real browser (Debian's Chromium): every check compares what the page
// shows with what the API answers for the same request.

describe.skipIf(browserTestsOff)('dashboard in Chromium', () => {
  let b: BrowserApp;
  let seed: SeedResult;
  let other: Account;
  let otherProject: string;

  const api = async (key: string, path: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await fetch(`${b.base}/v1${path}`, {
      method: init.method ?? 'GET',
      headers: { 'x-api-key': key, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as { data: any } };
  };

  beforeAll(async () => {
    b = await startBrowserApp();
    seed = await seedProject(b.t.runtime.ctx, { prompts: 4, providers: ['chatgpt', 'perplexity', 'claude'], days: 60, competitors: 3 });
    other = await createAccount(b.t.app);
    otherProject = await createProject(b.t.app, other.key, { brand_name: 'Otherco', brand_url: 'https://otherco.com' });
  }, 180_000);
  afterAll(async () => b?.stop());

  it('signs in with email and password, keeps no key in storage, and signs out', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password, { fresh: true });
    await expect.poll(() => page.getByRole('link', { name: 'Acme CRM' }).count()).toBe(1);
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'sightline_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Strict');
    expect(await page.evaluate(() => document.cookie)).not.toContain('sightline_session');
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(stored).not.toContain(seed.apiKey);
    expect(stored).not.toMatch(/tk_live_|sls_/);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // The old cookie no longer works.
    const res = await fetch(`${b.base}/v1/projects`, { headers: { cookie: `sightline_session=${session?.value}` } });
    expect(res.status).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('creates an account, then a project, and shows the bootstrap until it completes', async () => {
    const { page, context, errors } = await newPage(b);
    await page.goto('/create-account');
    await page.getByLabel('Email').fill(`browser-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByLabel('Generated password').inputValue()).toMatch(/^[0-9A-Za-z]{24}$/);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Projects', level: 1 }).waitFor();
    const form = page.getByRole('form', { name: 'New project' });
    await form.getByLabel('Brand', { exact: true }).fill('Zephyr Bikes');
    await form.getByLabel('Website').fill('https://zephyrbikes.com');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.locator('[data-bootstrap="completed"], [data-bootstrap="error"]').waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-bootstrap]').getAttribute('data-bootstrap')).toBe('completed');
    await page.getByRole('link', { name: 'open its overview' }).click();
    await page.getByRole('heading', { name: /Zephyr Bikes: overview/ }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('draws the overview of a seeded project with the numbers the API gives, window and providers in the URL', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}?days=30&providers=chatgpt,claude`);
    await page.locator('[data-chart="Visibility over time"][data-drawn="true"]').waitFor();
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
    const q = `?date_from=${from}&date_to=${today}&providers=chatgpt,claude`;
    const own = (await api(seed.apiKey, `/projects/${seed.projectId}/competitors${q}`)).json.data.active_competitors.find((c: any) => c.is_own_brand).metrics;
    expect(own.responses).toBeGreaterThan(0);
    await expect.poll(() => page.locator('[data-kpi="Visibility"] .kpi-value').getAttribute('data-value')).toBe(String(own.visibility));
    expect(await page.locator('[data-kpi="Visibility"]').innerText()).toContain(`${own.visibility_ci[0].toFixed(1)}–${own.visibility_ci[1].toFixed(1)}`);
    expect(await page.locator('[data-kpi="Share of voice"] .kpi-value').innerText()).toBe(`${own.share_of_voice.toFixed(1)}%`);
    // The per-provider table: one row per chosen provider, each as the API gives it.
    expect(await page.locator('[data-table="providers"] tbody tr').count()).toBe(2);
    const claude = (await api(seed.apiKey, `/projects/${seed.projectId}/competitors?date_from=${from}&date_to=${today}&providers=claude`)).json.data.active_competitors.find((c: any) => c.is_own_brand).metrics;
    await expect.poll(() => page.locator('[data-provider="claude"] td').first().getAttribute('data-value')).toBe(String(claude.visibility));
    // The chart's data table: each brand's last day as the visibility endpoint gives it.
    const vis = (await api(seed.apiKey, `/projects/${seed.projectId}/visibility${q}`)).json.data;
    for (const s of vis.series) {
      const last = s.visibility.findLastIndex((v: number | null) => v !== null);
      const cell = page.locator(`[data-table="visibility-summary"] tr[data-brand="${s.name}"] td[data-value]`);
      expect(await cell.getAttribute('data-value')).toBe(String(s.visibility[last]));
    }
    // The URL holds the view: a reload shows the same window and providers.
    await page.reload();
    await page.locator('[data-chart="Visibility over time"][data-drawn="true"]').waitFor();
    expect(await page.getByLabel('ChatGPT', { exact: true }).isChecked()).toBe(true);
    expect(await page.getByLabel('Perplexity', { exact: true }).isChecked()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('adds a prompt from the prompts page', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}/prompts`);
    await page.locator('[data-table="prompts"]').waitFor();
    await page.getByLabel('New prompts').fill('Which CRM do browser tests prefer?');
    await page.getByRole('button', { name: 'Add prompts' }).click();
    await page.getByRole('link', { name: 'Which CRM do browser tests prefer?' }).waitFor();
    const list = (await api(seed.apiKey, `/projects/${seed.projectId}/prompts`)).json.data.prompts;
    expect(list.map((p: any) => p.content)).toContain('Which CRM do browser tests prefer?');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a viewer session sees everything and cannot write', async () => {
    const key = (await api(seed.apiKey, '/keys', { method: 'POST', body: { scope: 'viewer' } })).json.data.api_key;
    const { page, context } = await newPage(b);
    await signInWithKey(page, key);
    await page.goto(`/projects/${seed.projectId}/prompts`);
    await page.locator('[data-table="prompts"]').waitFor();
    expect(await page.getByRole('button', { name: 'Add prompts' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Delete' }).first().isDisabled()).toBe(true);
    // Even a hand-made request from the page, with the session's CSRF token, is refused.
    const status = await page.evaluate(async (pid) => {
      const s = await (await fetch('/v1/session')).json();
      const r = await fetch(`/v1/projects/${pid}/prompts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': s.data.csrf_token },
        body: JSON.stringify({ prompts: ['viewer write'], topicId: '00000000-0000-4000-8000-000000000000' }),
      });
      return r.status;
    }, seed.projectId);
    expect(status).toBe(403);
    await context.close();
  });

  it("another team's project is not reachable by its URL", async () => {
    const { page, context } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    // The project's own read is held, so the panels' reads are refused first.
    let release = () => {};
    const released = new Promise<void>((done) => (release = done));
    await page.route(
      (url) => url.pathname === `/v1/projects/${otherProject}`,
      async (route) => {
        await released;
        await route.continue();
      },
    );
    await page.goto(`/projects/${otherProject}`);
    const denied = page.getByRole('alert').filter({ hasText: 'Not allowed: Project does not belong to your team' });
    await denied.first().waitFor();
    // said once for the page, whichever request met it first, not in every panel
    await expect.poll(() => page.getByRole('alert').count()).toBe(1);
    release();
    await page.waitForResponse((response) => new URL(response.url()).pathname === `/v1/projects/${otherProject}`);
    expect(await page.getByRole('alert').count()).toBe(1);
    expect(await denied.count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Your projects' }).getAttribute('href')).toBe('/projects');
    expect(await page.content()).not.toContain('Otherco');
    await context.close();
  });

  it('shows an answer holding HTML as text, never as markup', async () => {
    const payload = '<img src=x onerror=alert(1)> and <script>alert(2)</script> for Acme CRM';
    const { rows } = await b.t.runtime.ctx.store.query<{ id: string; prompt_id: string }>(
      `update responses set body = decode($2, 'base64') where id = (select id from responses where project_id = $1 order by collected_at desc limit 1) returning id, prompt_id`,
      [seed.projectId, encodeAnswerBody({ text: payload, references: [], searchQueries: [], raw: null }).toString('base64')],
    );
    const { page, context, errors, dialogs } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}/prompts/${rows[0].prompt_id}?days=365`);
    const answer = page.locator(`[data-answer="${rows[0].id}"] .answer-body`);
    await answer.waitFor();
    expect(await answer.innerText()).toBe(payload);
    expect(await page.locator('.answer-body img, .answer-body script').count()).toBe(0);
    expect(await answer.locator('mark.own').first().innerText()).toBe('Acme CRM');
    await page.waitForTimeout(200);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('downloads CSV that matches the API (competitors table)', async () => {
    const { page, context } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}/competitors?days=30`);
    await page.locator('[data-table="competitors"]').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = fs.readFileSync((await download.path()) as string, 'utf8').trim().split('\r\n');
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
    const list = (await api(seed.apiKey, `/projects/${seed.projectId}/competitors?date_from=${from}&date_to=${today}`)).json.data.active_competitors;
    expect(csv[0]).toBe('competitor_id,name,website,own_brand,visibility,visibility_ci_low,visibility_ci_high,share_of_voice,position,sentiment,mentions,responses');
    expect(csv.length).toBe(list.length + 1);
    for (const c of list) {
      const row = csv.find((line) => line.startsWith(c.competitor_id))?.split(',');
      expect(row?.[1]).toBe(c.name);
      expect(Number(row?.[4])).toBe(c.metrics.visibility);
      expect(Number(row?.[7])).toBe(c.metrics.share_of_voice);
      expect(Number(row?.[11])).toBe(c.metrics.responses);
    }
    await context.close();
  });

  it('creates an API key, shows it once to copy, deactivates it', async () => {
    const { page, context } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto('/settings');
    await page.getByLabel('Key name').fill('browser key');
    await page.getByLabel('Scope').selectOption('viewer');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = await page.getByLabel('New API key (shown once)').inputValue();
    expect(shown).toMatch(/^tk_live_/);
    expect((await api(shown, '/projects')).status).toBe(200);
    const row = page.locator('[data-table="keys"] tr', { hasText: 'browser key' });
    await row.getByRole('button', { name: 'Deactivate' }).click();
    await row.getByText('inactive').waitFor();
    b.t.runtime.http!.authCache.clear();
    expect((await api(shown, '/projects')).status).toBe(401);
    await context.close();
  });

  it('moves an action through its states on the board', async () => {
    const created = await api(seed.apiKey, `/projects/${seed.projectId}/actions`, {
      method: 'POST',
      body: { title: 'Publish a CRM comparison page', description: 'Compare Acme CRM with the others.', category: 'new_content', priority: 'high', execution: { type: 'publishable_content' } },
    });
    expect(created.status).toBe(201);
    const id = created.json.data.id as string;
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}/actions`);
    for (const [button, column] of [['Accept', 'accepted'], ['Start', 'in_progress'], ['Complete', 'completed']]) {
      await page.locator(`[data-action="${id}"]`).getByRole('button', { name: button }).click();
      await page.locator(`[data-column="${column}"] [data-action="${id}"]`).waitFor();
      const now = (await api(seed.apiKey, `/projects/${seed.projectId}/actions/${id}`)).json.data.status;
      expect(now).toBe(column);
    }
    expect(await page.locator(`[data-action="${id}"] button`).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the sources page and the plan with the API figures', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}/sources?days=30`);
    await page.locator('[data-table="top-domains"], [role="alert"]').first().waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
    const src = (await api(seed.apiKey, `/projects/${seed.projectId}/sources/analytics?date_from=${from}&date_to=${today}`)).json.data;
    expect(await page.locator('[data-table="top-domains"] tbody tr').count()).toBe(src.top_domains.length);
    expect(await page.locator('[data-table="top-domains"] tbody tr').first().innerText()).toContain(src.top_domains[0].domain);
    expect(await page.locator('[data-category="editorial"] .bar-value').innerText()).toBe(`${src.category_breakdown.editorial.toFixed(1)}%`);
    await page.goto('/settings');
    const account = (await api(seed.apiKey, '/account')).json.data;
    await expect.poll(() => page.locator('[data-credits-left]').getAttribute('data-credits-left')).toBe(String(account.credits_left));
    expect(await page.locator('[data-plan]').getAttribute('data-plan')).toBe(account.plan);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('edits the project settings (aliases, samples per run, adaptive sampling and its margin) as the API then shows them', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}/settings`);
    await page.getByLabel('Brand aliases').fill('Acme, AcmeCRM');
    await page.getByLabel('Samples per run').fill('2');
    await page.getByLabel('Where the samples go').selectOption('adaptive');
    await page.getByLabel('Margin (± points)').fill('3.5');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    const p = (await api(seed.apiKey, `/projects/${seed.projectId}`)).json.data;
    expect(p.brand_aliases).toEqual(['Acme', 'AcmeCRM']);
    expect(p.samples_per_run).toBe(2);
    expect(p.sampling).toBe('adaptive');
    expect(p.sampling_margin).toBe(3.5);
    expect(errors).toEqual([]);
    await context.close();
  });
});
