import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import { cachedRead } from '../cached-read.js';
import { ProjectParams } from '../../modules/common.js';
import * as schemas from '../../modules/themes/schema.js';
import { listThemes, resolveThemesWindow } from '../../modules/themes/service.js';

export default async function themeRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/projects/:project_id/themes',
    {
      schema: {
        operationId: 'listThemes',
        tags: ['themes'],
        summary: "What the answers say about a brand, by theme (price, ease of use, support…), with counts by sentiment and examples",
        params: ProjectParams,
        querystring: schemas.ThemesQuery,
        response: { 200: schemas.ThemesEnvelope, ...errorResponses(400, 401, 403, 404, 414, 429) },
      },
    },
    async (req, reply) => {
      const w = resolveThemesWindow(req.query);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await listThemes(ctx, req.params.project_id, w)));
    },
  );
}
