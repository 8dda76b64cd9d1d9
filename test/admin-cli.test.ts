import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, freePort, startService, type ServiceProcess } from './child-service.js';
import { createAccount, startTestApp } from './helpers.js';

// `npm run admin -- plan | teams | callback-secret` against a RUNNING `node dist/main.js`
// (embedded store, no ADMIN_TOKEN set): the service writes its operator token into
// DATA_DIR at first start and the command reads it there, over HTTP.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['dist/cli.js', ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, timeout: 30_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run admin against the running embedded service', () => {
  let dataDir: string;
  let svc: ServiceProcess;
  let env: Record<string, string>;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-admin-cli-'));
    // A first start migrates a new store: minutes on a busy machine.
    svc = await startService({ DATA_DIR: dataDir, PROVIDERS_MODE: 'simulated' }, 240_000);
    env = { PORT: String(svc.port), DATA_DIR: dataDir };
  }, 300_000);
  afterAll(async () => {
    await svc?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('the service wrote an operator token into DATA_DIR (owner-only) and the operator API takes it', async () => {
    const file = path.join(dataDir, 'admin.token');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const token = fs.readFileSync(file, 'utf8').trim();
    expect(token.length).toBeGreaterThanOrEqual(16);
    expect((await call(svc.base, 'GET', '/admin/teams', undefined, { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await call(svc.base, 'GET', '/admin/teams', undefined, { authorization: 'Bearer not-the-token-at-all' })).status).toBe(401);
  });

  it('plan <email> pro: the team is on pro at once (its key sees 500 credits); teams lists it', async () => {
    const email = `marketer-${Date.now()}@example.com`;
    const created = await call(svc.base, 'POST', '/account/create', { email });
    expect(created.status).toBe(200);
    const key = await call(svc.base, 'POST', '/account/api-key', { email, password: created.json.data.password });
    const apiKey = key.json.data.api_key as string;
    expect((await call(svc.base, 'GET', '/projects', undefined, { 'x-api-key': apiKey })).headers.get('x-credit-available')).toBe('10');

    const out = await cli(['admin', 'plan', email, 'pro'], env);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`Team ${created.json.data.team_id} is now on pro: 500 credits a month`);
    expect((await call(svc.base, 'GET', '/projects', undefined, { 'x-api-key': apiKey })).headers.get('x-credit-available')).toBe('500');

    const byId = await cli(['admin', 'plan', created.json.data.team_id, 'basic'], env);
    expect(byId.stdout).toContain('is now on basic: 200 credits a month');

    const teams = await cli(['admin', 'teams'], env);
    expect(teams.code).toBe(0);
    const line = teams.stdout.split('\n').find((l) => l.includes(email));
    expect(line).toContain(created.json.data.team_id);
    expect(line).toMatch(/basic\s+200\/200 credits left/);
    const json = JSON.parse((await cli(['admin', 'teams', '--email', email.toUpperCase(), '--json'], env)).stdout);
    expect(json).toEqual([expect.objectContaining({ team_id: created.json.data.team_id, plan: 'basic', members: [email], projects: 0 })]);
  });

  it('callback-secret: the running service’s secret, through admin and through the old command while the store is in use', async () => {
    const token = fs.readFileSync(path.join(dataDir, 'admin.token'), 'utf8').trim();
    const fromApi = (await call(svc.base, 'GET', '/admin/callback-secret', undefined, { authorization: `Bearer ${token}` })).json.data.secret;
    expect(fromApi).toMatch(/^whsec_/);
    const out = await cli(['admin', 'callback-secret'], env);
    expect(out.code).toBe(0);
    expect(out.stdout.trim()).toBe(fromApi);
    const old = await cli(['callback-secret'], env);
    expect(old.code).toBe(0);
    expect(old.stdout.trim()).toBe(fromApi);
  });

  it('clear refusals: unknown plan, unknown email, wrong token, no service', async () => {
    const bad = await cli(['admin', 'plan', 'nobody@example.com', 'platinum'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Unknown plan "platinum": one of skip_trial, basic, pro, enterprise');
    const nobody = await cli(['admin', 'plan', 'nobody@example.com', 'pro'], env);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('No team has a member with the email nobody@example.com');
    const wrong = await cli(['admin', 'teams'], { ...env, ADMIN_TOKEN: 'w'.repeat(24) });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('refused the operator token (401)');
    const down = await cli(['admin', 'teams'], { ...env, PORT: String(await freePort()) });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('Sightline is not answering at http://127.0.0.1:');
    const noToken = await cli(['admin', 'teams'], { PORT: String(svc.port), DATA_DIR: path.join(dataDir, 'nothing-here') });
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toContain('No operator token: set ADMIN_TOKEN');
  });
});

describe('SIGNUP_PLAN', () => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp({ signupPlan: 'pro' });
  });
  afterAll(async () => t?.stop());

  it('every team made by sign-up starts on it', async () => {
    const acct = await createAccount(t.app);
    const team = await t.app.inject({ url: '/v1/team', headers: { 'x-api-key': acct.key } });
    expect(team.json().data).toMatchObject({ plan: 'pro', credits_included: 500 });
  });
});
