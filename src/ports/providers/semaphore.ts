/** A counting semaphore: at most `limit` holders at once, the rest wait in order. */
export class Semaphore {
  private holders = 0;
  private readonly queue: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`Semaphore limit must be a positive integer, got ${limit}`);
  }

  get active(): number {
    return this.holders;
  }

  get waiting(): number {
    return this.queue.length;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.holders < this.limit) {
      this.holders++;
      return Promise.resolve();
    }
    // The releasing holder hands its place over directly, so `holders` never dips and refills.
    return new Promise((resolve) => this.queue.push(resolve));
  }

  private release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.holders--;
  }
}
