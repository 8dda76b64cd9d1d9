import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startService, type ServiceProcess } from './child-service.js';

// A first start that explains itself (issue 11): at a terminal, a banner and readable log
// lines; piped, JSON lines as before. `script` (util-linux) gives the child a real TTY.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HAS_SCRIPT = fs.existsSync('/usr/bin/script');
const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-first-'));
  dirs.push(d);
  return d;
};
let piped: ServiceProcess | undefined;
afterAll(async () => {
  await piped?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function waitFor(read: () => string, pattern: RegExp, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(read())) {
    if (Date.now() > deadline) throw new Error(`no ${pattern} in:\n${read()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('npm start at a terminal', () => {
  it.skipIf(!HAS_SCRIPT)('prints the banner and readable lines, no JSON; GET / points to the docs', { timeout: 240_000 }, async () => {
    const port = await freePort();
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: tempDir(), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' };
    // Its own process group, so the whole terminal session is stopped by its id at the end.
    const child = spawn('script', ['-qfec', `${process.execPath} --import tsx src/main.ts`, '/dev/null'], {
      cwd: ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await waitFor(() => out, /Stop with Ctrl\+C\./, 180_000);
      expect(out).toContain(`API        http://127.0.0.1:${port}/v1`);
      expect(out).toContain(`Docs       http://127.0.0.1:${port}/docs`);
      expect(out).toMatch(/Store {6}embedded PostgreSQL \(PGlite\) in \//);
      expect(out).toMatch(/simulated: chatgpt, perplexity, google_ai_overview, gemini, claude/);
      expect(out).toMatch(/set its key: OPENAI_API_KEY/);

      const home = await fetch(`http://127.0.0.1:${port}/`);
      expect(home.status).toBe(200);
      expect(home.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await home.text()).toContain('href="/docs"');
      await fetch(`http://127.0.0.1:${port}/healthz`);
      await waitFor(() => out, /GET \/healthz 200 [\d.]+ ms/, 10_000);
      // Readable lines only: not one JSON log line at a terminal.
      expect(out.split(/\r?\n/).filter((l) => l.trim().startsWith('{"level"'))).toEqual([]);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  });
});

describe('npm start piped (not a terminal)', () => {
  it('keeps JSON log lines and prints no banner', { timeout: 240_000 }, async () => {
    piped = await startService({ DATA_DIR: tempDir(), LOG_LEVEL: 'info' }, 180_000);
    await fetch(`${piped.base}/healthz`);
    await waitFor(() => piped!.output(), /"route":"\/healthz"/, 10_000);
    const lines = piped.output().split('\n').filter(Boolean);
    for (const l of lines) expect(() => JSON.parse(l), l).not.toThrow();
    expect(piped.output()).not.toContain('Sightline is running');
  });
});
