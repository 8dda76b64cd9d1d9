import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { servicesOf } from '../request.js';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import * as schemas from '../../modules/admin/schema.js';
import * as admin from '../../modules/admin/service.js';
import { providerUsage } from '../../modules/admin/usage.js';

/** The operator API (docs/decisions.md): Bearer ADMIN_TOKEN, off while it is unset. */
export default async function adminRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['operator'];
  const security = [{ Operator: [] }];

  app.get(
    '/admin/teams',
    {
      config: { auth: 'operator' },
      schema: {
        tags,
        security,
        operationId: 'listAdminTeams',
        summary: 'Every team (or the teams of one email) with its plan, credits and members',
        querystring: schemas.TeamsQuery,
        response: { 200: schemas.TeamsEnvelope, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (req) => successEnvelope(await admin.listTeams(servicesOf(req), req.query)),
  );

  app.patch(
    '/admin/teams/:team_id',
    {
      config: { auth: 'operator' },
      schema: {
        operationId: 'adminUpdateTeam',
        tags,
        security,
        summary: "Change a team's plan or rate-limit tier",
        params: schemas.TeamParams,
        body: schemas.PatchTeamBody,
        response: { 200: schemas.TeamEnvelope, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (req) => successEnvelope(await admin.patchTeam(servicesOf(req), req.params.team_id, req.body)),
  );

  app.post(
    '/admin/projects/:project_id/refresh',
    {
      config: { auth: 'operator' },
      schema: {
        operationId: 'adminRefreshProject',
        tags,
        security,
        summary: "Run a project's collection now, as the daily scheduler would",
        params: schemas.AdminProjectParams,
        response: { 200: schemas.RefreshEnvelope, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (req) => successEnvelope(await admin.refreshProject(servicesOf(req), req.params.project_id)),
  );

  app.get(
    '/admin/jobs/:job_id',
    {
      config: { auth: 'operator' },
      schema: { operationId: 'adminGetJob', tags, security, summary: 'Status of a background job', params: schemas.JobParams, response: { 200: schemas.JobEnvelope, ...errorResponses(400, 401, 404, 429) } },
    },
    async (req) => successEnvelope(await admin.getJob(servicesOf(req), req.params.job_id)),
  );

  app.get(
    '/admin/callback-secret',
    {
      config: { auth: 'operator' },
      schema: {
        operationId: 'adminGetCallbackSecret',
        tags,
        security,
        summary: 'The secret that signs bootstrap callbacks (never written to the log)',
        response: { 200: schemas.CallbackSecretEnvelope, ...errorResponses(401, 404, 429) },
      },
    },
    async (req) => successEnvelope(admin.callbackSecret(servicesOf(req))),
  );

  app.get(
    '/admin/usage',
    {
      config: { auth: 'operator' },
      schema: {
        operationId: 'adminGetUsage',
        tags,
        security,
        summary: 'Tokens, searches and stated cost the vendors reported, by provider and UTC day',
        querystring: schemas.UsageQuery,
        response: { 200: schemas.UsageEnvelope, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (req) => successEnvelope(await providerUsage(servicesOf(req), req.query)),
  );
}
