import { Redis } from 'ioredis';
import type { RateDecision, RateLimiter } from './types.js';

// The whole check-and-record runs inside Redis, atomically, on Redis's own clock, so
// every API process shares one window per subject. A sorted set holds the passed
// requests scored by time in microseconds.
const SCRIPT = `
local key = KEYS[1]
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count < limit then
  local seq = redis.call('INCR', key .. ':seq')
  redis.call('ZADD', key, now, now .. '-' .. seq)
  redis.call('PEXPIRE', key, math.ceil(window / 1000))
  redis.call('PEXPIRE', key .. ':seq', math.ceil(window / 1000))
  return {1, limit - count - 1, 0}
end
local oldest = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
local wait = tonumber(oldest[2]) + window - now
return {0, 0, wait}
`;

export type RedisFailureMode = 'open' | 'closed';

export class RedisRateLimiter implements RateLimiter {
  readonly #redis: Redis;
  /** Settles when the first connection attempt does (ready, refused or closed). */
  readonly #connecting: Promise<void>;

  constructor(
    url: string,
    private readonly windowMs: number,
    private readonly onError: (err: unknown) => void = () => {},
    private readonly prefix = 'sightline:rl:',
  ) {
    this.#redis = new Redis(url, {
      lazyConnect: false,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: 2_000,
    });
    this.#redis.on('error', (err) => this.onError(err));
    // Without an offline queue a command sent before the first connection is up fails at
    // once, so a process that has just started would serve its first requests unlimited.
    // Hits wait for that first attempt (bounded by connectTimeout); later outages fail open.
    this.#connecting = new Promise((resolve) => {
      const done = () => resolve();
      this.#redis.once('ready', done);
      this.#redis.once('error', done);
      this.#redis.once('end', done);
    });
    this.#redis.defineCommand('slidingHit', { numberOfKeys: 1, lua: SCRIPT });
  }

  async hit(subject: string, limit: number): Promise<RateDecision> {
    try {
      if (this.#redis.status !== 'ready') await this.#connecting;
      // defineCommand adds the method at run time; ioredis cannot type it.
      const redis = this.#redis as Redis & { slidingHit(key: string, windowUs: number, limit: number): Promise<[number, number, number]> };
      const [ok, remaining, waitUs] = await redis.slidingHit(this.prefix + subject, this.windowMs * 1000, limit);
      if (ok === 1) return { allowed: true, limit, remaining, retryAfter: 0 };
      return { allowed: false, limit, remaining: 0, retryAfter: Math.max(1, Math.ceil(waitUs / 1_000_000)) };
    } catch (err) {
      // Fail open: a Redis outage must not take the API down with it. The request is
      // served and logged; the limit resumes when Redis answers again (docs/decisions.md, "Rate limits").
      this.onError(err);
      return { allowed: true, limit, remaining: limit, retryAfter: 0 };
    }
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }
}
