import type { FastifyReply, FastifyRequest } from 'fastify';
import { utcDay } from '../lib/time.js';
import { requireProject } from '../modules/projects/service.js';
import { analyticsVersion } from '../store/analytics-version.js';
import { ctxOf } from './request.js';

/**
 * A project's GET answered from the cache, or computed, serialized by the route's schema
 * and cached. The ownership check comes first, so a cached body never reaches another
 * team; the key holds the URL as sent and today's UTC date (default windows end today).
 */
export async function cachedRead<T>(req: FastifyRequest, reply: FastifyReply, projectId: string, compute: () => Promise<T>): Promise<T> {
  const ctx = ctxOf(req);
  const cache = req.server.http.readCache;
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
