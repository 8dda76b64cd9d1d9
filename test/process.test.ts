import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './child-service.js';
import { STORE } from './helpers.js';

// The real service as an operator runs it (docs/self-hosting.md, docs/architecture.md "Known traps"):
// `node --import tsx src/main.ts` on an embedded store folder. One folder, one process;
// SIGTERM stops cleanly; the data is there after a restart (and after a crash).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Proc {
  child: ChildProcess;
  port: number;
  base: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();
afterAll(() => {
  for (const c of running) c.kill('SIGKILL');
});

async function start(dataDir: string): Promise<Proc> {
  const port = await freePort();
  // Only what the service needs: no DATABASE_URL / REDIS_URL / TEST_* from the test run.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    PROVIDERS_MODE: 'simulated',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, port, base: `http://127.0.0.1:${port}`, output: () => out, exited };
}

async function waitHealthy(p: Proc, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void p.exited.then(() => (gone = true));
  while (Date.now() < deadline) {
    if (gone) throw new Error(`service exited before it was healthy:\n${p.output()}`);
    try {
      const res = await fetch(`${p.base}/healthz`);
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await sleep(100);
  }
  throw new Error(`service not healthy after ${timeoutMs} ms:\n${p.output()}`);
}

async function stop(p: Proc, timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const started = Date.now();
  p.child.kill('SIGTERM');
  const result = await Promise.race([p.exited, sleep(timeoutMs).then(() => null)]);
  if (!result) {
    p.child.kill('SIGKILL');
    throw new Error(`no exit within ${timeoutMs} ms of SIGTERM:\n${p.output().slice(-3000)}`);
  }
  return { ...result, ms: Date.now() - started };
}

const post = (base: string, url: string, body: unknown, key?: string) =>
  fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
    body: JSON.stringify(body),
  });

describe.skipIf(STORE === 'postgres')('the service as a process on the embedded store (DATA_DIR)', () => {
  it(
    'refuses a second process on the same folder, stops on SIGTERM with 0, and keeps its data across restarts',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-proc-'));
      try {
        const first = await start(dataDir);
        await waitHealthy(first);
        expect((await fetch(`${first.base}/readyz`)).status).toBe(200);

        // Data written before the stop: an account, its key, a project (with its bootstrap job).
        const email = `proc-${Date.now()}@example.com`;
        const created = await post(first.base, '/v1/account/create', { email });
        expect(created.status).toBe(200);
        const password = (await created.json()).data.password as string;
        const keyRes = await post(first.base, '/v1/account/api-key', { email, password });
        expect(keyRes.status).toBe(200);
        const key = (await keyRes.json()).data.api_key as string;
        const project = await post(first.base, '/v1/account/projects', { brand_name: 'Proc Co', brand_url: 'https://proc-co.com', webhook_url: 'https://hooks.proc-co.com/cb' }, key);
        expect(project.status).toBe(202);
        const projectId = (await project.json()).data.project_id as string;

        // A second process on the same folder must refuse to start, naming the folder.
        const lockFile = path.join(dataDir, 'sightline.lock');
        expect(fs.readFileSync(lockFile, 'utf8').trim()).toBe(String(first.child.pid));
        const second = await start(dataDir);
        const refused = await Promise.race([second.exited, sleep(60_000).then(() => null)]);
        expect(refused, `second process still running:\n${second.output()}`).not.toBeNull();
        expect(refused!.code).not.toBe(0);
        expect(refused!.code).not.toBeNull();
        // The lock's message (not, say, a port clash): it names the folder and says it is in use.
        const escaped = path.resolve(dataDir).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        expect(second.output()).toMatch(new RegExp(`${escaped}[^\n]*is in use`));
        // ...and it left the first one and its lock alone.
        expect(fs.readFileSync(lockFile, 'utf8').trim()).toBe(String(first.child.pid));
        expect((await fetch(`${first.base}/v1/projects`, { headers: { 'x-api-key': key } })).status).toBe(200);

        // SIGTERM: a clean exit, quickly, releasing the lock.
        const stopped = await stop(first, 15_000);
        expect(stopped.code, first.output().slice(-2000)).toBe(0);
        expect(stopped.ms).toBeLessThan(10_000);
        expect(fs.existsSync(lockFile)).toBe(false);

        // Again on the same folder: the account, its key and the project are all there.
        const again = await start(dataDir);
        await waitHealthy(again);
        const keyAgain = await post(again.base, '/v1/account/api-key', { email, password });
        expect(keyAgain.status).toBe(200);
        expect((await keyAgain.json()).data.api_key).toBe(key);
        const got = await fetch(`${again.base}/v1/projects/${projectId}`, { headers: { 'x-api-key': key } });
        expect(got.status).toBe(200);
        expect((await got.json()).data).toMatchObject({ id: projectId, brand_name: 'Proc Co' });
        const stoppedAgain = await stop(again, 15_000);
        expect(stoppedAgain.code, again.output().slice(-2000)).toBe(0);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    240_000,
  );

  it(
    'comes back after a crash (SIGKILL): the stale lock is taken over and committed data is there',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-crash-'));
      try {
        const first = await start(dataDir);
        await waitHealthy(first);
        const email = `crash-${Date.now()}@example.com`;
        const created = await post(first.base, '/v1/account/create', { email });
        expect(created.status).toBe(200);
        const password = (await created.json()).data.password as string;
        const keyRes = await post(first.base, '/v1/account/api-key', { email, password });
        const key = (await keyRes.json()).data.api_key as string;

        first.child.kill('SIGKILL');
        await first.exited;
        expect(fs.existsSync(path.join(dataDir, 'sightline.lock'))).toBe(true); // left behind by the crash

        const again = await start(dataDir);
        await waitHealthy(again);
        const keyAgain = await post(again.base, '/v1/account/api-key', { email, password });
        expect(keyAgain.status, again.output().slice(-2000)).toBe(200);
        expect((await keyAgain.json()).data.api_key).toBe(key);
        expect((await fetch(`${again.base}/v1/projects`, { headers: { 'x-api-key': key } })).status).toBe(200);
        const stopped = await stop(again, 15_000);
        expect(stopped.code).toBe(0);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    240_000,
  );
});
