import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Config } from './config';
import type { RateLimiter } from './http/rate-limit';
import type { Jobs } from './jobs';
import type { SecretBox } from './lib/crypto';
import type { Store } from './store';
import type { AuthCache } from './modules/keys/auth-cache';
import type { TtlCache } from './lib/ttl-cache';
import type { ReadCache } from './http/read-cache';
import type { ProjectRow } from './modules/projects/service';
import type { ProviderAdapter, ProviderName } from './ports/providers/types';
import type { Writer } from './ports/writer';

/** Adapters to the outside world (AI providers, the writer model). */
export interface Ports {
  providers: Record<ProviderName, ProviderAdapter>;
  writer: Writer;
}

/** What every service and job handler can reach; built once per process. */
export interface AppContext {
  config: Config;
  store: Store;
  jobs: Jobs;
  box: SecretBox;
  log: Logger;
  limiter: RateLimiter;
  authCache: AuthCache;
  /** Project rows by id, read once per AUTH_CACHE_MS: the ownership check of every project route. */
  projectCache: TtlCache<ProjectRow>;
  /** Serialized analytics responses by URL, valid for one analytics version of their project. */
  readCache: ReadCache;
  callbackSecret: string;
  ports: Ports;
}

export interface AuthInfo {
  keyId: string;
  teamId: string;
  scope: 'admin' | 'viewer';
  tier: string;
  plan: string;
}

/** A service call made for an authenticated caller. */
export interface RequestContext extends AppContext {
  auth: AuthInfo;
}
