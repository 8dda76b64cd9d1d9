import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, statusEnvelope, errorResponses } from '../../lib/envelope.js';
import { ctxOf } from '../request.js';
import { cachedRead } from '../cached-read.js';
import { ProjectParams } from '../../modules/common.js';
import { competitorsWithMetrics } from '../../modules/competitors/metrics.js';
import { resolveWindow, WindowQuery } from '../../modules/analytics/window.js';
import * as s from '../../modules/competitors/schema.js';
import * as svc from '../../modules/competitors/service.js';
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
        response: { 200: s.CompetitorListEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req, reply) => {
      const w = resolveWindow(req.query);
      return cachedRead(req, reply, req.params.project_id, async () => successEnvelope(await competitorsWithMetrics(ctxOf(req), req.params.project_id, w)));
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
        querystring: s.SuggestionsQuery,
        response: { 200: s.CompetitorSuggestionsEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req, reply) => {
      const { limit, ...window } = req.query;
      const w = resolveWindow(window);
      return cachedRead(req, reply, req.params.project_id, async () => successEnvelope(await competitorSuggestions(ctxOf(req), req.params.project_id, w, limit)));
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
        body: s.CreateCompetitorsBody,
        response: { 200: s.CompetitorsCreatedEnvelope, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => statusEnvelope(await svc.createCompetitors(ctxOf(req), req.params.project_id, req.body)),
  );

  app.patch(
    '/projects/:project_id/competitors/:competitor_id',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'updateCompetitor',
        tags,
        summary: "Change a competitor's name, website or aliases",
        params: s.CompetitorParams,
        body: s.PatchCompetitorBody,
        response: { 200: s.CompetitorEnvelope, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => successEnvelope(await svc.updateCompetitor(ctxOf(req), req.params.project_id, req.params.competitor_id, req.body)),
  );

  app.delete(
    '/projects/:project_id/competitors/:competitor_id',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'removeCompetitor',
        tags,
        summary: 'Delete a competitor',
        params: s.CompetitorParams,
        response: { 200: s.CompetitorDeletedEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => statusEnvelope(await svc.deleteCompetitor(ctxOf(req), req.params.project_id, req.params.competitor_id)),
  );
}
