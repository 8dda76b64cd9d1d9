import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { maintenanceSteps, openPglite, writeMigratedSnapshot } from './pglite.js';
import type { Store } from './types.js';

// The embedded store checkpoints once enough log is written, when it is idle (or at once
// past a cap): PGlite has no checkpointer, and without one the write-ahead log grows with
// every write.
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Writes about 5 × 4 MB of log in five transactions; returns the log written since the last checkpoint, in MB. */
async function writeAndMeasure(store: Store): Promise<number> {
  await store.query(`create table filler (x int, y text)`);
  for (let i = 0; i < 5; i++) {
    await store.tx(async (tx) => {
      await tx.query(`insert into filler select g, repeat('x', 200) from generate_series(1, 15000) g`);
    });
  }
  return walMb(store);
}

/** The log written since the last checkpoint, in MB. */
async function walMb(store: Store): Promise<number> {
  const { rows } = await store.query<{ n: number }>(`select pg_wal_lsn_diff(pg_current_wal_lsn(), checkpoint_lsn)::float8 / 1048576 as n from pg_control_checkpoint()`);
  return rows[0].n;
}

async function open(walBytes: number, maintainEveryMs = Number.POSITIVE_INFINITY, idleMs = 0, capBytes?: number): Promise<Store> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-wal-'));
  dirs.push(dir);
  return openPglite({ dataDir: dir, checkpoint: { everyMs: 0, walBytes, capBytes }, maintain: { everyMs: maintainEveryMs, idleMs } });
}

/** What the planner knows of the table `t`, and when it was last vacuumed and analyzed. */
async function tableState(store: Store) {
  const { rows } = await store.query<{ reltuples: number; vacuumed: boolean; analyzed: boolean; dead: number }>(
    `select c.reltuples, s.last_vacuum is not null as vacuumed, s.last_analyze is not null as analyzed, s.n_dead_tup::int as dead
       from pg_class c join pg_stat_user_tables s on s.relid = c.oid where c.relname = 't'`,
  );
  return rows[0];
}

/**
 * Inserts 5,000 rows and updates all of them; waits past PostgreSQL's 1 s between flushes of
 * its table counts; one more transaction. Every row is updated so that the dead versions pass
 * the vacuum threshold (50 + 20% of the rows) whenever a round comes: a round that vacuums
 * between the insert and the update still leaves a table past it.
 */
async function writeRows(store: Store) {
  await store.query(`create table t (id int primary key, v int)`);
  await store.tx((tx) => tx.query(`insert into t select g, 0 from generate_series(1, 5000) g`));
  await store.tx((tx) => tx.query(`update t set v = 1`));
  await new Promise((r) => setTimeout(r, 1100));
  await store.tx((tx) => tx.query(`update t set v = 2 where id = 1`));
}

describe.skipIf(process.env.TEST_STORE === 'postgres')('embedded store log', () => {
  it('checkpoints once the log since the last checkpoint passes the limit and the store is idle', async () => {
    const never = await open(Number.POSITIVE_INFINITY);
    const unbounded = await writeAndMeasure(never).finally(() => never.close());
    expect(unbounded).toBeGreaterThan(15);

    const store = await open(4 * 1024 * 1024);
    try {
      await writeAndMeasure(store);
      await vi.waitFor(async () => expect(await walMb(store)).toBeLessThan(1), { timeout: 10_000, interval: 100 });
    } finally {
      await store.close();
    }
  });

  it('does not checkpoint while queries keep coming, until the log passes the cap', async () => {
    // limit 4 MB, cap 64 MB, idle after 3 s
    const store = await open(4 * 1024 * 1024, Number.POSITIVE_INFINITY, 3_000, 64 * 1024 * 1024);
    try {
      expect(await writeAndMeasure(store)).toBeGreaterThan(15);
      // queries every 20 ms for 2 s: never 3 s without one, so no checkpoint yet
      const until = Date.now() + 2_000;
      while (Date.now() < until) {
        await store.query('select 1');
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(await walMb(store)).toBeGreaterThan(15);
      // then quiet (looked at every 4 s: a look is a query too): the checkpoint comes
      await vi.waitFor(async () => expect(await walMb(store)).toBeLessThan(1), { timeout: 30_000, interval: 4_000 });
    } finally {
      await store.close();
    }

    // a writer that never lets the store be idle: checkpointed after its transaction at the cap
    const busy = await open(4 * 1024 * 1024, Number.POSITIVE_INFINITY, 60_000, 8 * 1024 * 1024);
    const bounded = await writeAndMeasure(busy).finally(() => busy.close());
    // at most one transaction's log past the cap
    expect(bounded).toBeLessThan(8 + 5);
  });
});

// Nor has PGlite autovacuum: the store applies autovacuum's thresholds itself.
describe.skipIf(process.env.TEST_STORE === 'postgres')('embedded store maintenance', () => {
  it('vacuums and analyzes a table once its changes pass autovacuum thresholds', async () => {
    const never = await open(Number.POSITIVE_INFINITY);
    await writeRows(never);
    // without it: no statistics (reltuples -1), the updated rows' old versions left dead
    expect(await tableState(never).finally(() => never.close())).toEqual({ reltuples: -1, vacuumed: false, analyzed: false, dead: 5001 });

    const store = await open(Number.POSITIVE_INFINITY, 0);
    try {
      await writeRows(store);
      // the maintenance runs after the transaction has returned, a step at a time; a round on
      // the timer may vacuum before the last update, whose one old version stays (under the threshold)
      await vi.waitFor(
        async () => {
          const state = await tableState(store);
          expect(state).toMatchObject({ reltuples: 5000, vacuumed: true, analyzed: true });
          expect(state.dead).toBeLessThanOrEqual(1);
        },
        { timeout: 30_000, interval: 200 },
      );
    } finally {
      await store.close();
    }
  });

  it('waits for the store to be idle: not a step while queries keep coming', async () => {
    const store = await open(Number.POSITIVE_INFINITY, 0, 3_000);
    try {
      await writeRows(store);
      // queries every 20 ms for 2 s: never 3 s without one
      const until = Date.now() + 2_000;
      while (Date.now() < until) {
        await store.query('select 1');
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(await tableState(store)).toMatchObject({ vacuumed: false, analyzed: false });
      // then quiet (looked at every 4 s: a look is a query too): the round goes on
      await vi.waitFor(async () => expect(await tableState(store)).toEqual({ reltuples: 5000, vacuumed: true, analyzed: true, dead: 0 }), { timeout: 60_000, interval: 4_000 });
    } finally {
      await store.close();
    }
  });

  it('cuts the work into steps: VACUUM and ANALYZE apart, a large table analyzed a column at a time', async () => {
    const store = await open(Number.POSITIVE_INFINITY);
    try {
      await writeRows(store);
      await store.query(`create table small (id int primary key, v int)`);
      await store.tx((tx) => tx.query(`insert into small select g, 0 from generate_series(1, 200) g`));
      await new Promise((r) => setTimeout(r, 1100)); // PostgreSQL flushes its table counts at most every second
      await store.query('select 1');
      const steps = (await maintenanceSteps(store, 64 * 1024)).filter((s) => / public\.(t|small)\b/.test(s));
      // t (5,000 rows, past 64 KB): one ANALYZE per column; small (200 rows, under it, and
      // under the insert threshold of a vacuum): one ANALYZE
      expect(steps).toEqual(['VACUUM public.t', 'ANALYZE public.t (id)', 'ANALYZE public.t (v)', 'ANALYZE public.small']);
    } finally {
      await store.close();
    }
  });
});

describe('a migrated snapshot (the tests\' stores)', () => {
  it('opens as a migrated store of its own: every migration recorded, writes kept apart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-snapshot-'));
    dirs.push(dir);
    const file = path.join(dir, 'store.tar');
    await writeMigratedSnapshot(file);
    const fresh = await openPglite({});
    const first = await openPglite({ snapshot: file });
    const second = await openPglite({ snapshot: file });
    try {
      const applied = async (store: Store) =>
        (await store.query<{ hash: string }>('select hash from drizzle.__drizzle_migrations order by created_at')).rows.map((r) => r.hash);
      const migrations = await applied(fresh);
      expect(migrations.length).toBeGreaterThan(20);
      expect(await applied(first)).toEqual(migrations);
      const tables = async (store: Store) =>
        (await store.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = 'public' order by 1`)).rows.map((r) => r.name);
      expect(await tables(first)).toEqual(await tables(fresh));
      await first.query(`insert into teams (plan) values ('pro')`);
      const count = async (store: Store) => (await store.query<{ n: number }>(`select count(*)::int as n from teams`)).rows[0].n;
      expect(await count(first)).toBe(1);
      expect(await count(second)).toBe(0);
    } finally {
      await Promise.all([fresh.close(), first.close(), second.close()]);
    }
  });
});
