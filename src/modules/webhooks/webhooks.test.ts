import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, startTestApp, type TestApp, errorBody } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

const RECORD_FIELDS = ['created_at', 'events', 'id', 'is_active', 'url'];
const EVENTS = ['action.checkpoint', 'action.completed', 'action.failed'];

async function register(key: string, body: Record<string, unknown>) {
  const res = await client(t.app, key).post('/webhooks', body);
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; url: string; secret: string; events: string[] };
}

describe('POST /webhooks', () => {
  it('201 Envelope A with a whsec_ secret, only at creation', async () => {
    const acct = await createAccount(t.app);
    const res = await client(t.app, acct.key).post('/webhooks', { url: 'https://hooks.example.com/sightline', events: EVENTS });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'success']);
    expect(body.success).toBe(true);
    expect(Object.keys(body.data).sort()).toEqual([...RECORD_FIELDS, 'secret'].sort());
    expect(body.data).toMatchObject({ url: 'https://hooks.example.com/sightline', events: EVENTS, is_active: true });
    expect(body.data.id).toMatch(/^wh_[0-9A-Za-z]+$/);
    expect(body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{16,}$/);
    expect(new Date(body.data.created_at).toISOString()).toBe(body.data.created_at);
    // never stored in the clear
    const stored = await t.runtime.ctx.store.query('select * from webhooks where id = $1', [body.data.id]);
    expect(JSON.stringify(stored.rows)).not.toContain(body.data.secret);
  });

  it('each webhook gets its own secret; repeated events are kept once', async () => {
    const acct = await createAccount(t.app);
    const a = await register(acct.key, { url: 'https://a.example.com/h', events: ['action.failed', 'action.failed'] });
    const b = await register(acct.key, { url: 'https://b.example.com/h', events: ['action.completed'] });
    expect(a.secret).not.toBe(b.secret);
    expect(a.id).not.toBe(b.id);
    expect(a.events).toEqual(['action.failed']);
  });

  describe('400, and nothing is registered', () => {
    let acct: Awaited<ReturnType<typeof createAccount>> | undefined;
    it.each([
      ['a missing url', { events: ['action.completed'] }],
      ['an empty url', { url: '', events: ['action.completed'] }],
      ['an http:// url', { url: 'http://hooks.example.com/h', events: ['action.completed'] }],
      ['a url that is not a URL', { url: 'hooks.example.com/h', events: ['action.completed'] }],
      ['a non-string url', { url: 42, events: ['action.completed'] }],
      ['missing events', { url: 'https://hooks.example.com/h' }],
      ['empty events', { url: 'https://hooks.example.com/h', events: [] }],
      ['an invalid event', { url: 'https://hooks.example.com/h', events: ['action.completed', 'project.deleted'] }],
      ['a bootstrap event', { url: 'https://hooks.example.com/h', events: ['project.bootstrap'] }],
      ['events as a string', { url: 'https://hooks.example.com/h', events: 'action.completed' }],
      ['an unknown field', { url: 'https://hooks.example.com/h', events: ['action.completed'], secret: 'mine' }],
    ])('%s', async (_label, body) => {
      acct ??= await createAccount(t.app);
      const res = await client(t.app, acct.key).post('/webhooks', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(errorBody(expect.any(String)));
      expect((await client(t.app, acct.key).get('/webhooks')).json().data).toEqual([]);
    });
  });

  it('400 details name the field at fault', async () => {
    const acct = await createAccount(t.app);
    const api = client(t.app, acct.key);
    expect((await api.post('/webhooks', { events: ['action.completed'] })).json().detail).toMatch(/url/);
    expect((await api.post('/webhooks', { url: 'http://x.example.com', events: ['action.completed'] })).json().detail).toMatch(/HTTPS/i);
    expect((await api.post('/webhooks', { url: 'https://x.example.com', events: [] })).json().detail).toMatch(/events/);
    expect((await api.post('/webhooks', { url: 'https://x.example.com', events: ['nope'] })).json().detail).toMatch(/nope/);
  });

  it('409 for a URL the team has already registered; another team may register it', async () => {
    const acct = await createAccount(t.app);
    const other = await createAccount(t.app);
    const url = 'https://hooks.example.com/shared';
    await register(acct.key, { url, events: ['action.completed'] });
    const dup = await client(t.app, acct.key).post('/webhooks', { url, events: ['action.failed'] });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual(errorBody(expect.any(String)));
    expect((await client(t.app, acct.key).get('/webhooks')).json().data).toHaveLength(1);
    await register(other.key, { url, events: ['action.completed'] });
  });
});

describe('GET /webhooks', () => {
  it("lists the team's webhooks oldest first, without secrets", async () => {
    const acct = await createAccount(t.app);
    const first = await register(acct.key, { url: 'https://one.example.com/h', events: ['action.checkpoint'] });
    const second = await register(acct.key, { url: 'https://two.example.com/h', events: ['action.completed', 'action.failed'] });
    const res = await client(t.app, acct.key).get('/webhooks');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data.map((w: { id: string }) => w.id)).toEqual([first.id, second.id]);
    for (const w of body.data) expect(Object.keys(w).sort()).toEqual(RECORD_FIELDS);
    expect(body.data[1]).toMatchObject({ url: 'https://two.example.com/h', events: ['action.completed', 'action.failed'], is_active: true });
    expect(res.body).not.toContain(first.secret);
    expect(res.body).not.toContain(second.secret);
    expect(res.body).not.toContain('whsec_');
  });

  it("never shows another team's webhooks", async () => {
    const owner = await createAccount(t.app);
    const stranger = await createAccount(t.app);
    await register(owner.key, { url: 'https://private.example.com/h', events: ['action.completed'] });
    const res = await client(t.app, stranger.key).get('/webhooks');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: [] });
  });
});

describe('DELETE /webhooks/{webhook_id}', () => {
  it('Envelope A {id, message}; then gone and 404', async () => {
    const acct = await createAccount(t.app);
    const keep = await register(acct.key, { url: 'https://keep.example.com/h', events: ['action.completed'] });
    const hook = await register(acct.key, { url: 'https://gone.example.com/h', events: ['action.completed'] });
    const res = await client(t.app, acct.key).delete(`/webhooks/${hook.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { id: hook.id, message: expect.any(String) } });
    const listed = (await client(t.app, acct.key).get('/webhooks')).json().data;
    expect(listed.map((w: { id: string }) => w.id)).toEqual([keep.id]);
    const again = await client(t.app, acct.key).delete(`/webhooks/${hook.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(errorBody(expect.any(String)));
    // the URL is free again
    await register(acct.key, { url: 'https://gone.example.com/h', events: ['action.failed'] });
  });

  it("404 for another team's webhook, which stays", async () => {
    const owner = await createAccount(t.app);
    const stranger = await createAccount(t.app);
    const hook = await register(owner.key, { url: 'https://owned.example.com/h', events: ['action.completed'] });
    const res = await client(t.app, stranger.key).delete(`/webhooks/${hook.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(errorBody(expect.any(String)));
    const listed = (await client(t.app, owner.key).get('/webhooks')).json().data;
    expect(listed.map((w: { id: string }) => w.id)).toEqual([hook.id]);
  });

  it('404 for an unknown wh_ id', async () => {
    const acct = await createAccount(t.app);
    const res = await client(t.app, acct.key).delete('/webhooks/wh_doesNotExist123');
    expect(res.statusCode).toBe(404);
  });
});
