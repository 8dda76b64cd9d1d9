import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { cachedRead } from '../cached-read.js';
import { resolveWindow, WindowQuery } from '../../modules/analytics/window.js';
import { ProjectParams } from '../../modules/common.js';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import * as schemas from '../../modules/overview/schema.js';
import { overviewSummary } from '../../modules/overview/service.js';

/** The dashboard overview's aggregate read (extension): one request instead of two plus one per engine. */
export default async function overviewRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/projects/:project_id/overview/summary',
    {
      schema: {
        tags: ['analytics'],
        operationId: 'getOverviewSummary',
        summary: "The window's and the previous window's competitor tables and the own brand per engine, in one read (extension)",
        params: ProjectParams,
        querystring: WindowQuery,
        response: { 200: schemas.OverviewSummaryEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req, reply) => {
      const w = resolveWindow(req.query);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await overviewSummary(ctx, req.params.project_id, w)));
    },
  );
}
