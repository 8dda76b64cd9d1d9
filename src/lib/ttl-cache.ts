/**
 * A small per-process cache whose entries are trusted for `ttlMs` (0 disables it).
 * Bounded: past `max` entries it starts over rather than growing without limit.
 */
export class TtlCache<V> {
  readonly #entries = new Map<string, { value: V; until: number }>();
  #forgets = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly max = 50_000,
  ) {}

  get(key: string): V | undefined {
    const e = this.#entries.get(key);
    if (!e) return undefined;
    if (e.until > Date.now()) return e.value;
    this.#entries.delete(key);
    return undefined;
  }

  /**
   * Counts deletions and clears: a reader takes it before reading the store and passes it
   * to set, so a value read before a change that was forgotten meanwhile is not kept.
   */
  get version(): number {
    return this.#forgets;
  }

  set(key: string, value: V, readAtVersion?: number): void {
    if (this.ttlMs <= 0) return;
    if (readAtVersion !== undefined && readAtVersion !== this.#forgets) return;
    if (this.#entries.size >= this.max) this.#entries.clear();
    this.#entries.set(key, { value, until: Date.now() + this.ttlMs });
  }

  delete(key: string): void {
    this.#forgets++;
    this.#entries.delete(key);
  }

  clear(): void {
    this.#forgets++;
    this.#entries.clear();
  }
}
