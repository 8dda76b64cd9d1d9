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

export async function openPglite(opts: { dataDir?: string }): Promise<Store> {
  const release = opts.dataDir ? acquireDirLock(opts.dataDir) : () => {};
  let client: PGlite;
  try {
    client = opts.dataDir ? await PGlite.create(path.join(opts.dataDir, 'pg')) : await PGlite.create();
  } catch (err) {
    release();
    throw err;
  }
  const db = drizzle(client) as unknown as Db;
  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
  const base = txOf(client, db, true);
  await packPlainAnswerBodies(base);
  return {
    ...base,
    kind: 'pglite',
    // Inside a PGlite transaction only its own handle may be used (the outer one waits
    // for the transaction and would hang), so fn gets a Tx built on it.
    // drizzle's PGlite driver takes the client type only; a transaction answers the same queries.
    tx: (fn) => client.transaction((t) => fn(txOf(t, drizzle(t as unknown as PGlite) as unknown as Db, false))),
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
