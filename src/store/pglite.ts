import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { acquireDirLock } from './lock.js';
import type { Db, QueryResult, Store, Tx } from './types.js';
import { MIGRATIONS_FOLDER } from './migrations.js';
import { packPlainAnswerBodies } from './answer-bodies.js';
import { OneTripQueries } from './pglite-query.js';

type Runner = Pick<PGlite, 'query' | 'exec'> | Transaction;

/** A statement that may change a column's type (its text then no longer tells its parameters' types). */
const SCHEMA_CHANGE = /\b(create|alter|drop)\b/i;

function txOf(runner: Runner, db: Db, outside: boolean, trips: OneTripQueries, answerMonths?: Set<string>): Tx {
  // Outside a transaction of ours a query waits for any transaction to end, as PGlite's own
  // query does; inside one it runs on the transaction's connection (see OneTripQueries).
  const client = trips.client;
  const query = outside
    ? async <T>(text: string, values?: unknown[]): Promise<QueryResult<T>> => {
        await client._checkReady();
        return client._runExclusiveTransaction(async () => {
          const out = await trips.run<T>(text, values);
          await client.syncToFs();
          return out;
        });
      }
    : <T>(text: string, values?: unknown[]): Promise<QueryResult<T>> => trips.run<T>(text, values);
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
      if (SCHEMA_CHANGE.test(text)) trips.forget();
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
 * PGlite runs PostgreSQL as a single user, with no checkpointer, and PostgreSQL does not
 * checkpoint by itself there (max_wal_size never triggers one): without a CHECKPOINT the
 * write-ahead log is never recycled and grows with every write until the store is closed
 * (0.75 GB after a year of answers, more than the tables themselves). After a transaction,
 * at most every CHECKPOINT_EVERY_MS, the store checks the log written since the last
 * checkpoint. Past CHECKPOINT_WAL_BYTES it checkpoints once the store has been idle for
 * MAINTAIN_IDLE_MS, as the maintenance steps do: a CHECKPOINT writes every dirty page and
 * holds the thread meanwhile (bench/README.md, "Embedded store stalls"), so no request
 * should meet it. A writer that never lets the store be idle (a backfill, the seed) gets it
 * after its transaction once the log passes four times that, which bounds the log. Not
 * on a timer: a busy writer runs on PGlite's promises alone and would never let one fire.
 * The settings below bound what a checkpoint keeps of the old log for reuse: the next 32 MB
 * and the segment in use (48 MB; with 64 MB the store kept a 16 MB segment more, with no
 * measurable gain in write speed).
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
 * vacuums or analyzes each table past them.
 *
 * PostgreSQL runs on the server's own thread here: while a statement runs, nothing else of
 * the process does, and a request waits for it whole. So the work is cut into short steps
 * (VACUUM and ANALYZE apart; a table of ANALYZE_BY_COLUMN_BYTES or more analyzed one column
 * at a time, each step sampling the table again), and each step waits until the store has
 * had MAINTAIN_IDLE_MS without a query of anyone else: between two requests of a client
 * that keeps the store busy, maintenance never starts. A store never idle that long (a
 * backfill, the seed) gets its steps anyway once a round has waited MAINTAIN_MAX_WAIT_MS,
 * still one step at a time.
 */
const MAINTAIN_EVERY_MS = 60_000;
const MAINTAIN_IDLE_MS = 1_000;
const MAINTAIN_MAX_WAIT_MS = 5 * 60_000;
const ANALYZE_BY_COLUMN_BYTES = 8 * 1024 * 1024;

export async function openPglite(opts: {
  dataDir?: string;
  /** In memory (no dataDir): start from this dumped data directory (see writeMigratedSnapshot). */
  snapshot?: string;
  /** `walBytes`: checkpoint once idle past this much log; `capBytes`: at once past this much (4 × walBytes). */
  checkpoint?: { everyMs: number; walBytes: number; capBytes?: number };
  /** Rounds at most every `everyMs`; each step after `idleMs` without a query (see MAINTAIN_IDLE_MS). */
  maintain?: { everyMs: number; idleMs?: number; maxWaitMs?: number; byColumnBytes?: number };
}): Promise<Store> {
  const { everyMs, walBytes } = opts.checkpoint ?? { everyMs: CHECKPOINT_EVERY_MS, walBytes: CHECKPOINT_WAL_BYTES };
  const capBytes = opts.checkpoint?.capBytes ?? 4 * walBytes;
  const maintainEveryMs = opts.maintain?.everyMs ?? MAINTAIN_EVERY_MS;
  const idleMs = opts.maintain?.idleMs ?? MAINTAIN_IDLE_MS;
  const maxWaitMs = opts.maintain?.maxWaitMs ?? MAINTAIN_MAX_WAIT_MS;
  const byColumnBytes = opts.maintain?.byColumnBytes ?? ANALYZE_BY_COLUMN_BYTES;
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
  const trips = new OneTripQueries(client);
  // What the maintenance waits on: the last exchange with PostgreSQL ended when. Every
  // query goes through execProtocolRaw (PGlite's query and exec, drizzle's, a transaction's,
  // the maintenance's own steps: so two steps are an idle period apart as well) or, ours,
  // through execProtocolRawStream.
  let lastExchange = Date.now();
  const exchange = client.execProtocolRaw.bind(client);
  client.execProtocolRaw = (message, options) =>
    exchange(message, options).finally(() => {
      lastExchange = Date.now();
    });
  const streamExchange = client.execProtocolRawStream.bind(client);
  client.execProtocolRawStream = (message, options) =>
    streamExchange(message, options).finally(() => {
      lastExchange = Date.now();
    });
  const base = txOf(client, db, true, trips, answerMonths);
  await bringUpToDate(client, base);
  let checkedAt = Date.now();
  let maintainedAt = Date.now();
  let maintaining: Promise<void> | null = null;
  let checkpointing: Promise<void> | null = null;
  let stopping = false;
  /** Resolves once the store has been idle for idleMs (or has waited `waitMs` since `since`), false once the store closes. */
  const idle = async (since: number, waitMs = maxWaitMs) => {
    for (;;) {
      if (stopping || client.closed) return false;
      const quiet = Date.now() - lastExchange;
      if (quiet >= idleMs || Date.now() - since >= waitMs) return true;
      // at most 200 ms at a time, so close() is not kept waiting by a long idle time
      await new Promise((r) => setTimeout(r, Math.min(Math.max(idleMs - quiet, 10), 200)).unref());
    }
  };
  const maintain = () => {
    if (maintaining || client.closed || Date.now() - maintainedAt < maintainEveryMs) return;
    maintainedAt = Date.now();
    // not awaited: a transaction's caller goes on; close() waits for the step under way
    maintaining = (async () => {
      const since = Date.now();
      if (!(await idle(since))) return;
      for (const step of await maintenanceSteps(client, byColumnBytes)) {
        if (!(await idle(since))) return;
        await client.exec(step);
      }
    })()
      .then(() => {}, () => {}) // the next round tries again
      .finally(() => {
        maintaining = null;
      });
  };
  // On a timer for a store that is read or written a little, and after each transaction
  // for a busy writer (a backfill, the seed), whose promises would starve the timer.
  const timer = Number.isFinite(maintainEveryMs) ? setInterval(maintain, Math.max(maintainEveryMs, 1000)).unref() : null;
  /** The CHECKPOINT once the store is idle (not awaited: close() waits for it or checkpoints itself). */
  const checkpointWhenIdle = () => {
    if (checkpointing) return;
    checkpointing = (async () => {
      if (await idle(Date.now(), Number.POSITIVE_INFINITY)) await client.exec('CHECKPOINT');
    })()
      .then(() => {}, () => {}) // the next transaction looks again
      .finally(() => {
        checkpointing = null;
      });
  };
  const afterWrite = async () => {
    maintain();
    if (Date.now() - checkedAt < everyMs) return;
    checkedAt = Date.now();
    try {
      const log = await walSinceCheckpoint(client);
      if (log >= capBytes) await client.exec('CHECKPOINT');
      else if (log >= walBytes) checkpointWhenIdle();
    } catch {
      // the transaction is committed; the next one looks again, and close() checkpoints anyway
    }
  };
  return {
    ...base,
    kind: 'pglite',
    // Inside a PGlite transaction only its own handle may be used (the outer one waits
    // for the transaction and would hang), so fn gets a Tx built on it.
    // drizzle's PGlite driver takes the client type only; a transaction answers the same queries.
    tx: async (fn) => {
      const out = await client.transaction((t) => fn(txOf(t, drizzle(t as unknown as PGlite) as unknown as Db, false, trips, answerMonths)));
      await afterWrite();
      return out;
    },
    async ping() {
      await client.query('select 1');
    },
    async checkpoint() {
      await client.exec('CHECKPOINT');
    },
    // One process, one connection: a NOTIFY comes back with its own COMMIT, to this process's
    // listeners only; there is no connection to lose, so onReconnect runs once.
    async listen(channel, onNotification, onReconnect) {
      // a NOTIFY committed by a transaction comes back to PGlite's listener, with its COMMIT;
      // one committed by a query of ours outside one, to the queries' (see OneTripQueries)
      const unlisten = await client.listen(channel, onNotification);
      const stopQueries = trips.addListener(channel, onNotification);
      onReconnect();
      return {
        async close() {
          stopQueries();
          if (!client.closed) await unlisten();
        },
      };
    },
    async close() {
      try {
        if (timer) clearInterval(timer);
        stopping = true; // a round waiting for idleness gives up; a step under way is awaited
        if (!client.closed) {
          await maintaining;
          await checkpointing;
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
    await bringUpToDate(client, txOf(client, drizzle(client) as unknown as Db, true, new OneTripQueries(client)));
    const dump = await client.dumpDataDir('none');
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
}

/** The bytes of write-ahead log written since the last checkpoint. */
async function walSinceCheckpoint(client: Pick<PGlite, 'query'>): Promise<number> {
  const { rows } = await client.query<{ n: number }>(`select pg_wal_lsn_diff(pg_current_wal_lsn(), checkpoint_lsn)::float8 as n from pg_control_checkpoint()`);
  return rows[0].n;
}

/**
 * Autovacuum's decision with PostgreSQL's default settings, table by table: VACUUM past
 * 50 + 20% dead rows or 1,000 + 20% rows inserted since the last vacuum (the insert threshold
 * keeps the visibility map current for index-only scans), ANALYZE past 50 + 10% rows changed
 * since the last analyze. Returns the statements to run, each one short step: VACUUM and
 * ANALYZE apart, and a table of `byColumnBytes` or more analyzed one column at a time (an
 * ANALYZE with a column list still counts the table's rows and pages).
 */
export async function maintenanceSteps(client: { query<T>(text: string, values?: unknown[]): Promise<{ rows: T[] }> }, byColumnBytes: number): Promise<string[]> {
  const { rows } = await client.query<{ name: string; vacuum: boolean; analyze: boolean; columns: string[] | null }>(
    `select format('%I.%I', s.schemaname, s.relname) as name,
            s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0) as vacuum,
            s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) as analyze,
            case when pg_relation_size(c.oid) >= $1 then
              (select array_agg(quote_ident(a.attname) order by a.attnum) from pg_attribute a
                where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attstattarget is distinct from 0)
            end as columns
       from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      order by s.relid`,
    [byColumnBytes],
  );
  const steps: string[] = [];
  for (const t of rows) {
    if (t.vacuum) steps.push(`VACUUM ${t.name}`);
    if (!t.analyze) continue;
    if (t.columns?.length) for (const c of t.columns) steps.push(`ANALYZE ${t.name} (${c})`);
    else steps.push(`ANALYZE ${t.name}`);
  }
  return steps;
}
