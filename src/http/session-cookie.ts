import type { FastifyReply, FastifyRequest } from 'fastify';
import { LimitReached } from '../lib/errors.js';

/** The dashboard's session cookie: HttpOnly, SameSite=Strict, Secure when the request came over TLS. */
export const SESSION_COOKIE = 'sightline_session';
/** Sign-in attempts per client address per rate-limit window (a minute by default). */
export const SIGN_IN_LIMIT = 10;

export interface SessionAuth {
  id: string;
  token: string;
  email: string | null;
  expiresAt: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request was authenticated by the session cookie (not by X-API-Key). */
    session: SessionAuth | null;
  }
}

function cookieOptions(req: FastifyRequest) {
  // req.protocol honours X-Forwarded-Proto only from a trusted proxy (TRUST_PROXY).
  return { path: '/', httpOnly: true, sameSite: 'strict' as const, secure: req.protocol === 'https' };
}

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string, expires: Date): void {
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(req), expires });
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(req));
}

/** Password guessing costs a minute per SIGN_IN_LIMIT tries from one address. */
export async function limitSignIn(req: FastifyRequest): Promise<void> {
  const d = await req.server.http.limiter.hit(`signin:${req.ip}`, SIGN_IN_LIMIT);
  if (!d.allowed) {
    throw new LimitReached(`Too many sign-in attempts. Retry after ${d.retryAfter} seconds.`, 'rate_limited', {
      'retry-after': String(d.retryAfter),
    });
  }
}
