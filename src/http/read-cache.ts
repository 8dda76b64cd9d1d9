/**
 * Serialized analytics responses, per process, valid for one analytics version of their
 * project. Triggers raise a project's version in every transaction that changes what its
 * analytics show (migration 0005, src/store/analytics-version.ts: answers, prompts,
 * topics, competitors, the project), so
 * a cached body is served only while nothing it was computed from has changed; every
 * request still reads the version (one indexed row), so another process's change is seen
 * at once. Least recently used bodies go first past `maxBytes` (READ_CACHE_MB; 0: off).
 */
export class ReadCache {
  readonly #entries = new Map<string, { version: number; body: string | Buffer }>();
  #bytes = 0;
  /** Bodies served from the cache and computed, since the process started. */
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  get(key: string, version: number): string | Buffer | undefined {
    const e = this.#entries.get(key);
    if (!e) return undefined;
    this.#entries.delete(key);
    if (e.version !== version) {
      this.#bytes -= e.body.length;
      return undefined;
    }
    this.#entries.set(key, e); // most recently used last
    return e.body;
  }

  set(key: string, version: number, body: string | Buffer): void {
    if (body.length > this.maxBytes / 4) return; // one body never crowds out the rest
    const old = this.#entries.get(key);
    if (old) {
      this.#entries.delete(key);
      this.#bytes -= old.body.length;
    }
    this.#entries.set(key, { version, body });
    this.#bytes += body.length;
    for (const [k, e] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(k);
      this.#bytes -= e.body.length;
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
