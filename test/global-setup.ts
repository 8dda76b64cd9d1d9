// Once per `vitest run`, before any test file, on the embedded store: the data directory of
// a migrated in-memory PGlite, in a temporary file (`inject('pgliteSnapshot')`, read by
// test/helpers.ts), so that each test app opens it instead of running initdb and every
// migration again. The migration tests still migrate for real: they undo migrations on a
// store of their own and start the service on it, which runs them again. (PostgreSQL's
// `create database … template …` was tried for the PostgreSQL run: no faster there.)
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { writeMigratedSnapshot } from '../src/store/pglite.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot?: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  if (process.env.TEST_STORE === 'postgres') return undefined;
  const file = path.join(os.tmpdir(), `sightline-test-store-${crypto.randomBytes(6).toString('hex')}.tar`);
  await writeMigratedSnapshot(file);
  project.provide('pgliteSnapshot', file);
  return () => fs.rmSync(file, { force: true });
}
