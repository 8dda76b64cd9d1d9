// Once per `vitest run`, before any test file, a migrated store that every test app starts
// from instead of running every migration again (test/helpers.ts):
// - on the embedded store, the data directory of a migrated in-memory PGlite, in a
//   temporary file (`inject('pgliteSnapshot')`); opening it skips PGlite's initdb as well;
// - on PostgreSQL, a migrated database (`inject('postgresTemplate')`) that each test app's
//   fresh database is created from (`create database … template …`), dropped at the end.
// The app still runs the migrations on start; they find nothing to do. The migration tests
// still migrate for real: they undo migrations on a store of their own and start the
// service on it, which runs them again. The server-mode suite starts from empty databases.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { writeMigratedSnapshot } from '../src/store/pglite.js';
import { openPostgres } from '../src/store/postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot?: string;
    postgresTemplate?: string;
  }
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void> | void) | undefined> {
  if (process.env.TEST_STORE === 'postgres') {
    if (!process.env.TEST_DATABASE_URL) return undefined; // helpers.ts says what is missing
    const name = `sightline_tpl_${crypto.randomBytes(6).toString('hex')}`;
    await admin(`create database ${name}`);
    const url = new URL(process.env.TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    // Closed before any test app starts: a template with a connection open cannot be copied.
    const store = await openPostgres({ url: url.toString(), poolSize: 1 });
    await store.close();
    project.provide('postgresTemplate', name);
    return () => admin(`drop database if exists ${name} with (force)`);
  }
  const file = path.join(os.tmpdir(), `sightline-test-store-${crypto.randomBytes(6).toString('hex')}.tar`);
  await writeMigratedSnapshot(file);
  project.provide('pgliteSnapshot', file);
  return () => fs.rmSync(file, { force: true });
}
