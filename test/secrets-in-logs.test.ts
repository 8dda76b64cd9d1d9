import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, startService, type ServiceProcess } from './child-service.js';
import { startReceiver, type Receiver } from './fakes/receiver.js';

// A full run of the real service at debug level, then its whole output searched for every
// secret it was given or made: none may appear (issue "Production shape", operations).

describe('no secret in the log', () => {
  let svc: ServiceProcess | null = null;
  let receiver: Receiver | null = null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-secrets-'));
  afterAll(async () => {
    await svc?.stop().catch(() => {});
    await receiver?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a run that uses every kind of secret logs none of them', async () => {
    receiver = await startReceiver();
    const secrets: Record<string, string> = {
      ADMIN_TOKEN: 'admin-token-5f3c9a71d2e84b6f',
      OPENAI_API_KEY: 'sk-test-openai-7d1e0c5b9a2f4e68',
      LLM_API_KEY: 'llm-test-key-2b8e6f0a4c1d9e37',
    };
    svc = await startService({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'debug',
      ALLOW_PRIVATE_URLS: 'true',
      PROVIDERS_MODE: 'simulated',
      WEBHOOK_RETRY_BASE_MS: '200',
      ...secrets,
    });
    const base = svc.base;
    const email = `secrets-${Date.now()}@example.com`;
    const account = await call(base, 'POST', '/account/create', { email });
    expect(account.status).toBe(200);
    secrets.password = account.json.data.password;
    const key = await call(base, 'POST', '/account/api-key', { email, password: secrets.password });
    secrets.adminKey = key.json.data.api_key;
    const auth = { 'x-api-key': secrets.adminKey };
    // a failed sign-in with a wrong password, and a wrong key: neither may be echoed
    secrets.wrongPassword = 'wrong-password-9c2e4a7f1b';
    expect((await call(base, 'POST', '/account/api-key', { email, password: secrets.wrongPassword })).status).toBe(401);
    secrets.wrongKey = `tk_live_${'Z'.repeat(32)}`;
    expect((await call(base, 'GET', '/projects', undefined, { 'x-api-key': secrets.wrongKey })).status).toBe(401);

    const viewer = await call(base, 'POST', '/keys', { scope: 'viewer', name: 'viewer' }, auth);
    expect(viewer.status).toBe(201);
    secrets.viewerKey = viewer.json.data.api_key;
    expect((await call(base, 'GET', `/keys/${viewer.json.data.id}`, undefined, auth)).status).toBeLessThan(500);

    // Teams (issue 17): an invitation's token, the password chosen on accepting, a second
    // (refused) use of the token, a sign-in and a password change: none may be echoed.
    const invited = await call(base, 'POST', '/team/invitations', { email: `invitee-${Date.now()}@example.com`, role: 'viewer' }, auth);
    expect(invited.status).toBe(201);
    secrets.invitationToken = invited.json.data.token;
    secrets.invitedPassword = 'invited-password-4b7d1e9a';
    expect((await call(base, 'POST', `/account/invitations/${secrets.invitationToken}/accept`, { password: secrets.invitedPassword })).status).toBe(200);
    expect((await call(base, 'POST', `/account/invitations/${secrets.invitationToken}/accept`, {})).status).toBe(409);
    const signedIn = await fetch(`${base}/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: secrets.password }) });
    expect(signedIn.status).toBe(201);
    const cookie = String(signedIn.headers.get('set-cookie')).split(';')[0];
    secrets.sessionToken = cookie.split('=')[1];
    const csrf = ((await signedIn.json()) as { data: { csrf_token: string } }).data.csrf_token;
    secrets.newPassword = 'changed-password-7e3a9c1d';
    const changed = await fetch(`${base}/v1/account/password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf },
      body: JSON.stringify({ current_password: secrets.password, new_password: secrets.newPassword }),
    });
    expect(changed.status).toBe(200);

    const hook = await call(base, 'POST', '/webhooks', { url: 'https://hooks.example.com/sightline', events: ['action.checkpoint'] }, auth);
    expect(hook.status).toBe(201);
    secrets.webhookSecret = hook.json.data.secret;

    const project = await call(base, 'POST', '/account/projects', { brand_name: 'Acme', brand_url: 'https://acme.com', webhook_url: `${receiver.url}/callback` }, auth);
    expect(project.status).toBe(202);
    await receiver.waitFor(1, 120_000); // the bootstrap's signed callback

    const operator = { authorization: `Bearer ${secrets.ADMIN_TOKEN}` };
    const cb = await call(base, 'GET', '/admin/callback-secret', undefined, operator);
    expect(cb.status).toBe(200);
    expect(cb.json.data.source).toBe('generated');
    secrets.callbackSecret = cb.json.data.secret;
    expect((await call(base, 'GET', '/admin/callback-secret', undefined, { authorization: 'Bearer not-the-token-0000000' })).status).toBe(401);
    secrets.SECRET_KEY = fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8').trim();

    const proc = svc;
    const exit = await proc.stop();
    svc = null;
    expect(exit.code).toBe(0);

    const out = proc.output();
    // the log is a real one: the access lines of this run are in it, at debug level
    expect(out.match(/"msg":"request"/g)?.length ?? 0).toBeGreaterThan(8);
    expect(out).toContain('callback signing secret');
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThan(10);
      expect(out.includes(value), `${name} appears in the log`).toBe(false);
      const tail = value.replace(/^(whsec_|tk_live_|sk-)/, '');
      expect(out.includes(tail), `${name} (without its prefix) appears in the log`).toBe(false);
    }
  }, 240_000); // a real service, its bootstrap and a SIGTERM: minutes on a busy machine
});
