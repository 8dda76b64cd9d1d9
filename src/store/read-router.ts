import type { Config } from '../config.js';
import type { Logger } from '../lib/log.js';
import { analyticsVersion } from './analytics-version.js';
import type { Store, Tx } from './types.js';

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

/** No replica: every read on the primary. */
export function primaryOnly(store: Store): ReadRouter {
  return {
    replicated: false,
    version: (projectId) => analyticsVersion(store, projectId),
    readerAt: async () => store,
    status: () => null,
    close: async () => {},
  };
}

/** The read router of a process that serves requests: a replica when DATABASE_READ_URL is set. */
export async function openReadRouter(config: Config, store: Store, log: Logger): Promise<ReadRouter> {
  if (!config.databaseReadUrl || store.kind !== 'postgres') return primaryOnly(store);
  const { openReplicaRouter } = await import('./read-replica.js');
  return openReplicaRouter({ url: config.databaseReadUrl, poolSize: config.databasePoolSize, maxLagMs: config.replicaMaxLagMs }, store, log);
}
