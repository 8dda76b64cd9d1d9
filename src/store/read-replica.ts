import pg from 'pg';
import type { Logger } from '../lib/log.js';
import { analyticsVersion } from './analytics-version.js';
import { idleConnections, SESSION_OPTIONS, txOf } from './postgres.js';
import { parseLsn, ReplayLag } from './replica-lag.js';
import type { ReadRouter, ReplicaStatus, Store, Tx } from './types.js';

// A replica that does not answer must cost a request little: a connection is given up
// after CONNECT_TIMEOUT_MS, a query after QUERY_TIMEOUT_MS (the server cancels it at
// STATEMENT_TIMEOUT_MS; the client stops waiting a little later, for a server that is gone
// without a word). Either way the read runs again on the primary.
const CONNECT_TIMEOUT_MS = 2_000;
const STATEMENT_TIMEOUT_MS = 5_000;
const QUERY_TIMEOUT_MS = 6_000;
// A replica found down is tried again after 0.5 s, then 1, 2, 4 ... up to 30 s.
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;

export interface ReplicaOptions {
  url: string;
  poolSize: number;
  /** REPLICA_MAX_LAG_MS: further behind than this, no read goes to the replica. */
  maxLagMs: number;
}

/**
 * Whether an error says the replica cannot serve (unreachable, shutting down, refusing
 * connections, too slow, misconfigured), as opposed to one query's own trouble (a recovery
 * conflict, a bad parameter), after which the replica is still fine.
 */
export function replicaUnavailable(err: unknown): boolean {
  if (!(err instanceof pg.DatabaseError)) return true; // a socket error or a driver timeout: the server said nothing
  const code = err.code ?? '';
  return /^(08|53|28|3D)/.test(code) || ['57P01', '57P02', '57P03', '57014'].includes(code);
}

function openPool(url: string, max: number, name: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    ...idleConnections(max),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    application_name: name,
    options: `${SESSION_OPTIONS} -c statement_timeout=${STATEMENT_TIMEOUT_MS}`,
  });
  pool.on('error', () => {}); // a replica going away shows on the next query, never crashes the process
  return pool;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 300);

/**
 * Reads on a PostgreSQL streaming replica (docs/replicas.md). A probe reads the primary's
 * WAL position and the replica's replay position every `probeEveryMs` and keeps the state:
 * `up` (reads may go there), `lagging` (behind by more than maxLagMs) or `down` (a probe
 * or a read failed: tried again after a backoff, the circuit breaker's open state).
 * `readerAt` then sends a project's reads there only when the replica is up and holds the
 * project's latest analytics version; a query that fails there runs again on the primary.
 */
class ReplicaRouter implements ReadRouter {
  readonly #reads: pg.Pool;
  readonly #probes: pg.Pool;
  readonly #direct: Tx;
  /** The replica with every query falling back to the primary: what routed reads get. */
  readonly reader: Tx;
  readonly #lag = new ReplayLag();
  #state: ReplicaStatus['state'] = 'starting';
  #lagMs: number | null = null;
  #replayLsn: string | null = null;
  #checkedAt: Date | null = null;
  #failures = 0;
  #failedAt = 0;
  #retryAt: number | null = null;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;
  readonly #counts = { replica: 0, primary_behind: 0, primary_unhealthy: 0, fell_back: 0 };
  readonly probeEveryMs: number;
  readonly replicated = true;

  constructor(
    readonly opts: ReplicaOptions,
    readonly primary: Store,
    readonly log: Logger,
  ) {
    this.#reads = openPool(opts.url, opts.poolSize, 'sightline:reads');
    this.#probes = openPool(opts.url, 1, 'sightline:replica-probe');
    // Typed (drizzle) queries are not routed: `db` is the primary's. The analytics reads are raw SQL.
    this.#direct = txOf(this.#reads, primary.db);
    this.reader = {
      db: primary.db,
      query: (text, values) => this.#orPrimary(() => this.#direct.query(text, values), () => primary.query(text, values)),
      executeSql: (text, values) => this.#orPrimary(() => this.#direct.executeSql(text, values), () => primary.executeSql(text, values)),
    };
    this.probeEveryMs = Math.min(1_000, Math.max(100, Math.round(opts.maxLagMs / 4)));
  }

  version(projectId: string): Promise<number> {
    return analyticsVersion(this.primary, projectId);
  }

  async readerAt(projectId: string, version: number): Promise<Tx> {
    if (this.#state !== 'up') {
      this.#counts.primary_unhealthy++;
      return this.primary;
    }
    try {
      if ((await analyticsVersion(this.#direct, projectId)) >= version) {
        this.#counts.replica++;
        return this.reader;
      }
      this.#counts.primary_behind++;
    } catch (err) {
      if (replicaUnavailable(err)) this.#failed(err);
      this.#counts.primary_unhealthy++;
    }
    return this.primary;
  }

  async #orPrimary<T>(onReplica: () => Promise<T>, onPrimary: () => Promise<T>): Promise<T> {
    // Another query of the same request found it down: no second wait for it.
    if (this.#state === 'down') return onPrimary();
    try {
      return await onReplica();
    } catch (err) {
      if (replicaUnavailable(err)) this.#failed(err);
      this.#counts.fell_back++;
      this.log.debug({ err: message(err) }, 'read failed on the replica; running it on the primary');
      return onPrimary();
    }
  }

  /** Opens the breaker (state down), or, for a failed probe while open, backs off further. */
  #failed(err: unknown, byProbe = false): void {
    this.#failedAt = Date.now();
    // The reads that were in flight when it went away all fail together: one failure, not many.
    if (this.#state === 'down' && !byProbe) return;
    this.#failures++;
    const wait = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(this.#failures - 1, 16));
    this.#retryAt = Date.now() + wait;
    if (this.#state !== 'down') this.log.warn({ err: message(err), retry_in_ms: wait }, 'read replica down: reads go to the primary');
    this.#state = 'down';
    this.#schedule(wait);
  }

  /** Reads both positions and sets the state; never throws. */
  async probe(): Promise<void> {
    const started = Date.now();
    let primaryLsn: bigint;
    try {
      const { rows } = await this.primary.query<{ lsn: string }>('select pg_current_wal_flush_lsn()::text as lsn');
      primaryLsn = parseLsn(rows[0].lsn);
    } catch {
      return; // the primary's own trouble: requests answer 503 for it; the replica's state stands
    }
    this.#lag.primaryAt(started, primaryLsn);
    try {
      const { rows } = await this.#probes.query<{ standby: boolean; replay: string | null }>(
        'select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as replay',
      );
      const [r] = rows;
      // A promoted replica no longer follows the primary: what it shows would drift away.
      if (!r.standby) throw new Error('the server of DATABASE_READ_URL is not a standby (pg_is_in_recovery() is false)');
      if (this.#failedAt > started) return; // a read failed meanwhile: that is newer news
      this.#checkedAt = new Date();
      this.#replayLsn = r.replay;
      this.#lagMs = r.replay === null ? null : this.#lag.replayedTo(parseLsn(r.replay), Date.now());
      const state = this.#lagMs !== null && this.#lagMs <= this.opts.maxLagMs ? 'up' : 'lagging';
      if (state !== this.#state) {
        if (state === 'up') this.log.info({ lag_ms: this.#lagMs }, 'read replica up: analytics reads go there');
        else this.log.warn({ lag_ms: this.#lagMs, max_lag_ms: this.opts.maxLagMs }, 'read replica lagging: reads go to the primary');
      }
      this.#state = state;
      this.#failures = 0;
      this.#retryAt = null;
    } catch (err) {
      this.#failed(err, true);
    }
  }

  #schedule(delayMs: number): void {
    if (this.#closed) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.probe().finally(() => {
        if (!this.#timer) this.#schedule(this.#state === 'down' ? Math.max(100, (this.#retryAt ?? 0) - Date.now()) : this.probeEveryMs);
      });
    }, delayMs);
    this.#timer.unref();
  }

  start(): void {
    this.#schedule(0);
  }

  status(): ReplicaStatus {
    return {
      state: this.#state,
      lag_ms: this.#lagMs,
      max_lag_ms: this.opts.maxLagMs,
      replay_lsn: this.#replayLsn,
      checked_at: this.#checkedAt?.toISOString() ?? null,
      retry_at: this.#state === 'down' && this.#retryAt ? new Date(this.#retryAt).toISOString() : null,
      reads: { ...this.#counts },
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    await Promise.all([this.#reads.end(), this.#probes.end()]);
  }
}

export function openReplicaRouter(opts: ReplicaOptions, primary: Store, log: Logger): ReadRouter {
  const router = new ReplicaRouter(opts, primary, log);
  router.start();
  return router;
}
