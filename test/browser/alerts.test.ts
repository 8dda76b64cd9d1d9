import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedProject, type SeedResult } from '../../src/collection/seed.js';
import { evaluateProjectAlerts } from '../../src/modules/alerts/evaluate.js';
import { type BrowserApp, browserTestsOff, newPage, signIn, signInWithKey, startBrowserApp } from './harness.js';

// Alerts, digest and shared reports in a real browser: an alert rule created through the
// Alerts page, listed in words, tested (mail is off here, so the e-mail channel answers
// why it failed), fired by the evaluation a collection run sends and shown in the events
// feed as the API gives it; names from answers shown as text; a viewer's read-only page;
// the weekly digest opt-in kept across a reload; the overview's Share button making a /r/
// link that opens, then revoked.

describe.skipIf(browserTestsOff)('alerts, digest and shared reports in Chromium', () => {
  let b: BrowserApp;
  let seed: SeedResult;

  const api = async (path: string, init: { method?: string; body?: unknown; key?: string } = {}) => {
    const res = await fetch(`${b.base}/v1${path}`, {
      method: init.method ?? 'GET',
      headers: { 'x-api-key': init.key ?? seed.apiKey, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as { data: any } };
  };

  beforeAll(async () => {
    b = await startBrowserApp();
    seed = await seedProject(b.t.runtime.ctx, { prompts: 2, providers: ['chatgpt', 'perplexity'], days: 21, competitors: 2 });
  }, 180_000);
  afterAll(async () => b?.stop());

  it('creates a rule on the Alerts page, lists it in words, sends a test and shows the event a run fires', async () => {
    const { page, context, errors, dialogs } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Alerts' }).click();
    await page.getByRole('heading', { name: 'Alerts', level: 1 }).waitFor();
    // Empty: one sentence, one action.
    await page.locator('[data-empty="rules"]').waitFor();
    await page.getByRole('button', { name: 'Create an alert rule' }).click();

    const form = page.getByRole('form', { name: 'New alert rule' });
    await form.getByLabel('Rule name').fill('Visibility under the ceiling');
    await form.getByLabel('Watch').selectOption('visibility');
    await form.getByLabel('Fires when it').selectOption('below');
    await form.getByLabel('Threshold (%)').fill('100');
    await form.getByLabel('Window (days)').fill('7');
    await form.getByLabel('ChatGPT', { exact: true }).check();
    await form.getByLabel('E-mail to').fill('alerts@example.com');
    await form.getByRole('button', { name: 'Create rule' }).click();

    const row = page.locator('[data-table="alert-rules"] tr[data-rule="Visibility under the ceiling"]');
    await row.waitFor();
    expect(await page.getByRole('form', { name: 'New alert rule' }).count()).toBe(0);
    const [rule] = (await api(`/projects/${seed.projectId}/alerts`)).json.data;
    expect(rule).toMatchObject({ name: 'Visibility under the ceiling', metric: 'visibility', condition: 'below', threshold: 100, window_days: 7, providers: ['chatgpt'], channels: [{ type: 'email', to: ['alerts@example.com'] }] });
    expect(await row.locator('[data-watches]').innerText()).toBe('Visibility of Acme CRM falls below 100% over 7 days, on ChatGPT');
    expect(await row.innerText()).toContain('E-mail to alerts@example.com');
    expect(await row.innerText()).toContain('never');

    // The test send: each channel's answer as the API gives it (mail is off on this server).
    await row.getByRole('button', { name: 'Send test' }).click();
    const result = row.locator('[data-test-results] li[data-channel="email"]');
    await result.waitFor();
    const direct = (await api(`/projects/${seed.projectId}/alerts/${rule.alert_id}/test`, { method: 'POST' })).json.data;
    expect(direct).toHaveLength(1);
    expect(await result.getAttribute('data-ok')).toBe(String(direct[0].ok));
    expect(await result.innerText()).toContain(direct[0].detail);

    // Edit: a rename keeps the rule, the form is filled with what it has.
    await row.getByRole('button', { name: 'Edit Visibility under the ceiling' }).click();
    const edit = page.getByRole('form', { name: 'Edit alert rule' });
    expect(await edit.getByLabel('Threshold (%)').inputValue()).toBe('100');
    expect(await edit.getByLabel('ChatGPT', { exact: true }).isChecked()).toBe(true);
    await edit.getByLabel('Rule name').fill('Visibility watch');
    await edit.getByRole('button', { name: 'Save rule' }).click();
    const renamed = page.locator('[data-table="alert-rules"] tr[data-rule="Visibility watch"]');
    await renamed.waitFor();
    expect((await api(`/projects/${seed.projectId}/alerts/${rule.alert_id}`)).json.data).toMatchObject({ name: 'Visibility watch', threshold: 100 });

    // The run of today evaluates the rule: under the ceiling already, it fires at its first evaluation.
    const today = new Date().toISOString().slice(0, 10);
    expect(await evaluateProjectAlerts(b.t.runtime.ctx, { projectId: seed.projectId, day: today, runId: null })).toMatchObject({ fired: 1 });
    await page.reload();
    const item = page.locator('[data-list="alert-events"] li[data-metric="visibility"]');
    await item.waitFor();
    const [event] = (await api(`/projects/${seed.projectId}/alerts/events`)).json.data;
    // the event names its rule once the rules (a query of their own) are in
    await expect.poll(() => item.innerText()).toContain('Visibility watch');
    const text = await item.innerText();
    expect(text).toContain(`${event.value.toFixed(1)}%`);
    expect(text).toContain(`${event.window.start_date} to ${event.window.end_date}`);
    expect(await item.locator('[data-delivery="email"]').count()).toBe(1);
    expect(await page.locator('[data-table="alert-rules"] tr[data-rule="Visibility watch"]').innerText()).toContain(event.fired_at.slice(0, 10));

    // Delete asks first (the dialog is dismissed here): the rule stays.
    await renamed.getByRole('button', { name: 'Delete Visibility watch' }).click();
    expect(dialogs).toEqual(['Delete the rule “Visibility watch” and its events?']);
    expect((await api(`/projects/${seed.projectId}/alerts`)).json.data).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the names of a new_competitor event as text, never markup', async () => {
    const rule = (await api(`/projects/${seed.projectId}/alerts`, { method: 'POST', body: { name: 'New brands', metric: 'new_competitor', channels: [] } })).json.data;
    // An event as the evaluation writes it, with a name an answer could hold.
    const hostile = '<img src=x onerror=alert(1)>';
    await b.t.runtime.ctx.store.query(
      `insert into alert_events (alert_id, project_id, team_id, run_id, metric, condition, value, previous, p_value, "window", detail)
       select $1, p.id, p.team_id, null, 'new_competitor', 'above', 2, null, null, $2::jsonb, $3::jsonb from projects p where p.id = $4`,
      [
        rule.alert_id,
        JSON.stringify({ start_date: '2026-01-01', end_date: '2026-01-07', previous_start_date: '2025-12-25', previous_end_date: '2025-12-31', responses: 28, previous_responses: 0 }),
        JSON.stringify({ names: [hostile, 'Zoho CRM'], interval: null }),
        seed.projectId,
      ],
    );
    const { page, context, errors, dialogs } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}/alerts`);
    const item = page.locator('[data-list="alert-events"] li[data-metric="new_competitor"]');
    await item.waitFor();
    expect(await item.locator('[data-name]').allInnerTexts()).toEqual([hostile, 'Zoho CRM']);
    expect(await item.locator('img').count()).toBe(0);
    expect(await page.locator('[data-table="alert-rules"] tr[data-rule="New brands"] [data-watches]').innerText()).toBe('Any untracked brand in the last 7 days, on every engine');
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a viewer the rules read-only', async () => {
    const key = (await api('/keys', { method: 'POST', body: { scope: 'viewer' } })).json.data.api_key;
    const { page, context, errors } = await newPage(b);
    await signInWithKey(page, key);
    await page.goto(`/projects/${seed.projectId}/alerts`);
    const row = page.locator('[data-table="alert-rules"] tbody tr').first();
    await row.waitFor();
    expect(await row.getByRole('button', { name: 'Send test' }).isDisabled()).toBe(true);
    expect(await row.getByRole('button', { name: /^Edit / }).isDisabled()).toBe(true);
    expect(await row.getByRole('button', { name: /^Delete / }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'New rule' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps the weekly digest opt-in across a reload, and says mail is off', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto('/settings');
    const box = page.getByLabel('Weekly digest e-mail');
    await box.waitFor();
    expect(await box.isChecked()).toBe(false);
    expect(await page.locator('[data-mail-off]').innerText()).toContain('Mail is off');
    expect(await page.getByText('Mondays at 08:00 UTC').count()).toBe(1);
    await box.check();
    const digestOf = () => page.evaluate(async () => (await (await fetch('/v1/team/members/me')).json()).data.digest as boolean);
    await expect.poll(digestOf).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByLabel('Weekly digest e-mail').isChecked()).toBe(true);
    const me = await page.evaluate(async () => (await (await fetch('/v1/team/members/me')).json()).data);
    expect(me).toMatchObject({ email: seed.email, digest: true, mail_enabled: false });
    await page.getByLabel('Weekly digest e-mail').uncheck();
    await expect.poll(digestOf).toBe(false);
    await page.reload();
    await expect.poll(() => page.getByLabel('Weekly digest e-mail').isChecked()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shares the overview: a /r/ link that opens, listed, then revoked', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}?days=7`);
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByLabel('Link expires after').selectOption('7');
    await page.getByRole('button', { name: 'Create link' }).click();
    const shown = page.locator('[data-report-url]');
    await shown.waitFor();
    const url = await shown.getByLabel(/Report link/).inputValue();
    expect(url).toMatch(new RegExp(`^${b.base}/r/[^/]+$`));
    const [listed] = (await api(`/projects/${seed.projectId}/reports`)).json.data;
    expect(listed).toMatchObject({ window_days: 7, status: 'active' });
    expect(await shown.innerText()).toContain(`Expires on ${listed.expires_at.slice(0, 10)}`);
    const report = await fetch(url);
    expect(report.status).toBe(200);
    expect(await report.text()).toContain('Acme CRM');

    const item = page.locator(`li[data-report="${listed.report_id}"]`);
    expect(await item.getAttribute('data-status')).toBe('active');
    page.removeAllListeners('dialog');
    page.once('dialog', (d) => void d.accept());
    await item.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => item.getAttribute('data-status')).toBe('revoked');
    expect((await fetch(url)).status).toBe(404);
    expect(errors).toEqual([]);
    await context.close();
  });
});
