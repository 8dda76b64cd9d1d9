import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, createProject, startTestApp, ZERO_UUID, type TestApp, errorBody } from '../../../test/helpers.js';

const TOKEN = 'x'.repeat(20);

function operator(t: TestApp, token: string | null = TOKEN) {
  return (teamId: string, payload: unknown) =>
    t.app.inject({
      method: 'PATCH',
      url: `/v1/admin/teams/${teamId}`,
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
      payload: payload as object,
    });
}

describe('PATCH /v1/admin/teams/{team_id} with ADMIN_TOKEN set', () => {
  let t: TestApp;
  let patch: ReturnType<typeof operator>;
  beforeAll(async () => {
    t = await startTestApp({ adminToken: TOKEN, role: 'api' });
    patch = operator(t);
  });
  afterAll(async () => t?.stop());

  it('GET /admin/usage: rows per provider and day (none without live answers); a bad window is a 400', async () => {
    const get = (q: string, auth = `Bearer ${TOKEN}`) => t.app.inject({ method: 'GET', url: `/v1/admin/usage${q}`, headers: { authorization: auth } });
    const ok = await get('?from=2031-01-01&to=2031-01-31');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true, data: [] });
    expect((await get('?from=2031-02-01&to=2031-01-31')).json().detail).toBe('from must not be after to');
    expect((await get('?from=2030-01-01&to=2031-06-01')).json().detail).toBe('The window must be at most 366 days');
    const bad = await get('?from=2031-02-30');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/from must be a real date/);
    expect((await get('', 'Bearer wrong-token')).statusCode).toBe(401);
  });

  it('changes plan and tier: Envelope A with the team', async () => {
    const acct = await createAccount(t.app);
    const res = await patch(acct.teamId, { plan: 'pro', rate_limit_tier: 'premium' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: {
        team_id: acct.teamId,
        plan: 'pro',
        rate_limit_tier: 'premium',
        monthly_credits: 500,
        credits_used: 0,
        created_at: expect.any(String),
      },
    });
    const stored = await t.runtime.ctx.store.query<{ plan: string; rate_limit_tier: string }>(
      'select plan, rate_limit_tier from teams where id = $1',
      [acct.teamId],
    );
    expect(stored.rows[0]).toEqual({ plan: 'pro', rate_limit_tier: 'premium' });
  });

  it("premium tier: the team's key shows X-RateLimit-Limit 350 at once (70 before)", async () => {
    const acct = await createAccount(t.app);
    const api = client(t.app, acct.key);
    const before = await api.get('/projects');
    expect(before.headers['x-ratelimit-limit']).toBe('70');
    expect(before.headers['x-credit-available']).toBe('10');
    const res = await patch(acct.teamId, { rate_limit_tier: 'premium' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ plan: 'skip_trial', rate_limit_tier: 'premium' });
    const after = await api.get('/projects');
    expect(after.statusCode).toBe(200);
    expect(after.headers['x-ratelimit-limit']).toBe('350');
    expect(Number(after.headers['x-ratelimit-remaining'])).toBeGreaterThan(300);
    // and back
    expect((await patch(acct.teamId, { rate_limit_tier: 'standard' })).statusCode).toBe(200);
    expect((await api.get('/projects')).headers['x-ratelimit-limit']).toBe('70');
  });

  it("plan change: the new plan's project limit and credits apply at once", async () => {
    const acct = await createAccount(t.app);
    const api = client(t.app, acct.key);
    await createProject(t.app, acct.key, { brand_name: 'One' });
    const refused = await api.post('/account/projects', {
      brand_name: 'Two',
      brand_url: 'https://two.io',
      webhook_url: 'https://two.io/cb',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/^You've reached the maximum number of projects/);

    const res = await patch(acct.teamId, { plan: 'basic' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ plan: 'basic', rate_limit_tier: 'standard', monthly_credits: 200 });
    await createProject(t.app, acct.key, { brand_name: 'Two' });
    await createProject(t.app, acct.key, { brand_name: 'Three' });
    const fourth = await api.post('/account/projects', { brand_name: 'Four', brand_url: 'https://four.io', webhook_url: 'https://four.io/cb' });
    expect(fourth.statusCode).toBe(403);
    expect(fourth.json().detail).toMatch(/^You've reached the maximum number of projects/);
    expect((await api.get('/projects')).headers['x-credit-available']).toBe('200');
  });

  it('401 for a wrong, missing or malformed token, and nothing changes', async () => {
    const acct = await createAccount(t.app);
    const attempts = [
      operator(t, 'y'.repeat(20)),
      operator(t, TOKEN.slice(1)),
      operator(t, null),
      (teamId: string, payload: unknown) =>
        t.app.inject({ method: 'PATCH', url: `/v1/admin/teams/${teamId}`, headers: { authorization: TOKEN }, payload: payload as object }),
      (teamId: string, payload: unknown) =>
        t.app.inject({ method: 'PATCH', url: `/v1/admin/teams/${teamId}`, headers: { 'x-api-key': acct.key }, payload: payload as object }),
    ];
    for (const attempt of attempts) {
      const res = await attempt(acct.teamId, { plan: 'enterprise' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(errorBody(expect.any(String)));
    }
    const stored = await t.runtime.ctx.store.query<{ plan: string }>('select plan from teams where id = $1', [acct.teamId]);
    expect(stored.rows[0].plan).toBe('skip_trial');
  });

  it.each([
    ['an empty body', {}],
    ['an unknown plan', { plan: 'platinum' }],
    ['a capitalised plan', { plan: 'Basic' }],
    ['an unknown tier', { rate_limit_tier: 'gold' }],
    ['null plan', { plan: null }],
    ['an unknown field', { plan: 'basic', credits: 1000 }],
  ])('400 for %s', async (_label, body) => {
    const res = await patch(ZERO_UUID, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody(expect.any(String)));
  });

  it('400 for a team id that is not a UUID', async () => {
    const res = await patch('not-a-team', { plan: 'basic' });
    expect(res.statusCode).toBe(400);
  });

  it('404 for an unknown team', async () => {
    for (const id of [ZERO_UUID, crypto.randomUUID()]) {
      const res = await patch(id, { plan: 'basic' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(errorBody(expect.any(String)));
    }
  });

  it('each plan sets its monthly credits', async () => {
    const acct = await createAccount(t.app);
    const credits: Record<string, number> = { skip_trial: 10, basic: 200, pro: 500, enterprise: 2000 };
    for (const [plan, n] of Object.entries(credits)) {
      const res = await patch(acct.teamId, { plan });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ plan, monthly_credits: n });
    }
  });
});

describe('the operator API with no ADMIN_TOKEN configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ adminToken: undefined, role: 'api' });
  });
  afterAll(async () => t?.stop());

  it('is 404, whatever the token, and changes nothing', async () => {
    const acct = await createAccount(t.app);
    for (const token of [TOKEN, null, '']) {
      const res = await operator(t, token)(acct.teamId, { plan: 'enterprise' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(errorBody(expect.any(String)));
    }
    const stored = await t.runtime.ctx.store.query<{ plan: string }>('select plan from teams where id = $1', [acct.teamId]);
    expect(stored.rows[0].plan).toBe('skip_trial');
  });
});
