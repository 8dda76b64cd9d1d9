import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../../test/fakes/receiver.js';
import { selfSignedCert } from '../../../test/fixtures/tls.js';
import { client, createAccount, errorBody, startTestApp, until, type TestApp } from '../../../test/helpers.js';
import { emitEvent } from './events.js';

// Failed deliveries made visible (issue 11, defect 3): a warn line per failed attempt with
// the delivery id and the reason (the receiver URL reduced to its origin), and
// GET /v1/webhooks/{webhook_id}/deliveries for the team (admin and viewer keys).

const tls = selfSignedCert();
const lines: Array<Record<string, any>> = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
    done();
  },
});

let t: TestApp;
let failing: Receiver;
beforeAll(async () => {
  t = await startTestApp({ allowPrivateUrls: true, webhookRetryBaseMs: 30, webhookTimeoutMs: 5_000, outboundCa: tls.cert }, {}, pino({ level: 'warn' }, sink));
  failing = await startReceiver({ tls, replies: new Array(200).fill(500) });
});
afterAll(async () => {
  await failing?.close();
  await t?.stop();
});

async function webhookOf(key: string, url: string): Promise<string> {
  const res = await client(t.app, key).post('/webhooks', { url, events: ['action.failed'] });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

describe('a delivery that keeps failing', () => {
  it('leaves a warn line per attempt (id and reason, no credentials or query) and shows in GET /webhooks/{id}/deliveries', async () => {
    const acct = await createAccount(t.app);
    const secretUrl = failing.url.replace('https://', 'https://agent:pa55word@') + '?token=qs-secret-123';
    const webhookId = await webhookOf(acct.key, secretUrl);
    const ctx = t.runtime.ctx;
    await ctx.store.tx((tx) => emitEvent(ctx, tx, acct.teamId, 'action.failed', { action_id: 'a1', workflow_id: 'w1', error: 'e' }));

    const api = client(t.app, acct.key);
    const item = await until(async () => {
      const res = await api.get(`/webhooks/${webhookId}/deliveries`);
      expect(res.statusCode, res.body).toBe(200);
      const d = res.json().data[0];
      return d?.status === 'failed' ? d : null;
    }, 20_000);
    expect(Object.keys(item).sort()).toEqual(['attempts', 'created_at', 'delivered_at', 'event', 'id', 'last_error', 'last_status_code', 'status']);
    expect(item).toMatchObject({ event: 'action.failed', status: 'failed', attempts: 4, last_status_code: 500, last_error: 'receiver answered 500', delivered_at: null });

    const mine = lines.filter((l) => l.delivery_id === item.id);
    expect(mine.map((l) => l.attempt)).toEqual([1, 2, 3, 4]);
    expect(mine.every((l) => l.level === 40 && l.reason === 'receiver answered 500')).toBe(true);
    expect(mine.at(-1)).toMatchObject({ final: true, msg: 'delivery failed for good', webhook_id: webhookId, target: new URL(failing.url).origin });
    const text = JSON.stringify(lines);
    expect(text).not.toContain('pa55word');
    expect(text).not.toContain('qs-secret-123');
  });

  it('a refused address fails at once, logged with its reason', async () => {
    const acct = await createAccount(t.app);
    const webhookId = await webhookOf(acct.key, 'https://hooks.acme-fixture.com/cb');
    // The name now resolves to a private address (DNS changed after registration): the
    // connect-time guard refuses it. The URL is set in the store since DNS here is offline.
    await t.runtime.ctx.store.query(`update webhooks set url = 'https://169.254.169.254/x?key=meta-secret' where id = $1`, [webhookId]);
    const ctx = t.runtime.ctx;
    await ctx.store.tx((tx) => emitEvent(ctx, tx, acct.teamId, 'action.failed', { action_id: 'a2', workflow_id: 'w2', error: 'e' }));
    const item = await until(async () => {
      const d = (await client(t.app, acct.key).get(`/webhooks/${webhookId}/deliveries`)).json().data[0];
      return d?.status === 'failed' ? d : null;
    }, 20_000);
    expect(item.attempts).toBe(1);
    expect(item.last_error).toMatch(/^blocked_address: .*cloud metadata/);
    const line = lines.find((l) => l.delivery_id === item.id);
    expect(line).toMatchObject({ final: true, reason: expect.stringMatching(/blocked_address/) });
    expect(JSON.stringify(lines)).not.toContain('meta-secret');
  });
});

describe('GET /webhooks/{webhook_id}/deliveries', () => {
  it('viewer keys may read; newest first; limit bounds the list', async () => {
    const acct = await createAccount(t.app);
    const webhookId = await webhookOf(acct.key, failing.url);
    const ctx = t.runtime.ctx;
    for (const n of [1, 2, 3]) {
      await ctx.store.tx((tx) => emitEvent(ctx, tx, acct.teamId, 'action.failed', { action_id: `a${n}`, workflow_id: 'w', error: 'e' }));
    }
    const viewerKey = (await client(t.app, acct.key).post('/keys', { scope: 'viewer' })).json().data.api_key;
    const res = await client(t.app, viewerKey).get(`/webhooks/${webhookId}/deliveries?limit=2`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toHaveLength(2);
    expect(data[0].created_at >= data[1].created_at).toBe(true);
    expect(res.json().success).toBe(true);
  });

  it("another team's webhook and an unknown one are 404; a bad limit is 400", async () => {
    const owner = await createAccount(t.app);
    const webhookId = await webhookOf(owner.key, 'https://hooks.acme-other.com/cb');
    const other = await createAccount(t.app);
    const res = await client(t.app, other.key).get(`/webhooks/${webhookId}/deliveries`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(errorBody('Webhook not found', 'not_found'));
    expect((await client(t.app, owner.key).get('/webhooks/wh_unknown123/deliveries')).statusCode).toBe(404);
    const bad = await client(t.app, owner.key).get(`/webhooks/${webhookId}/deliveries?limit=0`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toBe('limit must be a whole number from 1 to 100');
  });
});
