import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import type { RateDecision, RateLimiter } from './types.js';

// The whole check-and-record runs inside Redis, atomically, on Redis's own clock, so
// every API process shares one window per subject. A sorted set holds the passed
// requests scored by time in microseconds, each under a member named by the process
// (a random token and a counter), so no other key is needed to make them unique.
//
// One call checks a batch: every hit a process received since its last call (KEYS[i] with
// its limit ARGV[2i] and member ARGV[2i+1]), in order, at one instant. Each hit is decided
// exactly as alone (a subject hit twice in a batch counts twice); the batch only saves a
// script call, a round trip and a socket write per request.
const SCRIPT = `
local window = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local ttl = math.ceil(window / 1000)
local out = {}
for i = 1, #KEYS do
  local key = KEYS[i]
  local limit = tonumber(ARGV[2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  if count < limit then
    redis.call('ZADD', key, now, ARGV[2 * i + 1])
    redis.call('PEXPIRE', key, ttl)
    out[#out + 1] = 1
    out[#out + 1] = limit - count - 1
    out[#out + 1] = 0
  else
    local oldest = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
    out[#out + 1] = 0
    out[#out + 1] = 0
    out[#out + 1] = tonumber(oldest[2]) + window - now
  end
end
return out
`;

/** Hits sent in one script call at most (a bound on the script's time inside Redis). */
const MAX_BATCH = 256;

interface PendingHit {
  key: string;
  limit: number;
  resolve: (d: RateDecision) => void;
}

export type RedisFailureMode = 'open' | 'closed';

export class RedisRateLimiter implements RateLimiter {
  readonly #redis: Redis;
  /** Settles when the first connection attempt does (ready, refused or closed). */
  readonly #connecting: Promise<void>;
  /** Names this process's members in the windows: unique across processes. */
  readonly #token = crypto.randomBytes(6).toString('base64url');
  #sequence = 0;
  #queue: PendingHit[] = [];
  #flushScheduled = false;
  #inFlight = false;

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
    this.#redis.defineCommand('slidingHits', { lua: SCRIPT });
  }

  /**
   * Queued, and sent with the other hits of this turn of the event loop in one script call
   * (setImmediate: after the loop has read every socket that had a request ready). While a
   * call is out, new hits wait for its answer and go together in the next one: the busier
   * the process, the more requests a call checks, and never more than one call in flight.
   */
  hit(subject: string, limit: number): Promise<RateDecision> {
    return new Promise((resolve) => {
      this.#queue.push({ key: this.prefix + subject, limit, resolve });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#flushScheduled || this.#inFlight) return;
    this.#flushScheduled = true;
    setImmediate(() => void this.#flush());
  }

  async #flush(): Promise<void> {
    this.#flushScheduled = false;
    this.#inFlight = true;
    try {
      while (this.#queue.length) await this.#send(this.#queue.splice(0, MAX_BATCH));
    } finally {
      this.#inFlight = false;
    }
  }

  async #send(batch: PendingHit[]): Promise<void> {
    try {
      if (this.#redis.status !== 'ready') await this.#connecting;
      const args: (string | number)[] = [batch.length];
      for (const h of batch) args.push(h.key);
      args.push(this.windowMs * 1000);
      for (const h of batch) args.push(h.limit, `${this.#token}.${++this.#sequence}`);
      // defineCommand adds the method at run time; ioredis cannot type it.
      const redis = this.#redis as Redis & { slidingHits(...args: (string | number)[]): Promise<number[]> };
      const out = await redis.slidingHits(...args);
      batch.forEach((h, i) => {
        const [ok, remaining, waitUs] = [out[3 * i], out[3 * i + 1], out[3 * i + 2]];
        h.resolve(
          ok === 1
            ? { allowed: true, limit: h.limit, remaining, retryAfter: 0 }
            : { allowed: false, limit: h.limit, remaining: 0, retryAfter: Math.max(1, Math.ceil(waitUs / 1_000_000)) },
        );
      });
    } catch (err) {
      // Fail open: a Redis outage must not take the API down with it. The requests are
      // served and logged; the limit resumes when Redis answers again (docs/decisions.md, "Rate limits").
      this.onError(err);
      for (const h of batch) h.resolve({ allowed: true, limit: h.limit, remaining: h.limit, retryAfter: 0 });
    }
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }
}
