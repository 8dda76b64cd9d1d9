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
  /**
   * LISTEN on `channel`: `onNotification` gets each NOTIFY's payload once its transaction
   * commits; `onReconnect` runs after every (re)subscription, since a notification sent while
   * no one listened is gone (pg-boss's wake-ups of job workers, src/jobs/queue.ts).
   */
  listen(channel: string, onNotification: (payload: string) => void, onReconnect: () => void): Promise<{ close(): Promise<void> }>;
  close(): Promise<void>;
}

/**
 * What /healthz shows of the read replica (docs/replicas.md). Why it went down is logged
 * (a warning), not shown here: /healthz answers anyone, and the error names addresses.
 */
export interface ReplicaStatus {
  /** up: reads go there; lagging: behind by more than REPLICA_MAX_LAG_MS; down: unreachable or not a standby, retried at retry_at. */
  state: 'starting' | 'up' | 'lagging' | 'down';
  /** How far the replica's replay is behind the primary, in ms (probe resolution); null until measured. */
  lag_ms: number | null;
  max_lag_ms: number;
  replay_lsn: string | null;
  checked_at: string | null;
  /** When a replica that is down is tried again (backing off while it stays down). */
  retry_at: string | null;
  /** Project reads since the process started, by where they went. */
  reads: {
    replica: number;
    /** To the primary: the replica had not yet replayed the project's latest change (read-your-writes). */
    primary_behind: number;
    /** To the primary: the replica was lagging, down or starting. */
    primary_unhealthy: number;
    /** Queries that failed on the replica mid-request and ran again on the primary. */
    fell_back: number;
  };
}

/**
 * Where a project's analytics reads run. A read is valid for one analytics version of its
 * project (src/store/analytics-version.ts, the same counter the read cache keys on): the
 * version is read on the primary, and the reads go to the replica only when the replica's
 * own copy of that version row is at least as new, i.e. it has replayed every change of
 * the project, including what the caller just wrote. Everything else runs on the primary.
 */
export interface ReadRouter {
  /** Whether a replica is configured (false: every read runs on the primary, no routing to do). */
  readonly replicated: boolean;
  /** The project's analytics version on the primary: the oldest state a read may show. */
  version(projectId: string): Promise<number>;
  /** A reader whose view of the project is at least at `version`: the replica when it can, else the primary. */
  readerAt(projectId: string, version: number): Promise<Tx>;
  /** The replica's state; null without DATABASE_READ_URL. */
  status(): ReplicaStatus | null;
  close(): Promise<void>;
}
