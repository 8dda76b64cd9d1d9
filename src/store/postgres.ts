import crypto from 'node:crypto';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { Db, QueryResult, Store, Tx } from './types.js';
import { MIGRATION_LOCK_KEY, MIGRATIONS_FOLDER } from './migrations.js';
import { packPlainAnswerBodies } from './answer-bodies.js';
import { withArrayLiterals } from './array-literal.js';

// int8 as JS number (counts), numeric as float: analytics never exceed 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));

type Queryable = pg.Pool | pg.PoolClient;

// Parameterised queries run as named prepared statements: each connection plans a
// statement once and reuses the plan (about half of the server's CPU per simple query).
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `s_${crypto.hash('sha1', text, 'hex').slice(0, 20)}`;
    if (statementNames.size < 5_000) statementNames.set(text, name);
  }
  return name;
}

export function txOf(client: Queryable, db: Db, answerMonths?: Set<string>): Tx {
  const query = async <T>(text: string, values?: unknown[]): Promise<QueryResult<T>> => {
    const res = values?.length
      ? await client.query({ name: statementName(text), text, values: withArrayLiterals(values) })
      : await client.query(text);
    return { rows: res.rows as T[], rowCount: res.rowCount ?? 0 };
  };
  return { db, answerMonths, query, executeSql: (text, values) => client.query(text, values) };
}

/** Applies the migrations once, even when several processes start together. */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
      await packPlainAnswerBodies({ query: async (text, values) => ({ rows: (await client.query(text, values)).rows, rowCount: 0 }) });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/**
 * Settings of every session (primary and replica). Every query here takes milliseconds:
 * starting parallel workers costs more than it saves (a 90-day overview took longer with
 * two workers than without), and on a small machine they take the cores the other requests
 * need. JIT likewise: a query over an array column (unnest) is estimated at many times its
 * rows, crosses jit_above_cost, and spends about as long compiling as running.
 */
export const SESSION_OPTIONS = '-c max_parallel_workers_per_gather=0 -c jit=off';

/**
 * How a pool keeps its connections while quiet: the first WARM_CONNECTIONS stay open, one
 * above them closes after IDLE_CLOSE_MS unused. A new connection costs its first queries
 * their planning (the named statements above are per connection) and a cold backend; with
 * node-postgres's default (every idle connection closed after 10 s) each read after a quiet
 * spell paid that again, and a burst's connections, all closing at once, held the requests
 * running then.
 */
export function idleConnections(max: number): { min: number; idleTimeoutMillis: number } {
  return { min: Math.min(WARM_CONNECTIONS, max), idleTimeoutMillis: IDLE_CLOSE_MS };
}
const WARM_CONNECTIONS = 4;
const IDLE_CLOSE_MS = 60_000;

export async function openPostgres(opts: { url: string; poolSize?: number; migrate?: boolean }): Promise<Store> {
  const max = opts.poolSize ?? 10;
  const pool = new pg.Pool({
    connectionString: opts.url,
    max,
    ...idleConnections(max),
    connectionTimeoutMillis: 5_000,
    application_name: 'sightline',
    options: SESSION_OPTIONS,
  });
  // A dropped connection (server restart) surfaces on the next query as an error the
  // HTTP layer answers with 503; it must never crash the process.
  pool.on('error', () => {});
  if (opts.migrate !== false) await migratePostgres(pool);
  const db = drizzle(pool) as unknown as Db;
  const answerMonths = new Set<string>();
  return {
    ...txOf(pool, db, answerMonths),
    kind: 'postgres',
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(txOf(client, drizzle(client) as unknown as Db, answerMonths));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async ping() {
      await pool.query('select 1');
    },
    async checkpoint() {},
    listen: (channel, onNotification, onReconnect) => listenOn(opts.url, channel, onNotification, onReconnect),
    async close() {
      await pool.end();
    },
  };
}

/** How long a lost LISTEN connection waits before connecting again: doubling from 0.5 s to 30 s. */
const LISTEN_RETRY_MS = { first: 500, max: 30_000 };

/**
 * A connection of its own that LISTENs on `channel` (a pooled one would be handed to other
 * queries) and connects again, backing off, whenever it is lost: onReconnect after each
 * subscription lets the caller fetch what it may have missed meanwhile.
 */
async function listenOn(url: string, channel: string, onNotification: (payload: string) => void, onReconnect: () => void): Promise<{ close(): Promise<void> }> {
  let closed = false;
  let client: pg.Client | null = null;
  let retryMs = LISTEN_RETRY_MS.first;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url, application_name: 'sightline-listen', connectionTimeoutMillis: 5_000 });
    c.on('notification', (n) => {
      if (n.channel === channel) onNotification(n.payload ?? '');
    });
    let subscribed = false;
    // a dropped connection: connect again (never an unhandled error in the process). One
    // that never subscribed is not lost: its connect() fails, and its caller decides (the
    // first one's caller gets the error and no handle, so nothing may retry behind it).
    const lost = () => {
      if (closed || client !== c || !subscribed) return;
      client = null;
      c.end().catch(() => {});
      schedule();
    };
    c.on('error', lost);
    c.on('end', lost);
    client = c;
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      subscribed = true;
    } catch (err) {
      if (client === c) client = null;
      await c.end().catch(() => {});
      throw err;
    }
    retryMs = LISTEN_RETRY_MS.first;
    onReconnect();
  };
  const schedule = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      connect().catch(schedule);
    }, retryMs);
    retry.unref();
    retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MS.max);
  };
  await connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
