import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runToExit, startService, type ServiceProcess } from './child-service.js';

// A second process on a busy port (issue 11, defect 6): it used to open a new store, print
// a new callback secret, then die with a raw EADDRINUSE stack trace. Two real processes.

const dirs: string[] = [];
let first: ServiceProcess | undefined;
afterAll(async () => {
  await first?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-port-'));
  dirs.push(d);
  return d;
};

describe('starting on a port another process holds', () => {
  it('says so plainly, exits 1, and creates nothing', { timeout: 300_000 }, async () => {
    // A fresh embedded store takes a while to come up when the whole suite shares two cores.
    first = await startService({ DATA_DIR: tempDir(), PROVIDERS_MODE: 'simulated' }, 180_000);
    const secondDir = path.join(tempDir(), 'data');
    const second = await runToExit({ DATA_DIR: secondDir, PORT: String(first.port), PROVIDERS_MODE: 'simulated' }, 90_000);
    expect(second.code, second.stdout + second.stderr).toBe(1);
    expect(second.stderr.trim()).toBe(
      `Port ${first.port} is already in use on 127.0.0.1: is Sightline already running? Set PORT to another port.`,
    );
    expect(second.stdout + second.stderr).not.toMatch(/EADDRINUSE|\n\s+at |Error:/);
    // Nothing was created: no store folder, no generated secret.
    expect(fs.existsSync(secondDir)).toBe(false);
    expect(second.stdout).toBe('');
    // The first process is untouched.
    expect((await fetch(`${first.base}/healthz`)).status).toBe(200);
  });

  it('a HOST that is not an address of this machine is said plainly too, before anything is created', { timeout: 60_000 }, async () => {
    const dir = path.join(tempDir(), 'data');
    const res = await runToExit({ DATA_DIR: dir, PORT: '0', HOST: '192.0.2.1', PROVIDERS_MODE: 'simulated' });
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe('HOST 192.0.2.1 is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0.');
    expect(fs.existsSync(dir)).toBe(false);
  });
});
