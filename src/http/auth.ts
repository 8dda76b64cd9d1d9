import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthInfo } from '../context.js';
import { hashApiKey } from '../lib/crypto.js';
import { planOf } from '../lib/plans.js';
import { Forbidden, LimitReached, NotFound, Unauthorized } from '../lib/errors.js';
import type { KeyRecord } from './auth-cache.js';
import type { HttpContext } from './context.js';
import { TIER_LIMITS, type RateDecision } from './rate-limit/index.js';
import { SESSION_COOKIE } from './session-cookie.js';
import { csrfTokenOf, findSession } from '../modules/sessions/service.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type AuthMode = 'key' | 'public' | 'operator' | 'key_or_report';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthInfo | null;
  }
  interface FastifyContextConfig {
    /**
     * 'key' (default): X-API-Key; 'public': none, limited per client address; 'operator': ADMIN_TOKEN;
     * 'key_or_report': a key, or a shared report's `?token=` that the route itself checks (read-only, one project).
     */
    auth?: AuthMode;
    /** 'admin': a viewer key gets 403 before the body is even validated. */
    scope?: 'admin';
    /** The route checks the text rule itself (MCP: per tool call, as a tool error). */
    ownTextRule?: boolean;
  }
}

export function setRateHeaders(reply: FastifyReply, d: RateDecision, credits: number): void {
  reply.header('x-ratelimit-limit', d.limit);
  reply.header('x-ratelimit-remaining', d.remaining);
  reply.header('x-credit-available', credits);
  if (!d.allowed) reply.header('retry-after', d.retryAfter);
}

export function tooMany(d: RateDecision): LimitReached {
  return new LimitReached(`Rate limit exceeded. Retry after ${d.retryAfter} seconds.`);
}

function safeEqual(a: string, b: string): boolean {
  const x = crypto.createHash('sha256').update(a).digest();
  const y = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(x, y);
}

/** Limits a request without a valid key by its client address (standard tier unless told). */
export async function limitByAddress(ctx: HttpContext, req: FastifyRequest, reply: FastifyReply, limit = TIER_LIMITS.standard): Promise<void> {
  const d = await ctx.limiter.hit(`ip:${req.ip}`, limit);
  setRateHeaders(reply, d, 0);
  if (!d.allowed) throw tooMany(d);
}

/** One request on the key's window (its team's tier); the caller decides what a refusal does. */
export async function hitKey(ctx: HttpContext, record: KeyRecord): Promise<{ decision: RateDecision; credits: number }> {
  const decision = await ctx.limiter.hit(`key:${record.keyId}`, TIER_LIMITS[record.tier] ?? TIER_LIMITS.standard);
  return { decision, credits: Math.max(0, planOf(record.plan).credits - record.creditsUsed) };
}

/** The key's record, or a 401 (limited by address first); inactive and expired keys are refused. */
export async function lookupKey(ctx: HttpContext, req: FastifyRequest, reply: FastifyReply, key: string | undefined, missing: string): Promise<KeyRecord> {
  if (!key) {
    await limitByAddress(ctx, req, reply);
    throw new Unauthorized(missing);
  }
  const record = key.length <= 200 ? await ctx.authCache.lookup(hashApiKey(key.trim())) : null;
  if (!record) {
    await limitByAddress(ctx, req, reply);
    throw new Unauthorized('Invalid API key');
  }
  return record;
}

export const authInfoOf = (record: KeyRecord): AuthInfo => ({
  keyId: record.keyId,
  teamId: record.teamId,
  scope: record.scope,
  tier: record.tier,
  plan: record.plan,
});

/**
 * A key checked and counted as one request of its window: the REST path of every /v1
 * call. The limit is hit before the key's state is checked, so an inactive key's 401
 * carries the limit headers too.
 */
async function authenticateKey(ctx: HttpContext, req: FastifyRequest, reply: FastifyReply, key: string | undefined, missing: string): Promise<AuthInfo> {
  const record = await lookupKey(ctx, req, reply, key, missing);
  const { decision: d, credits } = await hitKey(ctx, record);
  setRateHeaders(reply, d, credits);
  checkKeyState(record);
  if (!d.allowed) throw tooMany(d);
  return authInfoOf(record);
}

export function checkKeyState(record: KeyRecord): void {
  if (!record.isActive) throw new Unauthorized('API key is inactive');
  if (record.expiresAt <= Date.now()) throw new Unauthorized('API key has expired');
}

/** The 403 of a write with a read-only key (REST and MCP say the same). */
export const READ_ONLY_DETAIL = 'This API key is read-only; an admin key is required for this operation';

/**
 * Authentication and rate limiting for everything under /v1 (spec sections 5 and 8):
 * a valid key is limited per key by its team's tier; everything else (the account
 * endpoints, failed authentication, unknown routes) per client address, standard tier.
 * The limit headers go on every response, errors included.
 */
export function registerAuth(app: FastifyInstance, ctx: HttpContext): void {
  const { config } = ctx.services;
  app.decorateRequest('auth', null);
  app.decorateRequest('session', null);

  /** A dashboard request: the session cookie stands for its key, and every write carries the CSRF token. */
  const authBySession = async (req: FastifyRequest, reply: FastifyReply, token: string) => {
    const record = token.length <= 200 ? await findSession(ctx.services, token) : null;
    if (!record) {
      await limitByAddress(ctx, req, reply);
      throw new Unauthorized('Invalid session: sign in again');
    }
    // Each signed-in session has its own window (DASHBOARD_RATE_LIMIT): a page makes several
    // reads at once, and people browsing together must not starve each other or the team's
    // API key, which keeps the contract's per-key limits for its own clients.
    const d = await ctx.limiter.hit(`session:${record.sessionId}`, config.dashboardRateLimit);
    setRateHeaders(reply, d, Math.max(0, planOf(record.plan).credits - record.creditsUsed));
    if (record.revoked) throw new Unauthorized('This session was signed out: sign in again');
    if (record.expiresAt <= Date.now()) throw new Unauthorized('This session has expired: sign in again');
    if (!record.isActive) throw new Unauthorized("This session's API key is inactive: sign in again");
    if (!d.allowed) throw tooMany(d);
    if (!SAFE_METHODS.has(req.method)) {
      const raw = req.headers['x-csrf-token'];
      const sent = Array.isArray(raw) ? raw[0] : raw;
      if (!sent || !safeEqual(sent, csrfTokenOf(token))) {
        throw new Forbidden('A write made with the session cookie needs its X-CSRF-Token header', 'csrf_failed');
      }
    }
    req.auth = { keyId: record.keyId, teamId: record.teamId, scope: record.scope, tier: record.tier, plan: record.plan, userId: record.userId, email: record.email };
    req.session = { id: record.sessionId, token, email: record.email, expiresAt: record.expiresAt };
  };

  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/v1/') && req.url !== '/v1') return;
    const mode: AuthMode = req.is404 ? 'public' : (req.routeOptions.config.auth ?? 'key');

    if (mode === 'public') return limitByAddress(ctx, req, reply);
    if (mode === 'key_or_report' && !req.headers['x-api-key'] && typeof (req.query as { token?: unknown })?.token === 'string') {
      return limitByAddress(ctx, req, reply);
    }

    if (mode === 'operator') {
      // Limited (and the limit headers set) first: every response carries them, this 404 too.
      await limitByAddress(ctx, req, reply, TIER_LIMITS.premium);
      if (!config.adminToken) throw new NotFound('The operator API is off (ADMIN_TOKEN is not set)');
      const header = req.headers.authorization ?? '';
      const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (!token || !safeEqual(token, config.adminToken)) throw new Unauthorized('Invalid operator token');
      return;
    }

    const raw = req.headers['x-api-key'];
    const key = Array.isArray(raw) ? raw[0] : raw;
    // X-API-Key wins; without it, the dashboard's session cookie (with CSRF on writes).
    const cookie = req.cookies?.[SESSION_COOKIE];
    if (!key && cookie) return authBySession(req, reply, cookie);
    req.auth = await authenticateKey(ctx, req, reply, key, 'Missing X-API-Key header');
  });

  app.addHook('preValidation', async (req) => {
    if (req.routeOptions.config?.scope === 'admin' && req.auth && req.auth.scope !== 'admin') {
      throw new Forbidden(READ_ONLY_DETAIL, 'read_only_key');
    }
  });
}
