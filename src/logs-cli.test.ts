// `sightline logs ingest`: the file streamed to a listening service's route, gzip sent as is.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { combinedLine, UA } from '../test/access-logs.js';
import { createAccount, createProject, startTestApp, type TestApp } from '../test/helpers.js';
import { ingestFile } from './logs-cli.js';

let t: TestApp;
let url = '';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-logs-cli-'));
beforeAll(async () => {
  t = await startTestApp({ role: 'api' });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('sends a gzipped log through the route and reports its counts; a bad key is an error', async () => {
  const acct = await createAccount(t.app);
  const projectId = await createProject(t.app, acct.key, { brand_name: 'Acme', brand_url: 'https://acme.com' });
  const log = [
    combinedLine({ address: '20.171.207.10', time: '20/Nov/2026:10:00:00 +0000', target: '/pricing', userAgent: UA.gptbot }),
    combinedLine({ address: '9.9.9.9', time: '20/Nov/2026:10:00:00 +0000', target: '/', userAgent: UA.browser, referrer: 'https://chatgpt.com/' }),
    'garbage',
  ].join('\n');
  const file = path.join(dir, 'access.log.gz');
  fs.writeFileSync(file, gzipSync(log));
  expect(await ingestFile(file, { project: projectId, apiKey: acct.key, url, port: 0 })).toEqual({
    lines: 3,
    parsed: 2,
    rejected: 1,
    bot_hits: 1,
    referrals: 1,
    other_hosts: 0,
    duplicate: false,
  });
  await expect(ingestFile(file, { project: projectId, apiKey: 'tk_live_wrong', url, port: 0 })).rejects.toThrow(/^401: /);
  await expect(ingestFile(path.join(dir, 'missing.log'), { project: projectId, apiKey: acct.key, url, port: 0 })).rejects.toThrow(/No such file/);
});
