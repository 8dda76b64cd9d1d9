import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import { ctxOf } from '../request.js';
import * as schemas from '../../modules/team/schema.js';
import * as invitations from '../../modules/team/invitations.js';
import * as members from '../../modules/team/members.js';

/** Team, members and invitations (issue 17; extensions, Envelope A). */
export default async function teamRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['team'];

  app.get(
    '/team',
    { schema: { operationId: 'getTeam', tags, summary: 'The team: plan, credits, tier, member count', response: { 200: schemas.TeamEnvelope, ...errorResponses(401, 429) } } },
    async (req) => successEnvelope(await members.getTeam(ctxOf(req))),
  );

  app.get(
    '/team/members',
    { schema: { operationId: 'listTeamMembers', tags, summary: "The team's members and their roles", response: { 200: schemas.MemberListEnvelope, ...errorResponses(401, 429) } } },
    async (req) => successEnvelope(await members.listMembers(ctxOf(req))),
  );

  app.patch(
    '/team/members/:user_id',
    {
      config: { scope: 'admin', audit: { action: 'member.role_change', targetType: 'user' } },
      schema: {
        operationId: 'updateTeamMember',
        tags,
        summary: "Change a member's role; the last admin cannot be demoted (409)",
        params: schemas.MemberParams,
        body: schemas.PatchMemberBody,
        response: { 200: schemas.MemberEnvelope, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => successEnvelope(await members.setMemberRole(ctxOf(req), req.params.user_id, req.body.role)),
  );

  app.delete(
    '/team/members/:user_id',
    {
      config: { scope: 'admin', audit: { action: 'member.remove', targetType: 'user' } },
      schema: {
        operationId: 'removeTeamMember',
        tags,
        summary: 'Remove a member (their sessions end at once; keys they made stay); the last admin cannot be removed (409)',
        params: schemas.MemberParams,
        response: { 200: schemas.MemberRemovedEnvelope, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => successEnvelope(await members.removeMember(ctxOf(req), req.params.user_id)),
  );

  app.get(
    '/team/invitations',
    { config: { scope: 'admin' }, schema: { operationId: 'listInvitations', tags, summary: 'Pending invitations', response: { 200: schemas.InvitationListEnvelope, ...errorResponses(401, 403, 429) } } },
    async (req) => successEnvelope(await invitations.listInvitations(ctxOf(req))),
  );

  app.post(
    '/team/invitations',
    {
      config: { scope: 'admin', audit: { action: 'invitation.create', targetType: 'invitation' } },
      schema: {
        operationId: 'createInvitation',
        tags,
        summary: 'Invite a person by email with a role: a single-use link valid 7 days (mailed when SMTP is set up)',
        body: schemas.CreateInvitationBody,
        response: { 201: schemas.InvitationCreatedEnvelope, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (req, reply) => reply.status(201).send(successEnvelope(await invitations.createInvitation(ctxOf(req), req.body))),
  );

  app.delete(
    '/team/invitations/:invitation_id',
    {
      config: { scope: 'admin', audit: { action: 'invitation.revoke', targetType: 'invitation' } },
      schema: {
        operationId: 'revokeInvitation',
        tags,
        summary: 'Revoke a pending invitation',
        params: schemas.InvitationParams,
        response: { 200: schemas.InvitationRevokedEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => successEnvelope(await invitations.revokeInvitation(ctxOf(req), req.params.invitation_id)),
  );
}
