import type { FastifyReply, FastifyRequest } from 'fastify';
import { utcDay } from '../lib/time';
import { requireProject } from '../modules/projects/service';
import { analyticsVersion } from '../store/analytics-version';
import { ctxOf } from './request';

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
  readonly #entries = new Map<string, { version: number; body: string }>();
  #bytes = 0;
  /** Bodies served from the cache and computed, since the process started. */
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  get(key: string, version: number): string | undefined {
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

  set(key: string, version: number, body: string): void {
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

/**
 * A project's GET answered from the cache, or computed, serialized by the route's schema
 * and cached. The ownership check comes first, so a cached body never reaches another
 * team; the key holds the URL as sent and today's UTC date (default windows end today).
 */
export async function cachedRead<T>(req: FastifyRequest, reply: FastifyReply, projectId: string, compute: () => Promise<T>): Promise<T> {
  const ctx = ctxOf(req);
  const cache = ctx.readCache;
  if (!cache.enabled) return compute();
  await requireProject(ctx, projectId);
  const version = await analyticsVersion(ctx.store, projectId);
  const key = `${utcDay()} ${req.url}`;
  let body = cache.get(key, version);
  if (body === undefined) {
    cache.misses++;
    body = reply.serialize(await compute()) as string;
    cache.set(key, version, body);
  } else {
    cache.hits++;
  }
  // A string with a JSON content type goes out as it is (no second serialization); typed
  // as the route's payload, which it is, serialized.
  reply.type('application/json; charset=utf-8');
  return body as unknown as T;
}
