export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one. */
  remaining: number;
  /** Whole seconds until a request would pass again (0 when allowed). */
  retryAfter: number;
}

/**
 * Sliding-window log: a request passes when fewer than `limit` requests of the same
 * subject passed in the last `windowMs`. Refused requests do not count, so a client
 * that backs off gets through as soon as its oldest request ages out.
 */
export interface RateLimiter {
  hit(subject: string, limit: number): Promise<RateDecision>;
  close(): Promise<void>;
}
