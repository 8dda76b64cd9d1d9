import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ctxOf } from '../request.js';
import { ProjectParams } from '../../modules/common.js';
import { successEnvelope, successEnvelopeSchema, errorResponses } from '../../lib/envelope.js';
import * as schemas from '../../modules/site-audit/schema.js';
import { latestAudit, startAudit } from '../../modules/site-audit/service.js';

export default async function siteAuditRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['site-audit'];

  app.post(
    '/projects/:project_id/site-audit',
    {
      config: { scope: 'admin' },
      schema: {
        tags,
        operationId: 'startSiteAudit',
        summary: "Audit the project's website as AI agents see it (runs in the background; one at a time per project)",
        params: ProjectParams,
        response: { 202: successEnvelopeSchema(schemas.AuditStarted), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req, reply) => reply.status(202).send(successEnvelope(await startAudit(ctxOf(req), req.params.project_id))),
  );

  app.get(
    '/projects/:project_id/site-audit',
    {
      schema: {
        tags,
        operationId: 'getSiteAudit',
        summary: 'The latest site audit: pages, findings and the difference from the last completed run',
        params: ProjectParams,
        response: { 200: successEnvelopeSchema(schemas.SiteAudit), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => successEnvelope(await latestAudit(ctxOf(req), req.params.project_id)),
  );
}
