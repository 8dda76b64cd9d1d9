import type { ServiceContext } from '../context.js';
import type { AuthCache } from './auth-cache.js';
import type { RateLimiter } from './rate-limit/index.js';
import type { ReadCache } from './read-cache.js';

/** What the HTTP surface holds besides the services: its caches and its rate limiter. */
export interface HttpContext {
  services: ServiceContext;
  limiter: RateLimiter;
  authCache: AuthCache;
  /** Serialized analytics responses by URL, valid for one analytics version of their project. */
  readCache: ReadCache;
}
