import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SeedResult } from '../../src/collection/seed.js';
import type { ProviderName } from '../../src/ports/providers/types.js';
import { ROOT } from './suite.js';

/** One project to seed (seedProject's options); `title` is printed before it, `log` prints its progress. */
export interface SeedSpec {
  prompts: number;
  providers: ProviderName[];
  days: number;
  competitors: number;
  markets?: string[];
  title?: string;
  log?: boolean;
}

/** What bench/lib/seed-child.ts seeds: the projects, in order, into the store of `env` / `overrides` (a BenchStore's). */
export interface SeedJob {
  env: Record<string, string>;
  overrides: Record<string, unknown>;
  projects: SeedSpec[];
  /** Admin keys to make for the first project's team besides its seed key. */
  extraKeys?: number;
}

export interface SeedOutcome {
  projects: SeedResult[];
  extraKeys: string[];
}

/**
 * Seeds in a child process (bench/lib/seed-child.ts) and returns what it seeded. A bench
 * that seeds in its own process and then times requests from it measures its own garbage
 * collection too: after a year of seeding (an embedded store's WebAssembly memory among it),
 * the load generator's process paused up to 30 ms at a time in the first seconds of timing.
 */
export async function seedInChild(job: SeedJob): Promise<SeedOutcome> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-seed-'));
  const out = path.join(dir, 'outcome.json');
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'lib', 'seed-child.ts')], {
      cwd: ROOT,
      env: { ...process.env, BENCH_SEED_JOB: JSON.stringify(job), BENCH_SEED_OUT: out },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', resolve);
    });
    if (code !== 0) throw new Error(`seeding process exited with ${code}`);
    return JSON.parse(fs.readFileSync(out, 'utf8')) as SeedOutcome;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
