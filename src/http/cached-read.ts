import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../context.js';
import { utcDay } from '../lib/time.js';
import { requireProject } from '../modules/projects/service.js';
import { ctxOf } from './request.js';

/**
 * A project's GET answered from the cache, or computed, serialized by the route's schema
 * and cached. The ownership check comes first, so a cached body never reaches another
 * team; the key holds the URL as sent and today's UTC date (default windows end today).
 *
 * `compute` gets the caller's context with the project's reads routed (ctx.reads): to the
 * read replica only when it holds the project's analytics version read here on the primary
 * or a newer one (ReadRouter in src/store/types.ts, docs/replicas.md). So a body is never
 * older than the version it is filed under: a lagging replica cannot fill the cache with
 * figures the version has moved past.
 */
export async function cachedRead<T>(req: FastifyRequest, reply: FastifyReply, projectId: string, compute: (ctx: RequestContext) => Promise<T>): Promise<T> {
  const ctx = ctxOf(req);
  const cache = req.server.http.readCache;
  const router = ctx.readRouter;
  if (!cache.enabled && !router.replicated) return compute(ctx);
  await requireProject(ctx, projectId);
  const version = await router.version(projectId);
  const routed = async () => compute({ ...ctx, reads: await router.readerAt(projectId, version) });
  if (!cache.enabled) return routed();
  const key = `${utcDay()} ${req.url}`;
  let body = cache.get(key, version);
  if (body === undefined) {
    cache.misses++;
    body = reply.serialize(await routed()) as string | Buffer;
    cache.set(key, version, body);
  } else {
    cache.hits++;
  }
  // A string or bytes with a JSON content type go out as they are (no second serialization);
  // typed as the route's payload, which they are, serialized.
  reply.type('application/json; charset=utf-8');
  return body as unknown as T;
}
