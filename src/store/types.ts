import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

export type Db = PgDatabase<PgQueryResultHKT>;

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

/** What pg-boss needs to run its SQL on our connection (and inside our transactions). */
export interface SqlExecutor {
  // biome-ignore lint/suspicious/noExplicitAny: pg-boss's db adapter contract returns driver results of its own shape.
  executeSql(text: string, values?: unknown[]): Promise<any>;
}

/** One unit of work: drizzle for typed queries, raw SQL for the rest, same connection. */
export interface Tx extends SqlExecutor {
  db: Db;
  /**
   * The months (`2026-11-01`) whose partition of responses this process has seen committed
   * in this store, shared by the store and all its transactions: the write path skips their
   * lookup (store-answers.ts ensureMonthPartitions). Absent: every batch looks them up.
   */
  answerMonths?: Set<string>;
  query<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<QueryResult<T>>;
}

export interface Store extends Tx {
  kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; everything it writes (jobs included) commits together. */
  tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  /** Flushes to disk (embedded store) so a stop loses nothing. */
  checkpoint(): Promise<void>;
  close(): Promise<void>;
}
