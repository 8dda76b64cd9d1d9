import path from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { acquireDirLock } from './lock.js';
import type { Db, QueryResult, Store, Tx } from './types.js';
import { MIGRATIONS_FOLDER } from './migrations.js';
import { packPlainAnswerBodies } from './answer-bodies.js';

type Runner = Pick<PGlite, 'query' | 'exec'> | Transaction;

function txOf(runner: Runner, db: Db, outside: boolean): Tx {
  const query = async <T>(text: string, values?: unknown[]): Promise<QueryResult<T>> => {
    const res = await runner.query<T>(text, values);
    return { rows: res.rows, rowCount: res.affectedRows ?? res.rows.length };
  };
  return {
    db,
    query,
    // pg-boss's SQL. It sends several statements in one string without parameters (some
    // wrapped in BEGIN … COMMIT); PGlite runs those through exec (simple protocol), like pg
    // does, and the rows of every statement are returned together, as pg-boss's own PGlite
    // adapter does. PGlite is one connection: a block that fails half-way would leave it in an
    // aborted transaction for every later query, so outside a transaction of ours it is
    // rolled back before the error is passed on.
    async executeSql(text: string, values?: unknown[]) {
      if (values && values.length > 0) return query(text, values);
      try {
        const results = await runner.exec(text);
        return { rows: results.flatMap((r) => r.rows ?? []) };
      } catch (err) {
        if (outside) await runner.query('ROLLBACK').catch(() => {});
        throw err;
      }
    },
  };
}

/**
 * PGlite runs PostgreSQL as a single user, with no checkpointer: without a CHECKPOINT the
 * write-ahead log is never recycled and grows with every write until the store is closed
 * (0.75 GB after a year of answers, more than the tables themselves). After a transaction,
 * at most every CHECKPOINT_EVERY_MS, the store checks the log written since the last
 * checkpoint and checkpoints past CHECKPOINT_WAL_BYTES (a few ms when little is dirty). Not
 * on a timer: a busy writer (a backfill, the seed) runs on PGlite's promises alone and would
 * never let one fire. The settings below bound what a checkpoint keeps of the old log for reuse.
 */
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'max_wal_size=64MB', '-c', 'min_wal_size=32MB'];
const CHECKPOINT_WAL_BYTES = 32 * 1024 * 1024;
const CHECKPOINT_EVERY_MS = 10_000;

export async function openPglite(opts: { dataDir?: string; checkpoint?: { everyMs: number; walBytes: number } }): Promise<Store> {
  const { everyMs, walBytes } = opts.checkpoint ?? { everyMs: CHECKPOINT_EVERY_MS, walBytes: CHECKPOINT_WAL_BYTES };
  const release = opts.dataDir ? acquireDirLock(opts.dataDir) : () => {};
  let client: PGlite;
  try {
    client = opts.dataDir
      ? await PGlite.create(path.join(opts.dataDir, 'pg'), { startParams: START_PARAMS })
      : await PGlite.create({ startParams: START_PARAMS });
  } catch (err) {
    release();
    throw err;
  }
  const db = drizzle(client) as unknown as Db;
  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
  const base = txOf(client, db, true);
  await packPlainAnswerBodies(base);
  let checkedAt = Date.now();
  const afterWrite = async () => {
    if (Date.now() - checkedAt < everyMs) return;
    checkedAt = Date.now();
    await checkpointPastWal(client, walBytes).catch(() => {}); // the transaction is committed; close() checkpoints anyway
  };
  return {
    ...base,
    kind: 'pglite',
    // Inside a PGlite transaction only its own handle may be used (the outer one waits
    // for the transaction and would hang), so fn gets a Tx built on it.
    // drizzle's PGlite driver takes the client type only; a transaction answers the same queries.
    tx: async (fn) => {
      const out = await client.transaction((t) => fn(txOf(t, drizzle(t as unknown as PGlite) as unknown as Db, false)));
      await afterWrite();
      return out;
    },
    async ping() {
      await client.query('select 1');
    },
    async checkpoint() {
      await client.exec('CHECKPOINT');
    },
    async close() {
      try {
        if (!client.closed) {
          await client.exec('CHECKPOINT').catch(() => {});
          await client.close();
        }
      } finally {
        release();
      }
    },
  };
}

/** A CHECKPOINT when the log written since the last one passes CHECKPOINT_WAL_BYTES. */
async function checkpointPastWal(client: Pick<PGlite, 'query' | 'exec'>, limit: number): Promise<boolean> {
  const { rows } = await client.query<{ n: number }>(`select pg_wal_lsn_diff(pg_current_wal_lsn(), checkpoint_lsn)::float8 as n from pg_control_checkpoint()`);
  if (rows[0].n < limit) return false;
  await client.exec('CHECKPOINT');
  return true;
}
