import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, createProject, setTeam, startTestApp, ZERO_UUID, type TestApp, errorBody } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

const KEY_FIELDS = ['created_at', 'created_by', 'expires_at', 'id', 'is_active', 'key_prefix', 'name', 'rate_limit_tier', 'scope'];
const DAY = 24 * 3600 * 1000;

async function newKey(key: string, body: Record<string, unknown>) {
  const res = await client(t.app, key).post('/keys', body);
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; api_key: string; scope: string };
}

describe('POST /keys', () => {
  it('201 Envelope A with the full key shown once, usable at once', async () => {
    const acct = await createAccount(t.app);
    const before = Date.now();
    const res = await client(t.app, acct.key).post('/keys', { scope: 'viewer', name: '  Dashboard  ' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'success']);
    expect(body.success).toBe(true);
    const k = body.data;
    expect(Object.keys(k).sort()).toEqual(['api_key', ...KEY_FIELDS].sort());
    expect(k.api_key).toMatch(/^tk_live_[0-9A-Za-z]{32}$/);
    expect(k.api_key).not.toBe(acct.key);
    expect(k.key_prefix).toBe(k.api_key.slice(0, 12));
    expect(k).toMatchObject({ scope: 'viewer', name: 'Dashboard', is_active: true, rate_limit_tier: 'standard' });
    expect(k.id).toMatch(/^[0-9a-f-]{36}$/);
    // default expiry: one year ahead
    const expires = Date.parse(k.expires_at);
    expect(expires).toBeGreaterThan(before + 364 * DAY);
    expect(expires).toBeLessThan(Date.now() + 366 * DAY);
    expect(new Date(k.created_at).toISOString()).toBe(k.created_at);

    const use = await client(t.app, k.api_key).get('/projects');
    expect(use.statusCode).toBe(200);

    const stored = await t.runtime.ctx.store.query('select * from api_keys where id = $1', [k.id]);
    expect(stored.rows).toHaveLength(1);
    expect(JSON.stringify(stored.rows)).not.toContain(k.api_key);
  });

  it('keeps an explicit future expires_at and an admin scope', async () => {
    const acct = await createAccount(t.app);
    const expiresAt = new Date(Date.now() + 30 * DAY);
    expiresAt.setUTCMilliseconds(0);
    const k = await newKey(acct.key, { scope: 'admin', expires_at: expiresAt.toISOString() });
    expect(k).toMatchObject({ scope: 'admin', name: null, expires_at: expiresAt.toISOString() });
    // an admin key can write
    const made = await client(t.app, k.api_key).post('/keys', { scope: 'viewer' });
    expect(made.statusCode).toBe(201);
  });

  it('shows the team tier', async () => {
    const acct = await createAccount(t.app);
    await setTeam(t, acct.teamId, { rate_limit_tier: 'premium' });
    const k = await newKey(acct.key, { scope: 'viewer' });
    expect(k).toMatchObject({ rate_limit_tier: 'premium' });
  });

  it.each([
    [{ scope: 'admin', expires_at: new Date(Date.now() - 60_000).toISOString() }],
    [{ scope: 'viewer', expires_at: '2020-01-01T00:00:00Z' }],
    [{ scope: 'admin', expires_at: 'next week' }],
    [{ scope: 'owner' }],
    [{}],
    [{ scope: 'admin', name: '   ' }],
  ])('400 for %j, and no key is made', async (body) => {
    const acct = await createAccount(t.app);
    const res = await client(t.app, acct.key).post('/keys', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody(expect.any(String)));
    const keys = await t.runtime.ctx.store.query('select id from api_keys where team_id = $1', [acct.teamId]);
    expect(keys.rows).toHaveLength(1);
  });

  it('400 names expires_at when it is in the past', async () => {
    const acct = await createAccount(t.app);
    const res = await client(t.app, acct.key).post('/keys', { scope: 'admin', expires_at: '2001-01-01T00:00:00Z' });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/expires_at/);
  });
});

describe('GET /keys', () => {
  it('lists every key of the team, oldest first, never the full key', async () => {
    const acct = await createAccount(t.app);
    const other = await createAccount(t.app);
    const viewer = await newKey(acct.key, { scope: 'viewer', name: 'read' });
    const admin = await newKey(acct.key, { scope: 'admin', name: 'write' });
    const res = await client(t.app, acct.key).get('/keys');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data).toHaveLength(3);
    for (const k of body.data) expect(Object.keys(k).sort()).toEqual(KEY_FIELDS);
    expect(body.data.map((k: { id: string }) => k.id).slice(1)).toEqual([viewer.id, admin.id]);
    expect(body.data[0]).toMatchObject({ scope: 'admin', key_prefix: acct.key.slice(0, 12), is_active: true });
    expect(body.data[1]).toMatchObject({ scope: 'viewer', name: 'read', key_prefix: viewer.api_key.slice(0, 12) });
    for (const full of [acct.key, viewer.api_key, admin.api_key, other.key]) expect(res.body).not.toContain(full);
  });
});

describe('viewer keys', () => {
  let acct: Awaited<ReturnType<typeof createAccount>>;
  let viewer: string;
  let projectId: string;
  beforeAll(async () => {
    acct = await createAccount(t.app);
    projectId = await createProject(t.app, acct.key);
    viewer = (await newKey(acct.key, { scope: 'viewer' })).api_key;
  });

  it.each(['/projects', '/projects/{p}', '/projects/{p}/topics', '/projects/{p}/prompts', '/projects/{p}/competitors', '/webhooks'])(
    'read GET %s works',
    async (path) => {
      const res = await client(t.app, viewer).get(path.replace('{p}', projectId));
      expect(res.statusCode).toBe(200);
      expect(res.json().success).toBe(true);
    },
  );

  it.each([
    ['post', '/keys', { scope: 'admin' }],
    ['post', '/account/projects', { brand_name: 'X', brand_url: 'https://x.io', webhook_url: 'https://x.io/cb' }],
    ['post', '/projects/{p}/topics', { name: 'CRM' }],
    ['post', '/webhooks', { url: 'https://example.com/hook', events: ['action.completed'] }],
    ['patch', `/keys/${ZERO_UUID}`, { is_active: false }],
    ['delete', `/keys/${ZERO_UUID}`, undefined],
  ] as const)('write %s %s is 403 and changes nothing', async (method, path, body) => {
    const before = await t.runtime.ctx.store.query<{ n: number }>(
      `select (select count(*) from api_keys where team_id = $1) + (select count(*) from topics) +
              (select count(*) from webhooks where team_id = $1) + (select count(*) from projects where team_id = $1) as n`,
      [acct.teamId],
    );
    const api = client(t.app, viewer);
    const url = path.replace('{p}', projectId);
    const res = method === 'delete' ? await api.delete(url) : await api[method](url, body);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(errorBody(expect.any(String)));
    const after = await t.runtime.ctx.store.query<{ n: number }>(
      `select (select count(*) from api_keys where team_id = $1) + (select count(*) from topics) +
              (select count(*) from webhooks where team_id = $1) + (select count(*) from projects where team_id = $1) as n`,
      [acct.teamId],
    );
    expect(Number(after.rows[0].n)).toBe(Number(before.rows[0].n));
  });

  it('cannot list the team keys either (key management is for admins)', async () => {
    const res = await client(t.app, viewer).get('/keys');
    expect(res.statusCode).toBe(403);
  });
});

describe('PATCH /keys/{key_id}', () => {
  it('is_active false: that key gets 401 API key is inactive at once; true again restores it', async () => {
    const acct = await createAccount(t.app);
    const second = await newKey(acct.key, { scope: 'admin' });
    // warm any cache of the key
    expect((await client(t.app, second.api_key).get('/projects')).statusCode).toBe(200);

    const res = await client(t.app, acct.key).patch(`/keys/${second.id}`, { is_active: false });
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(true);
    expect(Object.keys(res.json().data).sort()).toEqual(KEY_FIELDS);
    expect(res.json().data).toMatchObject({ id: second.id, is_active: false, scope: 'admin' });
    expect(res.body).not.toContain(second.api_key);

    const denied = await client(t.app, second.api_key).get('/projects');
    expect(denied.statusCode).toBe(401);
    expect(denied.json()).toEqual(errorBody('API key is inactive'));
    // the other key of the team is untouched
    expect((await client(t.app, acct.key).get('/projects')).statusCode).toBe(200);
    const listed = await client(t.app, acct.key).get('/keys');
    expect(listed.json().data.find((k: { id: string }) => k.id === second.id).is_active).toBe(false);

    const back = await client(t.app, acct.key).patch(`/keys/${second.id}`, { is_active: true });
    expect(back.statusCode).toBe(200);
    expect(back.json().data.is_active).toBe(true);
    expect((await client(t.app, second.api_key).get('/projects')).statusCode).toBe(200);
  });

  it('a deactivated account key is not handed out again by POST /account/api-key', async () => {
    const acct = await createAccount(t.app);
    const id = (await client(t.app, acct.key).get('/keys')).json().data[0].id;
    const spare = await newKey(acct.key, { scope: 'viewer' });
    expect((await client(t.app, spare.api_key).get('/projects')).statusCode).toBe(200);
    const off = await client(t.app, acct.key).patch(`/keys/${id}`, { is_active: false });
    expect(off.statusCode).toBe(200);
    const again = await client(t.app).post('/account/api-key', { email: acct.email, password: acct.password });
    expect(again.statusCode).toBe(200);
    const fresh = again.json().data.api_key;
    expect(fresh).not.toBe(acct.key);
    expect((await client(t.app, fresh).get('/projects')).statusCode).toBe(200);
  });

  it.each([[{}], [{ is_active: 'no' }], [{ is_active: null }], [{ is_active: false, scope: 'viewer' }]])(
    '400 for %j',
    async (body) => {
      const acct = await createAccount(t.app);
      const id = (await client(t.app, acct.key).get('/keys')).json().data[0].id;
      const res = await client(t.app, acct.key).patch(`/keys/${id}`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(errorBody(expect.any(String)));
      expect((await client(t.app, acct.key).get('/projects')).statusCode).toBe(200);
    },
  );
});

describe('DELETE /keys/{key_id}', () => {
  it('deletes: Envelope A {id, message}; the key then gets 401 Invalid API key; a second delete 404', async () => {
    const acct = await createAccount(t.app);
    const doomed = await newKey(acct.key, { scope: 'viewer' });
    expect((await client(t.app, doomed.api_key).get('/projects')).statusCode).toBe(200);

    const res = await client(t.app, acct.key).delete(`/keys/${doomed.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { id: doomed.id, message: expect.any(String) } });

    const denied = await client(t.app, doomed.api_key).get('/projects');
    expect(denied.statusCode).toBe(401);
    expect(denied.json()).toEqual(errorBody('Invalid API key'));

    const again = await client(t.app, acct.key).delete(`/keys/${doomed.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(errorBody(expect.any(String)));
    const ids = (await client(t.app, acct.key).get('/keys')).json().data.map((k: { id: string }) => k.id);
    expect(ids).not.toContain(doomed.id);
  });
});

describe("another team's key", () => {
  it('404 on PATCH and DELETE, and the key keeps working', async () => {
    const owner = await createAccount(t.app);
    const stranger = await createAccount(t.app);
    const target = await newKey(owner.key, { scope: 'admin' });
    const api = client(t.app, stranger.key);

    const patch = await api.patch(`/keys/${target.id}`, { is_active: false });
    expect(patch.statusCode).toBe(404);
    expect(patch.json()).toEqual(errorBody(expect.any(String)));
    const del = await api.delete(`/keys/${target.id}`);
    expect(del.statusCode).toBe(404);
    expect(del.json()).toEqual(errorBody(expect.any(String)));

    expect((await client(t.app, target.api_key).get('/projects')).statusCode).toBe(200);
    const listed = await api.get('/keys');
    expect(listed.json().data.map((k: { id: string }) => k.id)).not.toContain(target.id);
  });

  it('404 for an unknown key id', async () => {
    const acct = await createAccount(t.app);
    const res = await client(t.app, acct.key).patch(`/keys/${crypto.randomUUID()}`, { is_active: false });
    expect(res.statusCode).toBe(404);
    const del = await client(t.app, acct.key).delete(`/keys/${crypto.randomUUID()}`);
    expect(del.statusCode).toBe(404);
  });
});
