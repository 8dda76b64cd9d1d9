import type { Config } from '../config.js';
import type { Logger } from '../lib/log.js';
import { analyticsVersion } from './analytics-version.js';
import type { ReadRouter, Store } from './types.js';

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
