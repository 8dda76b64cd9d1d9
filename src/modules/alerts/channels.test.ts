import crypto from 'node:crypto';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureProject, OWN, storeSpecs, type FixtureProject } from '../../../test/analytics-fixture.js';
import { startReceiver, type Receiver } from '../../../test/fakes/receiver.js';
import { selfSignedCert } from '../../../test/fixtures/tls.js';
import { client, createAccount, createProject, setTeam, startTestApp, until, type TestApp } from '../../../test/helpers.js';
import { startSmtpInbox, type SmtpInbox } from '../../../test/smtp-inbox.js';
import { evaluateProjectAlerts } from './evaluate.js';

// Alert channels against the outside world started here: a real SMTP server (the mail
// parsed by mailparser), an HTTPS receiver standing for Slack and another for the team's
// registered webhook. Deliveries run through the outbox and the delivery jobs, retried
// (WEBHOOK_RETRY_BASE_MS shortened) and visible on the event.

const tls = selfSignedCert();
const OPERATOR = 'operator-token-0123456789abcdef';
let t: TestApp;
let smtp: SmtpInbox;
let inbox: string[];
const receivers: Receiver[] = [];

beforeAll(async () => {
  smtp = await startSmtpInbox();
  inbox = smtp.messages;
  t = await startTestApp(
    { allowPrivateUrls: true, webhookRetryBaseMs: 50, webhookTimeoutMs: 2000, outboundCa: tls.cert, adminToken: OPERATOR, providersMode: 'simulated' },
    { SMTP_URL: smtp.url, MAIL_FROM: 'Sightline <alerts@sightline.test>', PUBLIC_URL: 'https://sightline.example.com' },
  );
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await t?.stop();
  await smtp?.close();
});

async function receiver(opts: Parameters<typeof startReceiver>[0] = {}) {
  const r = await startReceiver({ tls, ...opts });
  receivers.push(r);
  return r;
}

/**
 * Until no job of the project waits or runs. Adding prompts starts a run for them at once
 * (the workers run here), and that run's own alert evaluation, on today's simulated
 * answers, would set a rule created meanwhile to "holds" before the test evaluates it.
 */
const settled = (projectId: string) =>
  until(async () => {
    const { rows } = await t.runtime.ctx.store.query(
      `select 1 from pgboss.job where data->>'projectId' = $1 and state in ('created', 'retry', 'active') limit 1`,
      [projectId],
    );
    return rows.length === 0;
  }, 30_000);

async function setup(slackReplies: Parameters<typeof startReceiver>[0] = {}) {
  const f = await fixtureProject(t, { brand: 'Globex', url: 'https://globex.com', prompts: ['Which CRM should I pick?'] });
  await settled(f.projectId);
  const slack = await receiver(slackReplies);
  const hook = await receiver();
  const wh = await f.api.post('/webhooks', { url: hook.url, events: ['alert.triggered'] });
  expect(wh.statusCode, wh.body).toBe(201);
  const to = `marketing-${crypto.randomBytes(4).toString('hex')}@globex.test`;
  const res = await f.api.post(`/projects/${f.projectId}/alerts`, {
    name: 'Visibility under 50',
    metric: 'visibility',
    condition: 'below',
    threshold: 50,
    channels: [{ type: 'email', to: [to] }, { type: 'slack', url: slack.url }, { type: 'webhook' }],
  });
  expect(res.statusCode, res.body).toBe(200);
  return { f, slack, hook, secret: wh.json().data.secret as string, to, alertId: res.json().data.alert_id as string };
}

async function seedLow(f: FixtureProject) {
  await storeSpecs(
    t,
    f.projectId,
    ['chatgpt', 'perplexity', 'gemini', 'claude'].map((provider, i) => ({ prompt: f.promptIds[0], provider: provider as 'chatgpt', day: '2026-10-20', named: (i === 0 ? { [OWN]: [1, 1, 50] } : {}) as Record<string, [number, number, number]> })),
    'globex.com',
  );
}

const mailTo = (to: string) => until(async () => inbox.find((m) => m.includes(to)), 20_000);

describe('alert channels', () => {
  it('delivers a fired event by e-mail (text and HTML), Slack Block Kit and a signed alert.triggered webhook', async () => {
    const { f, slack, hook, secret, to } = await setup();
    await seedLow(f);
    expect((await evaluateProjectAlerts(t.runtime.ctx, { projectId: f.projectId, day: '2026-10-20', runId: crypto.randomUUID() })).fired).toBe(1);

    const mail = await simpleParser(await mailTo(to));
    expect(mail.subject).toContain('Globex');
    expect(mail.text).toContain('Visibility: 25.0%');
    expect(mail.text).toContain('https://sightline.example.com/projects/');
    expect(mail.html).toContain('Globex');

    const [s] = await slack.waitFor(1);
    const blocks = JSON.parse(s.body);
    expect(blocks.text).toContain('Visibility is below 50.0%: 25.0%');
    expect(blocks.blocks[0].type).toBe('header');
    expect(blocks.blocks[1].text.text).toMatch(/95% interval/);
    expect(blocks.blocks[2].elements[0].url).toBe(`https://sightline.example.com/projects/${f.projectId}/alerts`);

    const [w] = await hook.waitFor(1);
    expect(w.headers['x-webhook-signature']).toBe(crypto.createHmac('sha256', secret).update(w.body).digest('hex'));
    const body = JSON.parse(w.body);
    expect(body).toMatchObject({ event: 'alert.triggered', data: { project_id: f.projectId, metric: 'visibility', value: 25, brand: 'Globex' } });

    const events = await until(async () => {
      const list = (await f.api.get(`/projects/${f.projectId}/alerts/events`)).json().data;
      return list[0]?.deliveries.every((d: { status: string }) => d.status === 'delivered') && list;
    }, 20_000);
    expect(events[0].deliveries.map((d: { type: string }) => d.type).sort()).toEqual(['email', 'slack', 'webhook']);
  });

  it('retries a failing Slack delivery and shows the failure on the event', async () => {
    const { f, slack } = await setup({ then: 500 });
    await seedLow(f);
    await evaluateProjectAlerts(t.runtime.ctx, { projectId: f.projectId, day: '2026-10-20', runId: crypto.randomUUID() });
    const events = await until(async () => {
      const list = (await f.api.get(`/projects/${f.projectId}/alerts/events`)).json().data;
      const d = list[0]?.deliveries.find((x: { type: string }) => x.type === 'slack');
      return d?.status === 'failed' && list;
    }, 30_000);
    const d = events[0].deliveries.find((x: { type: string }) => x.type === 'slack');
    expect(d).toMatchObject({ status: 'failed', attempts: 4, last_error: 'receiver answered 500' });
    expect(slack.received).toHaveLength(4);
  });

  it('POST …/test sends a sample to every channel now and reports each', async () => {
    const { f, slack, hook, to, alertId } = await setup();
    const res = await f.api.post(`/projects/${f.projectId}/alerts/${alertId}/test`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      { type: 'email', ok: true, detail: `sent to ${to}` },
      { type: 'slack', ok: true, detail: expect.stringContaining('posted to https://127.0.0.1:') },
      { type: 'webhook', ok: true, detail: 'delivered to 1 webhook' },
    ]);
    // the daily scheduler may run this project beside the test and fire the rule for real
    const mail = await until(async () => {
      for (const raw of inbox.filter((m) => m.includes(to))) {
        const parsed = await simpleParser(raw);
        if (parsed.subject?.startsWith('[Test]')) return parsed;
      }
      return null;
    }, 20_000);
    expect(mail.subject).toMatch(/^\[Test\]/);
    expect(mail.text).toContain('Globex');
    // exactly one sample
    expect(slack.received.filter((r) => String(r.body).includes('[Test]'))).toHaveLength(1);
    // one webhook delivery is the sample; a real evaluation may have been delivered beside it
    const samples = hook.received.filter((r) => JSON.parse(String(r.body)).data?.test === true);
    expect(samples).toHaveLength(1);
  });

  it('reports a channel that cannot be reached', async () => {
    const { f, alertId } = await setup({ then: 404 });
    await t.runtime.ctx.store.query(`update webhooks set is_active = false where team_id = (select team_id from projects where id = $1)`, [f.projectId]);
    const res = await f.api.post(`/projects/${f.projectId}/alerts/${alertId}/test`);
    const byType = Object.fromEntries(res.json().data.map((r: { type: string }) => [r.type, r]));
    expect(byType.slack).toEqual({ type: 'slack', ok: false, detail: 'receiver answered 404' });
    expect(byType.webhook).toMatchObject({ ok: false, detail: expect.stringContaining('no active webhook') });
  });
});

describe('after a collection run', () => {
  it('a refresh run sends the evaluation: a rule that holds at its first evaluation fires', async () => {
    const acct = await createAccount(t.app);
    await setTeam(t, acct.teamId, { plan: 'basic' });
    const api = client(t.app, acct.key);
    const projectId = await createProject(t.app, acct.key, { brand_name: 'Initech', brand_url: 'https://initech.com' });
    await until(async () => (await api.get(`/projects/${projectId}`)).json().data?.bootstrap_status === 'completed', 90_000, 250);
    const rule = await api.post(`/projects/${projectId}/alerts`, { name: 'Measured at all', metric: 'visibility', condition: 'above', threshold: -1, channels: [] });
    expect(rule.statusCode, rule.body).toBe(200);
    expect((await api.get(`/projects/${projectId}/alerts/events`)).json().data).toEqual([]);
    const run = await t.app.inject({ method: 'POST', url: `/v1/admin/projects/${projectId}/refresh`, headers: { authorization: `Bearer ${OPERATOR}` } });
    expect(run.statusCode, run.body).toBe(200);
    const events = await until(async () => {
      const list = (await api.get(`/projects/${projectId}/alerts/events`)).json().data;
      return list.length > 0 && list;
    }, 60_000, 250);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ alert_id: rule.json().data.alert_id, metric: 'visibility', condition: 'above' });
    expect(events[0].window.responses).toBeGreaterThan(0);
  }, 180_000);
});
