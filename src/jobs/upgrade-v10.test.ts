import crypto from 'node:crypto';
import pg from 'pg';
import PgBoss10 from 'pg-boss-10';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE } from '../../test/helpers.js';
import { loadConfig } from '../config.js';
import { openStore, type Store } from '../store/index.js';
import { bootstrapJob, deliveryJob, jobCatalog } from './catalog.js';
import { Jobs } from './queue.js';

// A store last run by a release on pg-boss 10 (schema 24, which pg-boss 12 refuses to migrate):
// the real pg-boss 10 (the devDependency pg-boss-10) fills it, then our start upgrades it.
describe('job queue upgrade from a pg-boss 10 schema', () => {
  let store: Store;
  let dropDatabase = async () => {};
  const log = pino({ level: 'silent' });
  const ids: Record<string, string> = {};
  const later = new Date(Date.now() + 3_600_000);

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (STORE === 'postgres') {
      const admin = process.env.TEST_DATABASE_URL!;
      const name = `sightline_t_${crypto.randomBytes(6).toString('hex')}`;
      const run = async (sql: string) => {
        const c = new pg.Client({ connectionString: admin });
        await c.connect();
        await c.query(sql).finally(() => c.end());
      };
      await run(`create database ${name}`);
      dropDatabase = () => run(`drop database if exists ${name} with (force)`);
      const url = new URL(admin);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
    }
    store = await openStore(loadConfig({}, { memoryStore: true, databaseUrl, secretKey: 'test-secret-key-0123456789abcdef' }));

    const old = new PgBoss10({ db: store, schema: 'pgboss', supervise: false, schedule: false, migrate: true });
    old.on('error', () => {});
    await old.start();
    for (const name of [bootstrapJob.name, deliveryJob.name, 'a-retired-queue']) await old.createQueue(name);
    // Fetched and completed: history, not work.
    ids.done = (await old.send(bootstrapJob.name, { projectId: crypto.randomUUID() }))!;
    const [fetched] = await old.fetch(bootstrapJob.name);
    expect(fetched.id).toBe(ids.done);
    await old.complete(bootstrapJob.name, ids.done);
    ids.waiting = (await old.send(bootstrapJob.name, { projectId: crypto.randomUUID() }))!;
    ids.deferred = (await old.send(deliveryJob.name, { deliveryId: crypto.randomUUID(), attempt: 2 }, { startAfter: later }))!;
    ids.retired = (await old.send('a-retired-queue', {}))!;
    await old.stop({ graceful: false, close: false, wait: true });
    expect((await store.query<{ version: number }>('select version from pgboss.version')).rows[0].version).toBe(24);
  });

  afterAll(async () => {
    await store?.close();
    await dropDatabase();
  });

  it('sets the old schema aside, installs pg-boss 12 and carries the unfinished jobs over, then drops the old schema', async () => {
    const jobs = new Jobs(store, jobCatalog, log, { supervise: false, schedule: false, listen: false, role: 'migrate' });
    await jobs.start();
    try {
      expect(await jobs.boss.schemaVersion()).toBeGreaterThan(24);
      const waiting = await jobs.status(bootstrapJob.name, ids.waiting);
      expect(waiting).toMatchObject({ id: ids.waiting, state: 'created' });
      const [deferred] = await jobs.boss.findJobs(deliveryJob.name, { id: ids.deferred });
      expect(deferred).toMatchObject({ state: 'created', data: { attempt: 2 } });
      expect(Math.abs(new Date(deferred.startAfter).getTime() - later.getTime())).toBeLessThan(1_000);
      // Finished jobs and queues the service no longer has stay behind.
      expect(await jobs.find(ids.done)).toBeNull();
      expect(await jobs.find(ids.retired)).toBeNull();
      const aside = await store.query(`select 1 from information_schema.schemata where schema_name = 'pgboss_v10'`);
      expect(aside.rows).toEqual([]);
    } finally {
      await jobs.stop();
    }
  });

  it('a second start finds a pg-boss 12 schema and leaves it and its jobs as they are', async () => {
    const jobs = new Jobs(store, jobCatalog, log, { supervise: false, schedule: false, listen: false, role: 'migrate' });
    await jobs.start();
    try {
      expect(await jobs.status(bootstrapJob.name, ids.waiting)).toMatchObject({ state: 'created' });
    } finally {
      await jobs.stop();
    }
  });
});
