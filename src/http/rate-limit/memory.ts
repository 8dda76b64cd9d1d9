import type { RateDecision, RateLimiter } from './types.js';

/** One process: timestamps of passed requests per subject, oldest first. */
export class MemoryRateLimiter implements RateLimiter {
  readonly #windows = new Map<string, number[]>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    // Forget subjects idle for a whole window, so memory follows active keys only.
    this.#sweeper = setInterval(() => this.#sweep(), Math.max(windowMs, 1000));
    this.#sweeper.unref();
  }

  async hit(subject: string, limit: number): Promise<RateDecision> {
    const now = this.now();
    let log = this.#windows.get(subject);
    if (!log) this.#windows.set(subject, (log = []));
    const cutoff = now - this.windowMs;
    let expired = 0;
    while (expired < log.length && log[expired] <= cutoff) expired++;
    if (expired) log.splice(0, expired);
    if (log.length < limit) {
      log.push(now);
      return { allowed: true, limit, remaining: limit - log.length, retryAfter: 0 };
    }
    const retryAfter = Math.max(1, Math.ceil((log[log.length - limit] + this.windowMs - now) / 1000));
    return { allowed: false, limit, remaining: 0, retryAfter };
  }

  #sweep(): void {
    const cutoff = this.now() - this.windowMs;
    for (const [subject, log] of this.#windows) {
      if (log.length === 0 || log[log.length - 1] <= cutoff) this.#windows.delete(subject);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    this.#windows.clear();
  }
}
