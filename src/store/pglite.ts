import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { acquireDirLock } from './lock.js';
import type { Db, QueryResult, Store, Tx } from './types.js';
import { MIGRATIONS_FOLDER } from './migrations.js';
import { packPlainAnswerBodies } from './answer-bodies.js';

type Runner = Pick<PGlite, 'query' | 'exec'> | Transaction;

function txOf(runner: Runner, db: Db, outside: boolean, answerMonths?: Set<string>): Tx {
  const query = async <T>(text: string, values?: unknown[]): Promise<QueryResult<T>> => {
    const res = await runner.query<T>(text, values);
    return { rows: res.rows, rowCount: res.affectedRows ?? res.rows.length };
  };
  return {
    db,
    answerMonths,
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
 * never let one fire. The settings below bound what a checkpoint keeps of the old log for reuse:
 * the next 32 MB and the segment in use (48 MB; with 64 MB the store kept a 16 MB segment more,
 * with no measurable gain in write speed).
 */
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'max_wal_size=48MB', '-c', 'min_wal_size=32MB'];
const CHECKPOINT_WAL_BYTES = 32 * 1024 * 1024;
const CHECKPOINT_EVERY_MS = 10_000;

/**
 * Nor has it autovacuum: without it the planner never has statistics (every table reads
 * reltuples -1 and each plan guesses the rows it will meet) and the dead row versions of
 * the rollup upserts are never reclaimed. After a transaction, at most every
 * MAINTAIN_EVERY_MS (autovacuum's naptime), the store applies autovacuum's thresholds
 * (PostgreSQL's defaults) to the counts PostgreSQL keeps in pg_stat_user_tables and
 * vacuums or analyzes each table past them, one statement per table so that queries
 * waiting on the store run in between.
 */
const MAINTAIN_EVERY_MS = 60_000;

export async function openPglite(opts: {
  dataDir?: string;
  /** In memory (no dataDir): start from this dumped data directory (see writeMigratedSnapshot). */
  snapshot?: string;
  checkpoint?: { everyMs: number; walBytes: number };
  maintain?: { everyMs: number };
}): Promise<Store> {
  const { everyMs, walBytes } = opts.checkpoint ?? { everyMs: CHECKPOINT_EVERY_MS, walBytes: CHECKPOINT_WAL_BYTES };
  const maintainEveryMs = opts.maintain?.everyMs ?? MAINTAIN_EVERY_MS;
  const release = opts.dataDir ? acquireDirLock(opts.dataDir) : () => {};
  let client: PGlite;
  try {
    client = opts.dataDir
      ? await PGlite.create(path.join(opts.dataDir, 'pg'), { startParams: START_PARAMS })
      : await PGlite.create({
          startParams: START_PARAMS,
          loadDataDir: opts.snapshot ? new Blob([fs.readFileSync(opts.snapshot)]) : undefined,
        });
  } catch (err) {
    release();
    throw err;
  }
  const db = drizzle(client) as unknown as Db;
  const answerMonths = new Set<string>();
  const base = txOf(client, db, true, answerMonths);
  await bringUpToDate(client, base);
  let checkedAt = Date.now();
  let maintainedAt = Date.now();
  let maintaining: Promise<void> | null = null;
  const maintain = () => {
    if (maintaining || client.closed || Date.now() - maintainedAt < maintainEveryMs) return;
    maintainedAt = Date.now();
    // not awaited: a transaction's caller goes on; close() waits for it
    maintaining = vacuumPastThresholds(client)
      .then(() => {}, () => {}) // the next round tries again
      .finally(() => {
        maintaining = null;
      });
  };
  // On a timer for a store that is read or written a little, and after each transaction
  // for a busy writer (a backfill, the seed), whose promises would starve the timer.
  const timer = Number.isFinite(maintainEveryMs) ? setInterval(maintain, Math.max(maintainEveryMs, 1000)).unref() : null;
  const afterWrite = async () => {
    maintain();
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
      const out = await client.transaction((t) => fn(txOf(t, drizzle(t as unknown as PGlite) as unknown as Db, false, answerMonths)));
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
        if (timer) clearInterval(timer);
        if (!client.closed) {
          await maintaining;
          await client.exec('CHECKPOINT').catch(() => {});
          await client.close();
        }
      } finally {
        release();
      }
    },
  };
}

/** The migrations, then the data steps that follow them (a no-op on a store already up to date). */
async function bringUpToDate(client: PGlite, base: Tx): Promise<void> {
  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
  await packPlainAnswerBodies(base);
}

/**
 * Writes the data directory of a new, migrated in-memory store to `file`, for
 * `openPglite({ snapshot })`: a test run migrates once instead of once per store, and an
 * in-memory store opened from it skips initdb as well.
 */
export async function writeMigratedSnapshot(file: string): Promise<void> {
  const client = await PGlite.create({ startParams: START_PARAMS });
  try {
    await bringUpToDate(client, txOf(client, drizzle(client) as unknown as Db, true));
    const dump = await client.dumpDataDir('none');
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
}

/** A CHECKPOINT when the log written since the last one passes CHECKPOINT_WAL_BYTES. */
async function checkpointPastWal(client: Pick<PGlite, 'query' | 'exec'>, limit: number): Promise<boolean> {
  const { rows } = await client.query<{ n: number }>(`select pg_wal_lsn_diff(pg_current_wal_lsn(), checkpoint_lsn)::float8 as n from pg_control_checkpoint()`);
  if (rows[0].n < limit) return false;
  await client.exec('CHECKPOINT');
  return true;
}

/**
 * Autovacuum's decision with PostgreSQL's default settings, table by table: VACUUM past
 * 50 + 20% dead rows or 1,000 + 20% rows inserted since the last vacuum (the insert threshold
 * keeps the visibility map current for index-only scans), ANALYZE past 50 + 10% rows changed
 * since the last analyze. Returns the statements it ran.
 */
export async function vacuumPastThresholds(client: Pick<PGlite, 'query' | 'exec'>): Promise<string[]> {
  const { rows } = await client.query<{ name: string; vacuum: boolean; analyze: boolean }>(
    `select format('%I.%I', s.schemaname, s.relname) as name,
            s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0) as vacuum,
            s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) as analyze
       from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      order by s.relid`,
  );
  const done: string[] = [];
  for (const t of rows) {
    const sql = t.vacuum ? `VACUUM ${t.analyze ? '(ANALYZE) ' : ''}${t.name}` : t.analyze ? `ANALYZE ${t.name}` : null;
    if (!sql) continue;
    await client.exec(sql);
    done.push(sql);
  }
  return done;
}
