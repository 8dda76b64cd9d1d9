import type { FastifyRequest } from 'fastify';
import type { AppContext, RequestContext } from '../context';
import { Unauthorized } from './errors';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

/** The service context of an authenticated request. */
export function ctxOf(req: FastifyRequest): RequestContext {
  if (!req.auth) throw new Unauthorized('Missing X-API-Key header');
  return { ...req.server.ctx, auth: req.auth, log: req.log };
}
