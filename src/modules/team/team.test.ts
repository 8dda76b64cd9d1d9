import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createAccount, createProject, startTestApp, uniqueEmail, type Account, type TestApp } from '../../../test/helpers.js';
import { startSmtpInbox, type SmtpInbox } from '../../../test/smtp-inbox.js';
import { pruneAudit } from '../audit/service.js';
import { createPasswordReset } from './passwords.js';

// Teams (issue 17) through HTTP on the suite's store: members and roles, the last-admin
// rule (also under two concurrent demotions), invitations (single use, expiry, revocation,
// mail), passwords, and the audit log with its actors and without a secret.

let t: TestApp;
let addr = 0;
const ip = () => `10.9.${(++addr >> 8) & 255}.${addr & 255}`;

interface Sess {
  cookie: string;
  csrf: string;
  id: string;
}

async function signIn(app: FastifyInstance, body: Record<string, string>): Promise<Sess> {
  const res = await app.inject({ method: 'POST', url: '/v1/session', payload: body, remoteAddress: ip() });
  expect(res.statusCode, res.body).toBe(201);
  return { cookie: String([res.headers['set-cookie']].flat()[0]).split(';')[0], csrf: res.json().data.csrf_token, id: res.json().data.id };
}

function asKey(app: FastifyInstance, key: string, method: string, url: string, payload?: object) {
  return app.inject({ method: method as 'GET', url, headers: { 'x-api-key': key }, remoteAddress: ip(), ...(payload ? { payload } : {}) });
}
function asSession(app: FastifyInstance, s: Sess, method: string, url: string, payload?: object) {
  return app.inject({ method: method as 'GET', url, headers: { cookie: s.cookie, 'x-csrf-token': s.csrf }, remoteAddress: ip(), ...(payload ? { payload } : {}) });
}

async function invite(app: FastifyInstance, key: string, email: string, role: 'admin' | 'viewer') {
  const res = await asKey(app, key, 'POST', '/v1/team/invitations', { email, role });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; token: string; accept_url: string; mailed: boolean };
}
const accept = (app: FastifyInstance, token: string, body: object = {}) =>
  app.inject({ method: 'POST', url: `/v1/account/invitations/${token}/accept`, payload: body, remoteAddress: ip() });

beforeAll(async () => {
  t = await startTestApp({ role: 'api', publicUrl: 'https://sightline.example.test' });
});
afterAll(async () => t?.stop());

describe('members and roles', () => {
  let owner: Account;
  beforeAll(async () => {
    owner = await createAccount(t.app);
  });

  it('GET /team and /team/members: the account holder is the one admin', async () => {
    const team = await asKey(t.app, owner.key, 'GET', '/v1/team');
    expect(team.statusCode, team.body).toBe(200);
    expect(team.json().data).toMatchObject({ team_id: owner.teamId, plan: 'skip_trial', member_count: 1, admin_count: 1, pending_invitations: 0 });
    const members = await asKey(t.app, owner.key, 'GET', '/v1/team/members');
    expect(members.json().data).toEqual([expect.objectContaining({ user_id: owner.userId, email: owner.email, role: 'admin' })]);
  });

  it('the last admin can be neither demoted nor removed (409)', async () => {
    const demote = await asKey(t.app, owner.key, 'PATCH', `/v1/team/members/${owner.userId}`, { role: 'viewer' });
    expect(demote.statusCode, demote.body).toBe(409);
    const remove = await asKey(t.app, owner.key, 'DELETE', `/v1/team/members/${owner.userId}`);
    expect(remove.statusCode, remove.body).toBe(409);
  });

  it('two concurrent demotions of the only two admins: one wins, one gets 409, one admin is left', async () => {
    const second = uniqueEmail('admin2');
    const inv = await invite(t.app, owner.key, second, 'admin');
    const acc = await accept(t.app, inv.token, { password: 'second-admin-password' });
    expect(acc.statusCode, acc.body).toBe(200);
    const secondId = acc.json().data.user_id as string;
    const [a, b] = await Promise.all([
      asKey(t.app, owner.key, 'PATCH', `/v1/team/members/${owner.userId}`, { role: 'viewer' }),
      asKey(t.app, owner.key, 'PATCH', `/v1/team/members/${secondId}`, { role: 'viewer' }),
    ]);
    expect([a.statusCode, b.statusCode].sort(), `${a.body} ${b.body}`).toEqual([200, 409]);
    const members = (await asKey(t.app, owner.key, 'GET', '/v1/team/members')).json().data as { role: string }[];
    expect(members.filter((m) => m.role === 'admin')).toHaveLength(1);
  });

  it("404 for another team's member", async () => {
    const other = await createAccount(t.app);
    const res = await asKey(t.app, owner.key, 'PATCH', `/v1/team/members/${other.userId}`, { role: 'viewer' });
    expect(res.statusCode, res.body).toBe(404);
    const del = await asKey(t.app, owner.key, 'DELETE', `/v1/team/members/${other.userId}`);
    expect(del.statusCode, del.body).toBe(404);
  });
});

describe('invitations', () => {
  let owner: Account;
  let projectId: string;
  beforeAll(async () => {
    owner = await createAccount(t.app);
    projectId = await createProject(t.app, owner.key, { brand_name: 'Gamma', brand_url: 'https://gamma-brand.com' });
  });

  it('the accept_url takes its origin from PUBLIC_URL, never from a forged Host or forwarded header', async () => {
    expect(t.config.publicUrl).toBe('https://sightline.example.test');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/team/invitations',
      headers: { 'x-api-key': owner.key, host: 'attacker.example', 'x-forwarded-host': 'attacker.example', 'x-forwarded-proto': 'http' },
      payload: { email: uniqueEmail('forged'), role: 'viewer' },
      remoteAddress: ip(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const { accept_url: url, token } = res.json().data;
    expect(url).toBe(`https://sightline.example.test/accept-invitation#${token}`);
    expect(url).not.toContain('attacker');
  });

  it('a viewer accepts once, reads everything, writes nothing; removing them ends their session at once', async () => {
    const email = uniqueEmail('viewer');
    const inv = await invite(t.app, owner.key, email, 'viewer');
    expect(inv.token).toMatch(/^sli_[0-9A-Za-z]{32}$/); // 32 base62 characters: about 190 bits
    expect(inv.accept_url).toBe(`${t.config.publicUrl}/accept-invitation#${inv.token}`);
    expect(inv.mailed).toBe(false);
    const pending = (await asKey(t.app, owner.key, 'GET', '/v1/team/invitations')).json().data;
    expect(pending.map((i: { id: string }) => i.id)).toContain(inv.id);
    expect(JSON.stringify(pending)).not.toContain(inv.token);

    const ok = await accept(t.app, inv.token, { password: 'viewer-password-123' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ email, role: 'viewer', team_id: owner.teamId, created: true, password: null });
    const again = await accept(t.app, inv.token, { password: 'viewer-password-123' });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().detail).toMatch(/already used/);

    const s = await signIn(t.app, { email, password: 'viewer-password-123' });
    expect((await asSession(t.app, s, 'GET', `/v1/projects/${projectId}`)).statusCode).toBe(200);
    expect((await asSession(t.app, s, 'GET', '/v1/team/members')).statusCode).toBe(200);
    const write = await asSession(t.app, s, 'PATCH', `/v1/projects/${projectId}`, { name: 'Nope' });
    expect(write.statusCode, write.body).toBe(403);
    expect((await asSession(t.app, s, 'POST', '/v1/team/invitations', { email: uniqueEmail(), role: 'admin' })).statusCode).toBe(403);
    // A viewer person gets a read-only key of their own from the account endpoint, never the
    // admin key: the same key on a second call, and it cannot write.
    const key = await t.app.inject({ method: 'POST', url: '/v1/account/api-key', payload: { email, password: 'viewer-password-123' }, remoteAddress: ip() });
    expect(key.statusCode, key.body).toBe(200);
    const viewerKey = key.json().data.api_key as string;
    expect(viewerKey).not.toBe(owner.key);
    const keyAgain = await t.app.inject({ method: "POST", url: "/v1/account/api-key", payload: { email, password: "viewer-password-123" }, remoteAddress: ip() });
    expect(keyAgain.json().data.api_key).toBe(viewerKey);
    expect((await asKey(t.app, viewerKey, 'GET', `/v1/projects/${projectId}`)).statusCode).toBe(200);
    const keyWrite = await asKey(t.app, viewerKey, 'POST', '/v1/team/invitations', { email: uniqueEmail(), role: 'viewer' });
    expect(keyWrite.statusCode, keyWrite.body).toBe(403);
    const listed = (await asKey(t.app, owner.key, 'GET', '/v1/keys')).json().data.find((k: { key_prefix: string }) => viewerKey.startsWith(k.key_prefix));
    expect(listed).toMatchObject({ scope: 'viewer', created_by: { email } });

    const removed = await asKey(t.app, owner.key, 'DELETE', `/v1/team/members/${ok.json().data.user_id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().data.sessions_ended).toBe(1);
    const after = await asSession(t.app, s, 'GET', `/v1/projects/${projectId}`);
    expect(after.statusCode, after.body).toBe(401);
  });

  it('unknown, revoked and expired invitations are refused; a new user without a password gets one generated', async () => {
    expect((await accept(t.app, `sli_${'x'.repeat(32)}`)).statusCode).toBe(404);
    const revoked = await invite(t.app, owner.key, uniqueEmail('rev'), 'viewer');
    const del = await asKey(t.app, owner.key, 'DELETE', `/v1/team/invitations/${revoked.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect((await asKey(t.app, owner.key, 'DELETE', `/v1/team/invitations/${revoked.id}`)).statusCode).toBe(404);
    const r = await accept(t.app, revoked.token);
    expect(r.statusCode, r.body).toBe(409);
    expect(r.json().detail).toMatch(/revoked/);

    const expired = await invite(t.app, owner.key, uniqueEmail('exp'), 'viewer');
    await t.runtime.ctx.store.query(`update invitations set expires_at = now() - interval '1 second' where id = $1`, [expired.id]);
    const e = await accept(t.app, expired.token);
    expect(e.statusCode, e.body).toBe(409);
    expect(e.json().detail).toMatch(/expired/);

    const fresh = await invite(t.app, owner.key, uniqueEmail('gen'), 'admin');
    const g = await accept(t.app, fresh.token);
    expect(g.statusCode, g.body).toBe(200);
    expect(g.json().data.password).toMatch(/^[0-9A-Za-z]{24}$/);
    expect((await accept(t.app, fresh.token, { password: 'short' })).statusCode).toBe(400);
  });

  it('an existing user of another team is added once and can sign in to either team', async () => {
    const other = await createAccount(t.app);
    const inv = await invite(t.app, owner.key, other.email, 'viewer');
    const ok = await accept(t.app, inv.token, { password: 'ignored-for-existing-users' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ user_id: other.userId, created: false, role: 'viewer' });
    const twice = await invite(t.app, owner.key, other.email, 'viewer').catch(() => null);
    expect(twice).toBeNull(); // already a member: 409 at invitation time
    const home = await signIn(t.app, { email: other.email, password: other.password });
    const there = await signIn(t.app, { email: other.email, password: other.password, team_id: owner.teamId });
    const me = async (s: Sess) => (await asSession(t.app, s, 'GET', '/v1/session')).json().data;
    expect(await me(home)).toMatchObject({ team_id: other.teamId, scope: 'admin' });
    expect(await me(there)).toMatchObject({ team_id: owner.teamId, scope: 'viewer' });
  });

  it('keys made by a removed member stay and show who made them', async () => {
    const email = uniqueEmail('keymaker');
    const inv = await invite(t.app, owner.key, email, 'admin');
    const user = (await accept(t.app, inv.token, { password: 'keymaker-password' })).json().data;
    const s = await signIn(t.app, { email, password: 'keymaker-password' });
    const made = await asSession(t.app, s, 'POST', '/v1/keys', { scope: 'viewer', name: 'made by keymaker' });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data.created_by).toEqual({ user_id: user.user_id, email });
    expect((await asKey(t.app, owner.key, 'DELETE', `/v1/team/members/${user.user_id}`)).statusCode).toBe(200);
    const keys = (await asKey(t.app, owner.key, 'GET', '/v1/keys')).json().data as { id: string; created_by: unknown }[];
    expect(keys.find((k) => k.id === made.json().data.id)?.created_by).toEqual({ user_id: user.user_id, email });
    expect((await asKey(t.app, made.json().data.api_key, 'GET', '/v1/projects')).statusCode).toBe(200);
  });
});

describe('passwords', () => {
  it('a person changes their own password with the current one; their other sessions end', async () => {
    const acct = await createAccount(t.app);
    const a = await signIn(t.app, { email: acct.email, password: acct.password });
    const b = await signIn(t.app, { email: acct.email, password: acct.password });
    const wrong = await asSession(t.app, a, 'POST', '/v1/account/password', { current_password: 'nope', new_password: 'a-brand-new-password' });
    expect(wrong.statusCode, wrong.body).toBe(400);
    const ok = await asSession(t.app, a, 'POST', '/v1/account/password', { current_password: acct.password, new_password: 'a-brand-new-password' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.sessions_ended).toBe(1);
    expect((await asSession(t.app, a, 'GET', '/v1/team')).statusCode).toBe(200);
    expect((await asSession(t.app, b, 'GET', '/v1/team')).statusCode).toBe(401);
    await signIn(t.app, { email: acct.email, password: 'a-brand-new-password' });
    const byKey = await asKey(t.app, acct.key, 'POST', '/v1/account/password', { current_password: 'x', new_password: 'another-password-1' });
    expect(byKey.statusCode, byKey.body).toBe(400);
  });

  it("the operator's reset link works once and ends every session", async () => {
    const acct = await createAccount(t.app);
    const s = await signIn(t.app, { email: acct.email, password: acct.password });
    const { token } = await createPasswordReset(t.runtime.ctx, acct.email);
    const reset = (pw: string) => t.app.inject({ method: 'POST', url: '/v1/account/password/reset', payload: { token, new_password: pw }, remoteAddress: ip() });
    const ok = await reset('reset-password-value');
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await reset('reset-password-again')).statusCode).toBe(400);
    expect((await asSession(t.app, s, 'GET', '/v1/team')).statusCode).toBe(401);
    await signIn(t.app, { email: acct.email, password: 'reset-password-value' });
  });
});

describe('audit log', () => {
  it('shows each write with its actor, filters and pages, and never holds a secret', async () => {
    const owner = await createAccount(t.app);
    const secrets: string[] = [owner.key, owner.password];
    const adminSession = await signIn(t.app, { email: owner.email, password: owner.password });
    const email = uniqueEmail('audited');
    const inv = (await asSession(t.app, adminSession, 'POST', '/v1/team/invitations', { email, role: 'viewer' })).json().data;
    secrets.push(inv.token);
    const acc = (await accept(t.app, inv.token, { password: 'audited-password-1' })).json().data;
    secrets.push('audited-password-1');
    const vs = await signIn(t.app, { email, password: 'audited-password-1' });
    const key = (await asSession(t.app, adminSession, 'POST', '/v1/keys', { scope: 'viewer' })).json().data;
    secrets.push(key.api_key);
    await asKey(t.app, owner.key, 'DELETE', `/v1/team/members/${acc.user_id}`);
    expect((await asSession(t.app, vs, 'GET', '/v1/team')).statusCode).toBe(401);

    const log = await asKey(t.app, owner.key, 'GET', '/v1/team/audit?page_size=100');
    expect(log.statusCode, log.body).toBe(200);
    const items = log.json().data.items as { action: string; actor: { label: string; user_id: string | null; key_id: string | null }; target_id: string; ip: string; request_id: string }[];
    const find = (action: string) => items.find((i) => i.action === action);
    expect(find('account.create')).toMatchObject({ actor: { label: owner.email, user_id: owner.userId }, target_id: owner.userId });
    expect(items.filter((i) => i.action === 'key.create').map((i) => i.actor.label)).toEqual([owner.email, owner.email]); // the account key, then the viewer key
    expect(find('invitation.create')).toMatchObject({ actor: { label: owner.email, user_id: owner.userId }, target_id: inv.id });
    expect(find('invitation.accept')).toMatchObject({ actor: { label: email, user_id: acc.user_id }, target_id: inv.id });
    expect(items.filter((i) => i.action === 'session.create').map((i) => i.actor.label)).toEqual(expect.arrayContaining([owner.email, email]));
    expect(find('key.create')).toMatchObject({ actor: { label: owner.email }, target_id: key.id });
    expect(find('member.remove')).toMatchObject({ actor: { key_id: expect.any(String), user_id: null }, target_id: acc.user_id });
    expect(find('member.remove')?.actor.label).toMatch(/^key tk_live_/);
    for (const i of items) {
      expect(i.ip).toBeTruthy();
      expect(i.request_id).toBeTruthy();
    }

    const byActor = (await asKey(t.app, owner.key, 'GET', `/v1/team/audit?actor=${encodeURIComponent(email)}`)).json().data;
    expect(byActor.items.length).toBeGreaterThan(0);
    expect(byActor.items.every((i: { actor: { label: string } }) => i.actor.label === email)).toBe(true);
    const byFamily = (await asKey(t.app, owner.key, 'GET', '/v1/team/audit?action=invitation')).json().data;
    expect(byFamily.items.map((i: { action: string }) => i.action).sort()).toEqual(['invitation.accept', 'invitation.create']);
    const paged = (await asKey(t.app, owner.key, 'GET', '/v1/team/audit?page=2&page_size=2')).json().data;
    expect(paged).toMatchObject({ page: 2, page_size: 2, total: items.length });
    expect(paged.items).toEqual(items.slice(2, 4));
    const future = (await asKey(t.app, owner.key, 'GET', '/v1/team/audit?date_from=2999-01-01')).json().data;
    expect(future.total).toBe(0);
    expect((await asKey(t.app, owner.key, 'GET', '/v1/team/audit?date_from=2026-02-01&date_to=2026-01-01')).statusCode).toBe(400);
    expect((await asSession(t.app, adminSession, 'GET', '/v1/team/audit')).statusCode).toBe(200);

    // No secret anywhere in the stored log, not only in what the API shows.
    const all = JSON.stringify((await t.runtime.ctx.store.query('select * from audit_log')).rows);
    for (const secret of secrets) expect(all).not.toContain(secret);
  });

  it('a write made through an MCP tool is logged too', async () => {
    const owner = await createAccount(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'x-api-key': owner.key, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_project', arguments: { brand_name: 'Mcp Brand', brand_url: 'https://mcp-brand.com', webhook_url: 'https://hooks.mcp-brand.com/sightline' } } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('project_id');
    expect(res.body).not.toContain('isError":true');
    const log = (await asKey(t.app, owner.key, 'GET', '/v1/team/audit?action=mcp.create_project')).json().data;
    expect(log.total).toBe(1);
    const projects = (await asKey(t.app, owner.key, 'GET', '/v1/projects')).json().data;
    expect(log.items[0]).toMatchObject({ target_id: projects[0].id, actor: { user_id: null, label: expect.stringMatching(/^key tk_live_/) } });
    expect(log.items[0].request_id).toBeTruthy();
  });

  it('the retention job removes entries older than 400 days', async () => {
    const owner = await createAccount(t.app);
    const { rows } = await t.runtime.ctx.store.query<{ id: string }>(
      `insert into audit_log (team_id, actor_label, action, created_at) values ($1, 'x', 'old.entry', now() - interval '401 days'), ($1, 'x', 'recent.entry', now() - interval '399 days') returning id`,
      [owner.teamId],
    );
    expect(await pruneAudit(t.runtime.ctx)).toBeGreaterThanOrEqual(1);
    const left = await t.runtime.ctx.store.query<{ id: string; action: string }>('select id, action from audit_log where id = any($1)', [rows.map((r) => r.id)]);
    expect(left.rows.map((r) => r.action)).toEqual(['recent.entry']);
  });
});

describe('invitation mail (SMTP_URL, MAIL_FROM)', () => {
  let smtp: SmtpInbox;
  let mailApp: TestApp;
  let inbox: string[];
  beforeAll(async () => {
    smtp = await startSmtpInbox();
    inbox = smtp.messages;
    mailApp = await startTestApp({ role: 'api' }, { SMTP_URL: smtp.url, MAIL_FROM: 'Sightline <noreply@sightline.test>' });
  });
  afterAll(async () => {
    await mailApp?.stop();
    await smtp?.close();
  });

  it('mails the link; the link from the mail accepts the invitation', async () => {
    const owner = await createAccount(mailApp.app);
    const email = uniqueEmail('mailed');
    const inv = await invite(mailApp.app, owner.key, email, 'viewer');
    expect(inv.mailed).toBe(true);
    const mail = inbox.find((m) => m.includes(email));
    expect(mail).toBeDefined();
    const unfolded = (mail as string).replace(/=\r?\n/g, '');
    const link = unfolded.match(/https?:\/\/\S+\/accept-invitation#(sli_[0-9A-Za-z]+)/);
    expect(link?.[1]).toBe(inv.token);
    const ok = await accept(mailApp.app, link?.[1] as string, { password: 'mailed-password-1' });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
