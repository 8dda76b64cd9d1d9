import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver, type Received } from '../../../test/fakes/receiver.js';
import { selfSignedCert } from '../../../test/fixtures/tls.js';
import { client, createAccount, createProject, STORE, startTestApp, until, type TestApp } from '../../../test/helpers.js';

// The article workflow of docs/decisions.md over HTTP, with an HTTPS receiver that checks every
// signature: approve, edit, regenerate and reject paths, the 4xx cases, and a restart of
// the whole process while a checkpoint waits.

const tls = selfSignedCert();

interface Setup {
  t: TestApp;
  receiver: Receiver;
  key: string;
  teamId: string;
  projectId: string;
  secret: string;
}

async function setup(t: TestApp, receiver: Receiver): Promise<Setup> {
  const acct = await createAccount(t.app);
  const projectId = await createProject(t.app, acct.key);
  const hook = await client(t.app, acct.key).post('/webhooks', {
    url: receiver.url,
    events: ['action.checkpoint', 'action.completed', 'action.failed'],
  });
  expect(hook.statusCode).toBe(201);
  return { t, receiver, key: acct.key, teamId: acct.teamId, projectId, secret: hook.json().data.secret };
}

async function newAction(s: Setup, executionType = 'publishable_content', status = 'suggested'): Promise<string> {
  const { rows } = await s.t.runtime.ctx.store.query<{ id: string }>(
    `insert into actions (project_id, team_id, priority, title, description, category, status, targets, execution)
     values ($1, $2, 'high', 'The best CRM for small teams in 2026', 'An article comparing CRMs for teams of 2 to 20',
             'new_content', $4, $5::jsonb, $3::jsonb) returning id`,
    [
      s.projectId,
      s.teamId,
      JSON.stringify({ type: executionType, prompt: null, skill: null, params: null }),
      status,
      JSON.stringify([{ type: 'keyword', value: 'best crm for small teams' }]),
    ],
  );
  return rows[0].id;
}

/** The next event for this workflow, with its signature checked against the webhook secret. */
async function nextEvent(s: Setup, workflowId: string, seen: Set<string>): Promise<{ event: string; data: any }> {
  const got = await until(async () => {
    return s.receiver.received.find((r) => !seen.has(r.headers['x-webhook-id']) && JSON.parse(r.body).data?.workflow_id === workflowId);
  }, 30_000);
  verify(got, s.secret);
  seen.add(got.headers['x-webhook-id']);
  const body = JSON.parse(got.body);
  expect(Date.parse(body.timestamp)).not.toBeNaN();
  return body;
}

function verify(r: Received, secret: string): void {
  const expected = crypto.createHmac('sha256', secret).update(r.body).digest('hex');
  const got = r.headers['x-webhook-signature'] ?? '';
  expect(got).toMatch(/^[0-9a-f]{64}$/);
  expect(crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(got))).toBe(true);
}

const base = (s: Setup, actionId: string) => `/projects/${s.projectId}/actions/${actionId}`;

async function execute(s: Setup, actionId: string): Promise<string> {
  const res = await client(s.t.app, s.key).post(`${base(s, actionId)}/execute`);
  expect(res.statusCode, res.body).toBe(202);
  expect(res.json()).toMatchObject({ success: true, data: { status: 'running' } });
  return res.json().data.workflow_id;
}

const respond = (s: Setup, actionId: string, body: Record<string, unknown>) =>
  client(s.t.app, s.key).post(`${base(s, actionId)}/workflow/respond`, body);

async function actionStatus(s: Setup, actionId: string): Promise<string> {
  const { rows } = await s.t.runtime.ctx.store.query<{ status: string }>(`select status from actions where id = $1`, [actionId]);
  return rows[0].status;
}

describe('content workflow', () => {
  let s: Setup;
  beforeAll(async () => {
    const t = await startTestApp({ allowPrivateUrls: true, webhookRetryBaseMs: 100, outboundCa: tls.cert });
    const receiver = await startReceiver({ tls });
    s = await setup(t, receiver);
  });
  afterAll(async () => {
    await s?.t.stop();
    await s?.receiver.close();
  });

  it('runs outline → draft → final with approve and edit, then completes the action', async () => {
    const actionId = await newAction(s);
    const wf = await execute(s, actionId);
    expect(await actionStatus(s, actionId)).toBe('in_progress');
    const seen = new Set<string>();

    const outline = await nextEvent(s, wf, seen);
    expect(outline.event).toBe('action.checkpoint');
    expect(outline.data).toMatchObject({ action_id: actionId, workflow_id: wf, checkpoint: 'outline' });
    expect(outline.data.content.length).toBeGreaterThan(20);
    expect(outline.data.options.map((o: any) => o.action)).toEqual(['approve', 'edit', 'regenerate', 'reject']);
    const got = (await client(s.t.app, s.key).get(`${base(s, actionId)}/workflow`)).json().data;
    expect(got).toMatchObject({ workflow_id: wf, status: 'awaiting_approval', checkpoint: 'outline', content: outline.data.content, result: null, error: null });

    expect((await respond(s, actionId, { workflow_id: wf, checkpoint: 'outline', action: 'approve' })).json().data.status).toBe('running');
    const draft = await nextEvent(s, wf, seen);
    expect(draft.data.checkpoint).toBe('draft');

    const edited = '# My edited draft\n\nEvery word here was written by the reviewer.';
    const r2 = await respond(s, actionId, { workflow_id: wf, checkpoint: 'draft', action: 'edit', content: edited });
    expect(r2.statusCode).toBe(200);
    const final = await nextEvent(s, wf, seen);
    expect(final.data.checkpoint).toBe('final');

    const done = await respond(s, actionId, { workflow_id: wf, checkpoint: 'final', action: 'approve' });
    expect(done.json().data).toMatchObject({ status: 'completed', checkpoint: null });
    const completed = await nextEvent(s, wf, seen);
    expect(completed.event).toBe('action.completed');
    expect(completed.data.result).toEqual({ title: expect.any(String), content: final.data.content });
    expect(completed.data.result.title.length).toBeGreaterThan(0);
    expect(await actionStatus(s, actionId)).toBe('completed');
    const after = (await client(s.t.app, s.key).get(`${base(s, actionId)}/workflow`)).json().data;
    expect(after).toMatchObject({ status: 'completed', result: completed.data.result });

    // The workflow is over: a late reply is a conflict.
    expect((await respond(s, actionId, { workflow_id: wf, checkpoint: 'final', action: 'approve' })).statusCode).toBe(409);
  });

  it('regenerates a step with feedback and pauses again', async () => {
    const actionId = await newAction(s);
    const wf = await execute(s, actionId);
    const seen = new Set<string>();
    const first = await nextEvent(s, wf, seen);
    const r = await respond(s, actionId, { workflow_id: wf, checkpoint: 'outline', action: 'regenerate', feedback: 'Add a section on pricing' });
    expect(r.json().data.status).toBe('running');
    const second = await nextEvent(s, wf, seen);
    expect(second.data.checkpoint).toBe('outline');
    expect(second.data.content).not.toBe(first.data.content);
  });

  it('rejects: the workflow ends as rejected and action.failed is sent', async () => {
    const actionId = await newAction(s);
    const wf = await execute(s, actionId);
    const seen = new Set<string>();
    await nextEvent(s, wf, seen);
    const r = await respond(s, actionId, { workflow_id: wf, checkpoint: 'outline', action: 'reject', feedback: 'Off brand' });
    expect(r.json().data).toMatchObject({ status: 'rejected' });
    const failed = await nextEvent(s, wf, seen);
    expect(failed.event).toBe('action.failed');
    expect(failed.data).toMatchObject({ action_id: actionId, workflow_id: wf });
    expect(failed.data.error).toMatch(/outline.*Off brand/);
    // It can be executed again afterwards.
    expect((await client(s.t.app, s.key).post(`${base(s, actionId)}/execute`)).statusCode).toBe(202);
  });

  it('answers the documented errors', async () => {
    const c = client(s.t.app, s.key);
    const manual = await newAction(s, 'manual');
    const notExec = await c.post(`${base(s, manual)}/execute`);
    expect(notExec.statusCode).toBe(400);
    expect(notExec.json().detail).toMatch(/publishable_content/);

    const done = await newAction(s, 'publishable_content', 'completed');
    expect((await c.post(`${base(s, done)}/execute`)).statusCode).toBe(400);

    const actionId = await newAction(s);
    const wf = await execute(s, actionId);
    const again = await c.post(`${base(s, actionId)}/execute`);
    expect(again.statusCode).toBe(409);
    await nextEvent(s, wf, new Set());
    const wrong = await respond(s, actionId, { workflow_id: wf, checkpoint: 'draft', action: 'approve' });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().detail).toMatch(/not waiting at the draft checkpoint/);
    const noContent = await respond(s, actionId, { workflow_id: wf, checkpoint: 'outline', action: 'edit' });
    expect(noContent.statusCode).toBe(400);
    const unknown = await respond(s, actionId, { workflow_id: crypto.randomUUID(), checkpoint: 'outline', action: 'approve' });
    expect(unknown.statusCode).toBe(404);
    const bad = await respond(s, actionId, { workflow_id: wf, checkpoint: 'outline', action: 'publish' });
    expect(bad.statusCode).toBe(400);
    expect((await c.get(`${base(s, crypto.randomUUID())}/workflow`)).statusCode).toBe(404);
    expect((await c.get(`${base(s, manual)}/workflow`)).statusCode).toBe(404);

    // No webhook subscribed to action.checkpoint: 400.
    const other = await createAccount(s.t.app);
    const otherProject = await createProject(s.t.app, other.key);
    const { rows } = await s.t.runtime.ctx.store.query<{ id: string }>(
      `insert into actions (project_id, team_id, priority, title, description, category, execution)
       values ($1, $2, 'low', 't', 'd', 'new_content', '{"type":"publishable_content","prompt":null,"skill":null,"params":null}'::jsonb) returning id`,
      [otherProject, other.teamId],
    );
    const noHook = await client(s.t.app, other.key).post(`/projects/${otherProject}/actions/${rows[0].id}/execute`);
    expect(noHook.statusCode).toBe(400);
    expect(noHook.json().detail).toMatch(/action\.checkpoint/);
  });
});

describe('a workflow survives a restart while a checkpoint waits', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-wf-'));
  let s: Setup;
  afterAll(async () => {
    await s?.t.stop();
    await s?.receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('goes on after the process is restarted', async () => {
    const overrides = { allowPrivateUrls: true, webhookRetryBaseMs: 100, outboundCa: tls.cert };
    const t = await startTestApp(STORE === 'pglite' ? { ...overrides, memoryStore: false, dataDir } : overrides);
    s = await setup(t, await startReceiver({ tls }));
    const actionId = await newAction(s);
    const wf = await execute(s, actionId);
    const seen = new Set<string>();
    await nextEvent(s, wf, seen);

    await s.t.restart();

    expect((await client(s.t.app, s.key).get(`${base(s, actionId)}/workflow`)).json().data).toMatchObject({
      status: 'awaiting_approval',
      checkpoint: 'outline',
    });
    expect((await respond(s, actionId, { workflow_id: wf, checkpoint: 'outline', action: 'approve' })).statusCode).toBe(200);
    const draft = await nextEvent(s, wf, seen);
    expect(draft.data.checkpoint).toBe('draft');
  });
});
