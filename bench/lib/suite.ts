import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** This repository (bench/ lives in it). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BENCH_README = path.join(ROOT, 'bench', 'README.md');
/**
 * The Sightline checkout whose servers are measured: this one by default, or another
 * (BENCH_APP_DIR: a copy or `git worktree` of another state, with node_modules) for an
 * A/B comparison. Only runs of this checkout rewrite bench/README.md.
 */
export const APP_DIR = path.resolve(process.env.BENCH_APP_DIR ?? ROOT);

/** What `npm run bench -- <suite> [--flags]` hands every suite. */
export interface SuiteOptions {
  /** --profile: CPU profiles of the measured windows; figures are not written to the README. */
  profile: boolean;
  /** --diagnose: extra variants that explain the main figures. */
  diagnose: boolean;
}

/** One benchmark: a file exporting a Suite, listed in bench/run.ts. */
export interface Suite {
  name: string;
  description: string;
  run(opts: SuiteOptions): Promise<void>;
}

/** A positive number from the environment (`name`), or `dflt` when unset; anything else stops the bench. */
export function envNumber(name: string, dflt: number): number {
  const v = Number(process.env[name] ?? dflt);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number, got ${process.env[name]}`);
  return v;
}
