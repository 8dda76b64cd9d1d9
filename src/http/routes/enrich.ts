import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { successEnvelope, successEnvelopeSchema, errorResponses } from '../../lib/envelope.js';
import { ctxOf } from '../request.js';
import { Uuid } from '../../modules/common.js';
import { enrichContent, enrichForum } from '../../modules/actions/enrich-content.js';
import { EditSchema, ForumDraftSchema } from '../../modules/actions/schema.js';

// Envelope A, admin scope (docs/decisions.md). Both fetch a page and call the writer,
// so they can take several seconds.

const Params = z.strictObject({ project_id: Uuid, action_id: Uuid });

export default async function enrichRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['actions'];

  app.post(
    '/projects/:project_id/actions/:action_id/enrich-content',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'enrichContent',
        tags,
        summary: "Edit suggestions for a content_update action's target page",
        description:
          'Fetches the target page, reads its main text and returns edits grounded in it and in the project\'s prompts: citing sources, adding statistics and quotations, fluency (the GEO study, Aggarwal et al., KDD 2024), answering a prompt, comparing with competitors. `before` quotes the page. 422 when the page cannot be fetched.',
        params: Params,
        response: { 200: successEnvelopeSchema(z.array(EditSchema)), ...errorResponses(400, 401, 403, 404, 422, 429, 502) },
      },
    },
    async (req) => successEnvelope(await enrichContent(ctxOf(req), req.params.project_id, req.params.action_id)),
  );

  app.post(
    '/projects/:project_id/actions/:action_id/enrich-forum',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'enrichForum',
        tags,
        summary: "A reply draft for a forum_engagement action's thread",
        params: Params,
        response: { 200: successEnvelopeSchema(ForumDraftSchema), ...errorResponses(400, 401, 403, 404, 429, 502) },
      },
    },
    async (req) => successEnvelope(await enrichForum(ctxOf(req), req.params.project_id, req.params.action_id)),
  );
}
