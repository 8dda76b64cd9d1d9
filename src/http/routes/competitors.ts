import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, statusEnvelope, errorResponses } from '../../lib/envelope.js';
import { ctxOf } from '../request.js';
import { cachedRead } from '../cached-read.js';
import { ProjectParams } from '../../modules/common.js';
import { competitorsWithMetrics } from '../../modules/competitors/metrics.js';
import { resolveWindow, WindowQuery } from '../../modules/analytics/window.js';
import * as schemas from '../../modules/competitors/schema.js';
import * as competitors from '../../modules/competitors/service.js';
import { competitorSuggestions } from '../../modules/competitors/suggestions.js';

export default async function competitorRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['competitors'];

  app.get(
    '/projects/:project_id/competitors',
    {
      schema: {
        operationId: 'listCompetitors',
        tags,
        summary: "Active competitors, own brand first, with the window's metrics",
        params: ProjectParams,
        querystring: WindowQuery,
        response: { 200: schemas.CompetitorListEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req, reply) => {
      const w = resolveWindow(req.query);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await competitorsWithMetrics(ctx, req.params.project_id, w)));
    },
  );

  app.get(
    '/projects/:project_id/competitors/suggestions',
    {
      schema: {
        operationId: 'suggestCompetitors',
        tags,
        summary: 'Brands that recur in the answers of the window and are not tracked, most named first (extension)',
        params: ProjectParams,
        querystring: schemas.SuggestionsQuery,
        response: { 200: schemas.CompetitorSuggestionsEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req, reply) => {
      const { limit, ...window } = req.query;
      const w = resolveWindow(window);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await competitorSuggestions(ctx, req.params.project_id, w, limit)));
    },
  );

  app.post(
    '/projects/:project_id/competitors',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'addCompetitors',
        tags,
        summary: 'Add 1 to 20 competitors',
        params: ProjectParams,
        body: schemas.CreateCompetitorsBody,
        response: { 200: schemas.CompetitorsCreatedEnvelope, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => statusEnvelope(await competitors.createCompetitors(ctxOf(req), req.params.project_id, req.body)),
  );

  app.patch(
    '/projects/:project_id/competitors/:competitor_id',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'updateCompetitor',
        tags,
        summary: "Change a competitor's name, website or aliases",
        params: schemas.CompetitorParams,
        body: schemas.PatchCompetitorBody,
        response: { 200: schemas.CompetitorEnvelope, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => successEnvelope(await competitors.updateCompetitor(ctxOf(req), req.params.project_id, req.params.competitor_id, req.body)),
  );

  app.delete(
    '/projects/:project_id/competitors/:competitor_id',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'removeCompetitor',
        tags,
        summary: 'Delete a competitor',
        params: schemas.CompetitorParams,
        response: { 200: schemas.CompetitorDeletedEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => statusEnvelope(await competitors.deleteCompetitor(ctxOf(req), req.params.project_id, req.params.competitor_id)),
  );
}
