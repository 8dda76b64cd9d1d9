import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, startTestApp, uniqueEmail, type TestApp, errorBody } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t?.stop());

describe('POST /account/create', () => {
  it('creates a team on skip_trial with a generated password (Envelope B)', async () => {
    const email = `  ${uniqueEmail('Mixed').toUpperCase()}  `;
    const res = await client(t.app).post('/account/create', { email, password: 'ignored' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 200, message: '200 OK' });
    expect(body.data.email).toBe(email.trim().toLowerCase());
    expect(body.data.password).toMatch(/^[0-9A-Za-z]{24}$/);
    expect(body.data.password).not.toBe('ignored');
    expect(body.data.user_id).toMatch(/^[0-9a-f-]{36}$/);
    const team = await t.runtime.ctx.store.query<{ plan: string }>('select plan from teams where id = $1', [body.data.team_id]);
    expect(team.rows[0].plan).toBe('skip_trial');
  });

  it.each([[''], ['no-at-sign'], ['   '], [42]])('400 for email %j', async (email) => {
    const res = await client(t.app).post('/account/create', { email });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody('A valid email is required'));
  });

  it('400 without an email', async () => {
    const res = await client(t.app).post('/account/create', {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody('A valid email is required'));
  });

  it('409 for an email already registered, in any case', async () => {
    const email = uniqueEmail();
    expect((await client(t.app).post('/account/create', { email })).statusCode).toBe(200);
    const res = await client(t.app).post('/account/create', { email: email.toUpperCase() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual(errorBody('Failed to create account. The email may already be registered.'));
  });
});

describe('POST /account/api-key', () => {
  it('creates a standard admin key once, then returns the same key', async () => {
    const acct = await createAccount(t.app);
    expect(acct.key).toMatch(/^tk_live_[0-9A-Za-z]{32}$/);
    const again = await client(t.app).post('/account/api-key', { email: acct.email, password: acct.password });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      code: 200,
      message: '200 OK',
      data: { api_key: acct.key, team_id: acct.teamId, key_prefix: acct.key.slice(0, 12), rate_limit_tier: 'standard' },
    });
    const stored = await t.runtime.ctx.store.query<{ key_hash: string; key_encrypted: string }>(
      'select key_hash, key_encrypted from api_keys where team_id = $1',
      [acct.teamId],
    );
    expect(stored.rows).toHaveLength(1);
    expect(JSON.stringify(stored.rows)).not.toContain(acct.key);
  });

  it('401 for a wrong password or unknown email', async () => {
    const acct = await createAccount(t.app);
    for (const body of [
      { email: acct.email, password: 'wrong' },
      { email: uniqueEmail('nobody'), password: acct.password },
    ]) {
      const res = await client(t.app).post('/account/api-key', body);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(errorBody('Invalid email or password'));
    }
  });
});

describe('GET /account (extension)', () => {
  it("shows the team's plan, credits and tier, to a viewer too; another team sees its own", async () => {
    const acct = await createAccount(t.app);
    const other = await createAccount(t.app);
    await t.runtime.ctx.store.query(`update teams set plan = 'pro' where id = $1`, [acct.teamId]);
    await t.runtime.ctx.store.query(
      `insert into credit_usage (team_id, month, used) values ($1, to_char(now() at time zone 'utc', 'YYYY-MM'), 7)`,
      [acct.teamId],
    );
    t.runtime.http!.authCache.invalidateTeam(acct.teamId);
    const viewer = (await client(t.app, acct.key).post('/keys', { scope: 'viewer' })).json().data.api_key;
    const res = await client(t.app, viewer).get('/account');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      team_id: acct.teamId,
      plan: 'pro',
      scope: 'viewer',
      rate_limit_tier: 'standard',
      credits_included: 500,
      credits_used: 7,
      credits_left: 493,
      max_projects: 10,
    });
    const theirs = await client(t.app, other.key).get('/account');
    expect(theirs.json().data).toMatchObject({ team_id: other.teamId, plan: 'skip_trial', credits_used: 0, credits_left: 10 });
    expect((await client(t.app).get('/account')).statusCode).toBe(401);
  });
});
