/**
 * A small per-process cache whose entries are trusted for `ttlMs` (0 disables it).
 * Bounded: past `max` entries it starts over rather than growing without limit.
 */
export class TtlCache<V> {
  readonly #entries = new Map<string, { value: V; until: number }>();

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

  set(key: string, value: V): void {
    if (this.ttlMs <= 0) return;
    if (this.#entries.size >= this.max) this.#entries.clear();
    this.#entries.set(key, { value, until: Date.now() + this.ttlMs });
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
