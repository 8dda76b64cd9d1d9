import type { Config } from '../config.js';
import type { Store } from './types.js';

export type { Store, Tx, Db, SqlExecutor, ReadRouter, ReplicaStatus } from './types.js';
export { openReadRouter, primaryOnly } from './read-router.js';

/** The embedded store by default; PostgreSQL when DATABASE_URL is set. */
export async function openStore(config: Config): Promise<Store> {
  if (config.databaseUrl) {
    const { openPostgres } = await import('./postgres.js');
    return openPostgres({ url: config.databaseUrl, poolSize: config.databasePoolSize });
  }
  const { openPglite } = await import('./pglite.js');
  return config.memoryStore
    ? openPglite({ snapshot: config.memoryStoreSnapshot })
    : openPglite({ dataDir: config.dataDir });
}
