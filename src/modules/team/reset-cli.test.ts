import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import pino from 'pino';
import { createRuntime } from '../../runtime.js';
import { createAccount, startTestApp, type TestApp } from '../../../test/helpers.js';

// The operator's `sightline reset-password <email>` (the compiled CLI: run `npm run build`
// first): it prints a one-time link; the link's token sets a new password once and ends the
// user's sessions; the audit log names the operator, never the token.

const CLI = path.resolve(import.meta.dirname, '..', '..', '..', 'dist', 'cli.js');
const run = promisify(execFile);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-reset-'));
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ memoryStore: false, dataDir, role: 'api' });
});
afterAll(async () => {
  await t?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('prints a one-time link that sets a new password', async () => {
  const acct = await createAccount(t.app);
  const before = await t.app.inject({ method: 'POST', url: '/v1/session', payload: { email: acct.email, password: acct.password }, remoteAddress: '10.8.0.1' });
  expect(before.statusCode).toBe(201);
  const cookie = String([before.headers['set-cookie']].flat()[0]).split(';')[0];
  // The embedded store is opened by one process at a time: the service stops for the command.
  await t.runtime.stop();
  const env = {
    ...process.env,
    LOG_LEVEL: 'silent',
    ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl, SECRET_KEY: t.config.secretKey } : { DATA_DIR: dataDir }),
  };
  const out = await run(process.execPath, [CLI, 'reset-password', acct.email.toUpperCase(), '--base-url', 'https://sightline.example.com/'], { env });
  const link = out.stdout.trim();
  expect(link).toMatch(/^https:\/\/sightline\.example\.com\/reset-password#slr_[0-9A-Za-z]{32}$/);
  await expect(run(process.execPath, [CLI, 'reset-password', 'nobody@example.com'], { env })).rejects.toThrow(/No user/);

  t.runtime = await createRuntime(t.config, pino({ level: 'silent' }));
  t.app = t.runtime.app!;
  const token = link.split('#')[1];
  const reset = (pw: string) => t.app.inject({ method: 'POST', url: '/v1/account/password/reset', payload: { token, new_password: pw }, remoteAddress: '10.8.0.2' });
  expect((await reset('operator-reset-password')).statusCode).toBe(200);
  expect((await reset('operator-reset-again')).statusCode).toBe(400);
  expect((await t.app.inject({ method: 'GET', url: '/v1/team', headers: { cookie } })).statusCode).toBe(401);
  const after = await t.app.inject({ method: 'POST', url: '/v1/session', payload: { email: acct.email, password: 'operator-reset-password' }, remoteAddress: '10.8.0.3' });
  expect(after.statusCode).toBe(201);
  const log = (await t.app.inject({ method: 'GET', url: '/v1/team/audit?action=password', headers: { 'x-api-key': acct.key } })).json().data;
  expect(log.items.map((i: { action: string; actor: { label: string } }) => `${i.action} ${i.actor.label}`).sort()).toEqual(
    [`password.reset ${acct.email}`, 'password.reset_link operator (CLI)'].sort(),
  );
  expect(JSON.stringify(log)).not.toContain(token);
}, 120_000);
