import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../fakes/receiver.js';
import { fixtureHtml, startFixtureServer, type FixtureServer } from '../fixtures/page-fixtures.js';
import { selfSignedCert } from '../fixtures/tls.js';
import { createAccount, createProject, setTeam, until, type Account } from '../helpers.js';
import { type BrowserApp, browserTestsOff, newPage, signIn, signInWithKey, startBrowserApp } from './harness.js';

// The Actions page in Chromium: the article workflow executed and answered in the page
// (approve, edit, regenerate, reject, and an answer given through the API showing up),
// a content_update page's edits as a diff against its current text, a forum draft, a
// viewer's read-only page, the board's CSV. The service runs its built-in writer and reads
// pages from a local fixture server; webhooks go to a local HTTPS receiver.

const PAYLOAD = '<img src=x onerror=alert(1)>';
const tls = selfSignedCert();
// A real article whose every paragraph starts with markup written as text (&lt;…&gt;).
const GUIDE = fixtureHtml('article').replace(/<p>/g, '<p>&lt;img src=x onerror=alert(1)&gt; ');
const THREAD = `<!doctype html><html><head><title>Best CRM for a 3-person agency? &lt;img src=x onerror=alert(1)&gt;</title></head>
<body><main><h1>Best CRM for a 3-person agency?</h1><p>We track clients in a spreadsheet and it is falling apart. What do you use?</p></main></body></html>`;

describe.skipIf(browserTestsOff)('actions page in Chromium', () => {
  let b: BrowserApp;
  let receiver: Receiver;
  let pages: FixtureServer;
  let acct: Account;
  let projectId: string;

  const api = async (key: string, path: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await fetch(`${b.base}/v1${path}`, {
      method: init.method ?? 'GET',
      headers: { 'x-api-key': key, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as { data: any; detail?: string } };
  };
  const newAction = async (body: Record<string, unknown>): Promise<string> => {
    const r = await api(acct.key, `/projects/${projectId}/actions`, { method: 'POST', body: { priority: 'high', description: 'From the browser test.', ...body } });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    return r.json.data.id;
  };
  const article = (title: string) => newAction({ title, category: 'new_content', execution: { type: 'publishable_content' }, targets: [{ type: 'keyword', value: 'crm for agencies' }] });
  const workflowOf = async (id: string) => (await api(acct.key, `/projects/${projectId}/actions/${id}/workflow`)).json.data;

  beforeAll(async () => {
    receiver = await startReceiver({ tls });
    pages = await startFixtureServer({
      '/guide': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(GUIDE);
      },
      '/thread': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(THREAD);
      },
    });
    b = await startBrowserApp({ allowPrivateUrls: true, webhookRetryBaseMs: 100, outboundCa: tls.cert });
    acct = await createAccount(b.t.app);
    // Many requests a minute from one team (the page's and the test's own): the premium tier.
    await setTeam(b.t, acct.teamId, { rate_limit_tier: 'premium' });
    projectId = await createProject(b.t.app, acct.key, { brand_name: 'Pipewise', brand_url: `${pages.base}/crm-vendor.html` });
    const hook = await api(acct.key, '/webhooks', { method: 'POST', body: { url: receiver.url, events: ['action.checkpoint', 'action.completed', 'action.failed'] } });
    expect(hook.status).toBe(201);
  }, 180_000);
  afterAll(async () => {
    await b?.stop();
    await receiver?.close();
    await pages?.close();
  });

  it('executes the article workflow and answers its checkpoints: approve, edit, then an answer given through the API shows', async () => {
    const id = await article(`Best CRM for agencies ${PAYLOAD}`);
    const { page, context, errors, dialogs } = await newPage(b);
    await signIn(page, acct.email, acct.password);
    await page.goto(`/projects/${projectId}/actions?action=${id}`);
    const detail = page.locator(`[data-detail="${id}"]`);
    await detail.getByText('Not executed yet', { exact: false }).waitFor();
    await detail.getByRole('button', { name: 'Execute' }).click();

    // The outline checkpoint: the text the API (and the webhook) gives, shown as text.
    await detail.locator('[data-checkpoint="outline"]').waitFor({ timeout: 30_000 });
    const outline = await workflowOf(id);
    expect(outline).toMatchObject({ status: 'awaiting_approval', checkpoint: 'outline' });
    expect(outline.content).toContain(PAYLOAD);
    expect(await detail.locator('[data-checkpoint-content]').textContent()).toBe(outline.content);
    const hooked = await until(async () => receiver.received.map((r) => JSON.parse(r.body)).find((e) => e.event === 'action.checkpoint' && e.data.workflow_id === outline.workflow_id));
    expect(hooked.data.content).toBe(outline.content);
    expect(await detail.locator('img, script').count()).toBe(0);
    expect(await detail.locator('[data-step="outline"]').getAttribute('data-state')).toBe('Waiting for review');
    // The board's card says a checkpoint waits.
    const badge = page.locator(`[data-column="in_progress"] [data-action="${id}"] [data-workflow-badge]`);
    await expect.poll(() => badge.textContent()).toBe('outline waiting for review');

    // Approve: the draft is written and waits.
    await detail.getByRole('button', { name: 'Approve' }).click();
    await detail.locator('[data-checkpoint="draft"]').waitFor({ timeout: 30_000 });
    expect(await detail.locator('[data-step="outline"]').getAttribute('data-state')).toBe('Approved');
    expect(await detail.locator('[data-step="outline"] pre').textContent()).toBe(outline.content);
    const draft = await workflowOf(id);
    expect(await detail.locator('[data-checkpoint-content]').textContent()).toBe(draft.content);

    // Edit: the reviewer's text replaces the draft; the final step is written from it.
    const edited = '# Our own draft\n\nEvery word here was written by the reviewer, keyboard only.';
    await detail.getByRole('button', { name: 'Edit' }).click();
    const box = detail.getByLabel('Edited draft');
    expect(await box.inputValue()).toBe(draft.content);
    await box.fill(edited);
    await page.keyboard.press('Tab'); // to "Send edit", then Enter: the form works from the keyboard
    await page.keyboard.press('Enter');
    await detail.locator('[data-checkpoint="final"]').waitFor({ timeout: 30_000 });
    expect(await detail.locator('[data-step="draft"] pre').textContent()).toBe(edited);
    const final = await workflowOf(id);
    expect(final).toMatchObject({ status: 'awaiting_approval', checkpoint: 'final' });
    expect(await detail.locator('[data-checkpoint-content]').textContent()).toBe(final.content);

    // The final checkpoint is approved elsewhere (as a webhook's consumer would): the page follows.
    const answered = await api(acct.key, `/projects/${projectId}/actions/${id}/workflow/respond`, {
      method: 'POST',
      body: { workflow_id: final.workflow_id, checkpoint: 'final', action: 'approve' },
    });
    expect(answered.status).toBe(200);
    await detail.locator('[data-workflow="completed"]').waitFor({ timeout: 30_000 });
    await detail.getByText('The final checkpoint was answered elsewhere', { exact: false }).waitFor();
    const done = await workflowOf(id);
    expect(await detail.locator('[data-result] pre').textContent()).toBe(done.result.content);
    await page.locator(`[data-column="completed"] [data-action="${id}"]`).waitFor();
    expect((await api(acct.key, `/projects/${projectId}/actions/${id}`)).json.data.status).toBe('completed');
    expect(await detail.getByRole('button', { name: /^Execute/ }).count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('regenerates a step with feedback, then rejects the workflow', async () => {
    const id = await article('How agencies pick a CRM');
    const { page, context, errors } = await newPage(b);
    await signIn(page, acct.email, acct.password);
    await page.goto(`/projects/${projectId}/actions?action=${id}`);
    const detail = page.locator(`[data-detail="${id}"]`);
    await detail.getByRole('button', { name: 'Execute' }).click();
    await detail.locator('[data-checkpoint="outline"]').waitFor({ timeout: 30_000 });
    const first = (await workflowOf(id)).content as string;

    await detail.getByRole('button', { name: 'Regenerate' }).click();
    await detail.getByLabel('Feedback for the writer').fill('Add a section on pricing');
    await detail.getByRole('button', { name: 'Regenerate this step' }).click();
    // Written again: the outline waits anew, with another text.
    const second = await until(async () => {
      const w = await workflowOf(id);
      return w.status === 'awaiting_approval' && w.content !== first && w;
    });
    expect(second.checkpoint).toBe('outline');
    await expect.poll(() => detail.locator('[data-checkpoint-content]').textContent(), { timeout: 10_000 }).toBe(second.content);

    await detail.getByRole('button', { name: 'Reject' }).click();
    await detail.getByLabel('Reason for rejecting').fill('Off brand');
    await detail.getByRole('button', { name: 'Reject the workflow' }).click();
    await detail.locator('[data-workflow="rejected"]').waitFor();
    const rejected = await workflowOf(id);
    expect(rejected.status).toBe('rejected');
    expect(rejected.error).toMatch(/outline.*Off brand/);
    expect(await detail.locator('[data-workflow-error]').textContent()).toBe(rejected.error);
    expect(await detail.locator('[data-step="outline"]').getAttribute('data-state')).toBe('Rejected');
    // It can be executed again.
    expect(await detail.getByRole('button', { name: 'Execute again' }).isEnabled()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("shows a content edit's proposed text against the page's current text, markup as text", async () => {
    const id = await newAction({ title: 'Refresh the CRM guide', category: 'content_update', execution: { type: 'prompt', prompt: 'Lead with a direct answer.' }, targets: [{ type: 'url', value: `${pages.base}/guide` }] });
    const { page, context, errors, dialogs } = await newPage(b);
    await signIn(page, acct.email, acct.password);
    await page.goto(`/projects/${projectId}/actions`);
    await page.locator(`[data-action="${id}"]`).getByRole('link', { name: 'Refresh the CRM guide' }).click();
    await page.waitForURL((url) => url.searchParams.get('action') === id);
    const detail = page.locator(`[data-detail="${id}"]`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('action-detail-title');
    await detail.getByRole('button', { name: 'Suggest edits' }).click();
    await detail.locator('[data-edit]').first().waitFor({ timeout: 30_000 });
    const edits = (await api(acct.key, `/projects/${projectId}/actions/${id}/enrich-content`, { method: 'POST' })).json.data as Array<{ type: string; before: string | null; after: string | null; signal: string }>;
    expect(await detail.locator('[data-edit]').count()).toBe(edits.length);
    const replaces = edits.map((e, i) => ({ ...e, i })).filter((e) => e.type === 'replace');
    expect(replaces.length).toBeGreaterThan(0);
    for (const e of replaces) {
      const edit = detail.locator(`[data-edit="${e.i}"]`);
      expect(await edit.locator('[data-side="before"] .diff-text').textContent()).toBe(e.before);
      expect(await edit.locator('[data-side="after"] .diff-text').textContent()).toBe(e.after);
      expect(await edit.locator('ins, del').count()).toBeGreaterThan(0);
    }
    // The page's markup is its text: quoted as written, never an element.
    expect(replaces.some((e) => e.before?.includes(PAYLOAD))).toBe(true);
    expect(await detail.locator('[data-side="before"]').filter({ hasText: PAYLOAD }).count()).toBeGreaterThan(0);
    expect(await detail.locator('img, script').count()).toBe(0);
    // An inserted section has no current text.
    const insert = edits.findIndex((e) => e.type === 'insert');
    if (insert >= 0) expect(await detail.locator(`[data-edit="${insert}"] [data-side="before"]`).innerText()).toContain('Nothing: this is new text.');
    // Escape closes the panel and gives the focus back to the card.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-detail]').count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[data-action]')?.getAttribute('data-action'))).toBe(id);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('shows a forum draft with the thread it answers, and copies it', async () => {
    const thread = `${pages.base}/thread`;
    const id = await newAction({
      title: 'Answer the agency CRM thread',
      category: 'forum_engagement',
      execution: { type: 'forum_reply', skill: 'forum_reply', params: { thread_url: thread, thread_title: 'Best CRM for a 3-person agency?' } },
      targets: [{ type: 'url', value: thread }],
    });
    const { page, context, errors, dialogs } = await newPage(b);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: b.base });
    await signIn(page, acct.email, acct.password);
    await page.goto(`/projects/${projectId}/actions?action=${id}`);
    const detail = page.locator(`[data-detail="${id}"]`);
    await detail.getByRole('button', { name: 'Draft a reply' }).click();
    const reply = detail.getByLabel('Drafted reply');
    await reply.waitFor({ timeout: 30_000 });
    const draft = (await api(acct.key, `/projects/${projectId}/actions/${id}/enrich-forum`, { method: 'POST' })).json.data;
    // the field is filled in an effect after it is drawn
    await expect.poll(() => reply.inputValue()).toBe(draft.comment);
    expect(draft.thread_title).toContain(PAYLOAD);
    expect(await detail.locator('.forum-draft strong').textContent()).toBe(draft.thread_title);
    expect(await detail.locator('.forum-draft').getByRole('link', { name: thread }).getAttribute('href')).toBe(thread);
    expect(await detail.locator('img, script').count()).toBe(0);
    await detail.getByRole('button', { name: 'Copy the reply' }).click();
    await detail.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(draft.comment);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('a viewer sees the actions, their workflow and its checkpoint, and has no working write control', async () => {
    const id = await article('A viewer looks at this article');
    const started = await api(acct.key, `/projects/${projectId}/actions/${id}/execute`, { method: 'POST' });
    expect(started.status).toBe(202);
    await until(async () => (await workflowOf(id)).status === 'awaiting_approval');
    const key = (await api(acct.key, '/keys', { method: 'POST', body: { scope: 'viewer' } })).json.data.api_key;
    const { page, context, errors } = await newPage(b);
    await signInWithKey(page, key);
    await page.goto(`/projects/${projectId}/actions?action=${id}`);
    const detail = page.locator(`[data-detail="${id}"]`);
    await detail.locator('[data-checkpoint="outline"]').waitFor();
    expect(await detail.locator('[data-checkpoint-content]').textContent()).toBe((await workflowOf(id)).content);
    for (const name of ['Approve', 'Edit', 'Regenerate', 'Reject']) expect(await detail.getByRole('button', { name, exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Recommend actions' }).isDisabled()).toBe(true);
    expect(await page.locator('[data-action] button:enabled').count()).toBe(0);
    expect(await page.getByText('Read-only session: an admin answers checkpoints.').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it("downloads the board's CSV as the API lists the actions", async () => {
    const { page, context } = await newPage(b);
    await signIn(page, acct.email, acct.password);
    await page.goto(`/projects/${projectId}/actions`);
    await page.locator('.board').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = fs.readFileSync((await download.path()) as string, 'utf8').trim().split('\r\n');
    const list = (await api(acct.key, `/projects/${projectId}/actions`)).json.data as Array<{ id: string; status: string; category: string; execution: { type: string } }>;
    expect(csv[0]).toBe('id,title,status,priority,category,effort,expected_impact_min,expected_impact_max,execution_type,group,targets,created_at,updated_at');
    expect(csv.length).toBe(list.length + 1);
    for (const a of list) {
      const row = csv.find((line) => line.startsWith(a.id));
      expect(row).toContain(`,${a.status},`);
      expect(row).toContain(`,${a.category},`);
      expect(row).toContain(`,${a.execution.type},`);
    }
    await context.close();
  });
});
