import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import { ctxOf, servicesOf } from '../request.js';
import { NotFound } from '../../lib/errors.js';
import { SIGN_IN_LIMIT, SESSION_COOKIE, clearSessionCookie, limitSignIn, setSessionCookie } from '../session-cookie.js';
import * as schemas from '../../modules/sessions/schema.js';
import * as sessions from '../../modules/sessions/service.js';
import { recordAudit } from '../../modules/audit/service.js';
import { engineModes } from '../../modules/overview/service.js';

function currentSession(req: FastifyRequest) {
  if (!req.session) throw new NotFound('No session: this request was authenticated with an API key, not a session cookie');
  return req.session;
}

/** Dashboard sessions (an extension): sign in, see the session, sign out, and an admin's list. */
export default async function sessionRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['sessions'];

  app.post(
    '/session',
    {
      config: { auth: 'public' },
      schema: {
        operationId: 'signIn',
        tags,
        summary: `Sign in (sets the HttpOnly ${SESSION_COOKIE} cookie); at most ${SIGN_IN_LIMIT} attempts a minute per address`,
        security: [],
        body: schemas.SignInBody,
        response: { 201: schemas.SessionEnvelope, ...errorResponses(400, 401, 429) },
      },
    },
    async (req, reply) => {
      await limitSignIn(req);
      const ctx = servicesOf(req);
      const opened = 'api_key' in req.body ? await sessions.signInWithKey(ctx, req.body) : await sessions.signInWithPassword(ctx, req.body);
      // A sign-in has no key on the request yet, so the write hook cannot see it: logged here.
      await recordAudit(ctx, {
        teamId: opened.session.team_id,
        actorUserId: opened.userId,
        actorKeyId: opened.userId ? null : opened.keyId,
        actorLabel: opened.session.email,
        action: 'session.create',
        targetType: 'session',
        targetId: opened.session.id,
        ip: req.ip,
        requestId: req.id,
      });
      setSessionCookie(req, reply, opened.token, new Date(opened.session.expires_at));
      return reply.status(201).send(successEnvelope({ ...opened.session, engines: engineModes(ctx.config) }));
    },
  );

  app.get(
    '/session',
    { schema: { operationId: 'getSession', tags, summary: 'The current session and its CSRF token', response: { 200: schemas.SessionEnvelope, ...errorResponses(401, 404, 429) } } },
    async (req) => {
      const cur = currentSession(req);
      const auth = ctxOf(req).auth;
      return successEnvelope({
        id: cur.id,
        team_id: auth.teamId,
        scope: auth.scope,
        email: cur.email,
        expires_at: new Date(cur.expiresAt).toISOString(),
        csrf_token: sessions.csrfTokenOf(cur.token),
        engines: engineModes(ctxOf(req).config),
      });
    },
  );

  app.delete(
    '/session',
    { schema: { operationId: 'signOut', tags, summary: 'Sign out: ends the current session and clears its cookie', response: { 200: schemas.RevokedEnvelope, ...errorResponses(401, 403, 404, 429) } } },
    async (req, reply) => {
      const cur = currentSession(req);
      await sessions.revokeSession(ctxOf(req), cur.id);
      clearSessionCookie(req, reply);
      return successEnvelope({ revoked: 1 });
    },
  );

  app.get(
    '/sessions',
    { config: { scope: 'admin' }, schema: { operationId: 'listSessions', tags, summary: "The team's open sessions", response: { 200: schemas.SessionListEnvelope, ...errorResponses(401, 403, 429) } } },
    async (req) => successEnvelope(await sessions.listSessions(ctxOf(req))),
  );

  app.delete(
    '/sessions/:session_id',
    {
      config: { scope: 'admin' },
      schema: { operationId: 'revokeSession', tags, summary: 'End one session of the team', params: schemas.SessionParams, response: { 200: schemas.RevokedEnvelope, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (req) => {
      await sessions.revokeSession(ctxOf(req), req.params.session_id);
      return successEnvelope({ revoked: 1 });
    },
  );

  app.delete(
    '/sessions',
    { config: { scope: 'admin' }, schema: { operationId: 'revokeAllSessions', tags, summary: 'End every open session of the team', response: { 200: schemas.RevokedEnvelope, ...errorResponses(401, 403, 429) } } },
    async (req) => successEnvelope({ revoked: await sessions.revokeTeamSessions(ctxOf(req)) }),
  );
}
