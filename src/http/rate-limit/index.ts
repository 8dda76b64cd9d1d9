import type { Config } from '../../config.js';
import { MemoryRateLimiter } from './memory.js';
import { RedisRateLimiter } from './redis.js';
import type { RateLimiter } from './types.js';

export type { RateLimiter, RateDecision } from './types.js';
export { MemoryRateLimiter, RedisRateLimiter };

/** Effective limit per 60-second window by tier (spec section 8: rate + burst). */
export const TIER_LIMITS: Record<string, number> = { standard: 70, premium: 350 };

export function createRateLimiter(config: Config, onError: (err: unknown) => void): RateLimiter {
  return config.redisUrl
    ? new RedisRateLimiter(config.redisUrl, config.rateLimitWindowMs, onError, config.redisKeyPrefix)
    : new MemoryRateLimiter(config.rateLimitWindowMs);
}
