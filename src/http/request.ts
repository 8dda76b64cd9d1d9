import type { FastifyRequest } from 'fastify';
import type { RequestContext, ServiceContext } from '../context.js';
import { Unauthorized } from '../lib/errors.js';
import type { HttpContext } from './context.js';

declare module 'fastify' {
  interface FastifyInstance {
    http: HttpContext;
  }
}

/** The service context for a call that needs no caller (account and operator routes). */
export function servicesOf(req: FastifyRequest): ServiceContext {
  return { ...req.server.http.services, log: req.log };
}

/** The service context of an authenticated request. */
export function ctxOf(req: FastifyRequest): RequestContext {
  if (!req.auth) throw new Unauthorized('Missing X-API-Key header');
  return { ...req.server.http.services, auth: req.auth, log: req.log };
}
