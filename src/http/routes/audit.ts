import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import { ctxOf } from '../request.js';
import * as schemas from '../../modules/audit/schema.js';
import { listAudit } from '../../modules/audit/service.js';

/** The team's audit log (issue 17; admin; Envelope A). */
export default async function auditRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/team/audit',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'listAuditEvents',
        tags: ['team'],
        summary: "The team's audit log, newest first: every write of a person or key (kept 400 days)",
        querystring: schemas.AuditQuery,
        response: { 200: schemas.AuditPageEnvelope, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (req) => successEnvelope(await listAudit(ctxOf(req), req.query)),
  );
}
