import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import { cachedRead } from '../cached-read.js';
import { PagedWindowQuery } from '../../modules/analytics/schema.js';
import { resolveWindow, WindowQuery } from '../../modules/analytics/window.js';
import { ProjectParams } from '../../modules/common.js';
import * as schemas from '../../modules/sources/schema.js';
import * as sources from '../../modules/sources/service.js';

export default async function sourceRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['sources'];
  const errs = errorResponses(400, 401, 403, 404, 429);

  app.get(
    '/projects/:project_id/sources',
    {
      schema: {
        operationId: 'listSources',
        tags,
        summary: 'Cited domains by citations, a page at a time (fetch until an empty page)',
        params: ProjectParams,
        querystring: PagedWindowQuery,
        response: { 200: schemas.SourceList, ...errs },
      },
    },
    async (req, reply) => {
      const { page, page_size, ...window } = req.query;
      const w = resolveWindow(window);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await sources.listSources(ctx, req.params.project_id, w, page, page_size)));
    },
  );

  app.get(
    '/projects/:project_id/sources/analytics',
    {
      schema: { operationId: 'getSourcesAnalytics', tags, summary: 'Citation stats, categories, top domains, daily shares and opportunities', params: ProjectParams, querystring: WindowQuery, response: { 200: schemas.SourcesAnalytics, ...errs } },
    },
    async (req, reply) => {
      const w = resolveWindow(req.query);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await sources.sourcesAnalytics(ctx, req.params.project_id, w)));
    },
  );
}
