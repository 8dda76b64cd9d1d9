import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { limitByAddress, tooMany } from '../http/auth.js';
import { servicesOf } from '../http/request.js';
import { SESSION_COOKIE } from '../http/session-cookie.js';
import { Invalid, Unauthorized } from '../lib/errors.js';
import { cachedFavicon, FAVICON_TTL_MS, faviconDomain, fetchFavicon, type Favicon } from '../modules/favicons/service.js';
import { findSession } from '../modules/sessions/service.js';

// GET /favicons/{domain}: a brand's icon, fetched by the server from the brand's site and
// kept for a day (src/modules/favicons), for the dashboard's <img> tags (docs/dashboard.md,
// "Brand icons"). Same origin, so the CSP stays `img-src 'self' data:` and viewers' browsers
// never call the brand's site. Signed-in dashboard sessions only: the session cookie is
// SameSite=Strict, so no other site can use the proxy through a visitor's browser either.

/** Searches (cache misses) per team and rate-limit window: each may cost the brand's site a few requests. */
export const FAVICON_FETCHES_PER_WINDOW = 60;

/** The session behind the cookie, or a 401 (counted against the client address, as the API's are). */
async function signedIn(req: FastifyRequest, reply: FastifyReply): Promise<{ sessionId: string; teamId: string }> {
  const token = req.cookies?.[SESSION_COOKIE];
  const record = token && token.length <= 200 ? await findSession(servicesOf(req), token) : null;
  if (!record || record.revoked || record.expiresAt <= Date.now() || !record.isActive) {
    await limitByAddress(req.server.http, req, reply);
    throw new Unauthorized('Sign in to the dashboard to see brand icons');
  }
  return { sessionId: record.sessionId, teamId: record.teamId };
}

function sendIcon(req: FastifyRequest, reply: FastifyReply, icon: Favicon) {
  const left = Math.max(60, Math.round((icon.fetchedAt.getTime() + FAVICON_TTL_MS - Date.now()) / 1000));
  reply.header('cache-control', `private, max-age=${left}`);
  if (!icon.body || !icon.contentType || !icon.etag) {
    // The negative entry: the browser keeps the 404 as long as the store does, and the page draws its fallback.
    return reply.status(404).send({ detail: `No icon found for ${icon.domain}`, code: 'not_found', request_id: req.id });
  }
  reply.header('etag', icon.etag);
  if (String(req.headers['if-none-match'] ?? '').split(/\s*,\s*/).includes(icon.etag)) return reply.status(304).send();
  return reply.type(icon.contentType).send(icon.body);
}

export function registerFavicons(web: FastifyInstance): void {
  web.get<{ Params: { domain: string } }>('/favicons/:domain', { schema: { hide: true } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const { sessionId, teamId } = await signedIn(req, reply);
    const { limiter } = req.server.http;
    const d = await limiter.hit(`favicon:${sessionId}`, req.server.http.services.config.dashboardRateLimit);
    if (!d.allowed) {
      reply.header('retry-after', d.retryAfter);
      throw tooMany(d);
    }
    const domain = faviconDomain(req.params.domain);
    if (!domain) throw new Invalid('domain must be a host name such as example.com (no scheme, port or path)');
    const ctx = servicesOf(req);
    const cached = await cachedFavicon(ctx, domain);
    if (cached) return sendIcon(req, reply, cached);
    const f = await limiter.hit(`favicon-fetch:${teamId}`, FAVICON_FETCHES_PER_WINDOW);
    if (!f.allowed) {
      reply.header('retry-after', f.retryAfter);
      throw tooMany(f);
    }
    return sendIcon(req, reply, await fetchFavicon(ctx, domain));
  });
}
