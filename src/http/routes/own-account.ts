import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import { ctxOf, servicesOf } from '../request.js';
import { limitSignIn } from '../session-cookie.js';
import { recordAudit, recordAuditForUser } from '../../modules/audit/service.js';
import * as schemas from '../../modules/team/schema.js';
import { acceptInvitation } from '../../modules/team/invitations.js';
import { changePassword, resetPassword } from '../../modules/team/passwords.js';

/** A person's own account: accept an invitation, change or reset the password (issue 17). */
export default async function ownAccountRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['account'];

  app.post(
    '/account/invitations/:token/accept',
    {
      config: { auth: 'public' },
      schema: {
        operationId: 'acceptInvitation',
        tags,
        summary: 'Accept an invitation (no key): creates the user or adds an existing one to the team, once',
        security: [],
        params: schemas.TokenParams,
        body: schemas.AcceptBody,
        response: { 200: schemas.AcceptedEnvelope, ...errorResponses(400, 404, 409, 429) },
      },
    },
    async (req) => {
      // Guessing tokens runs into the sign-in limit of the address as well as the general one.
      await limitSignIn(req);
      const ctx = servicesOf(req);
      const done = await acceptInvitation(ctx, req.params.token, req.body ?? {});
      // Logged here, not by the write hook: the URL holds the token and the call has no key.
      await recordAudit(ctx, {
        teamId: done.result.team_id,
        actorUserId: done.result.user_id,
        action: 'invitation.accept',
        targetType: 'invitation',
        targetId: done.invitation_id,
        ip: req.ip,
        requestId: req.id,
      });
      return successEnvelope(done.result);
    },
  );

  app.post(
    '/account/password',
    {
      config: { audit: { action: 'password.change', targetType: 'user' } },
      schema: {
        operationId: 'changePassword',
        tags,
        summary: "Change the signed-in person's password (the current one is required); their other sessions end",
        body: schemas.ChangePasswordBody,
        response: { 200: schemas.PasswordChangedEnvelope, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (req) => successEnvelope(await changePassword(ctxOf(req), req.body, req.session?.id ?? null)),
  );

  app.post(
    '/account/password/reset',
    {
      config: { auth: 'public' },
      schema: {
        operationId: 'resetPassword',
        tags,
        summary: "Set a new password with an operator's one-time reset link (no key); every session of the user ends",
        security: [],
        body: schemas.ResetPasswordBody,
        response: { 200: schemas.PasswordChangedEnvelope, ...errorResponses(400, 429) },
      },
    },
    async (req) => {
      await limitSignIn(req);
      const ctx = servicesOf(req);
      const done = await resetPassword(ctx, req.body);
      await recordAuditForUser(ctx, done.userId, { actorUserId: done.userId, action: 'password.reset', targetType: 'user', targetId: done.userId, ip: req.ip, requestId: req.id });
      return successEnvelope(done.result);
    },
  );
}
