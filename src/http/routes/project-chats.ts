import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cachedRead } from '../cached-read.js';
import { markRetention } from '../retained-from.js';
import { ProjectParams } from '../../modules/common.js';
import { successEnvelope, successEnvelopeSchema, errorResponses } from '../../lib/envelope.js';
import { projectChats } from '../../modules/analytics/project-chats.js';
import { ChatItem, PagedWindowQuery } from '../../modules/analytics/schema.js';
import { resolveWindow } from '../../modules/analytics/window.js';

const optionalUuid = (name: string, description: string) => z.uuid({ error: `${name} must be a UUID` }).optional().meta({ description });

/** Extension: the filters of the dashboard's answers feed, beside the window and paging. */
export const ProjectChatsQuery = PagedWindowQuery.extend({
  prompt_id: optionalUuid('prompt_id', 'Only the answers to this prompt of the project.'),
  topic_id: optionalUuid('topic_id', "Only the answers to the prompts of this topic of the project."),
  brand_id: optionalUuid('brand_id', "A tracked brand: a competitor_id as /competitors lists it (the own brand's all-zero id included)."),
  brand_named: z
    .enum(['true', 'false'], { error: "brand_named must be 'true' or 'false'" })
    .default('true')
    .meta({ description: "With brand_id: 'true' keeps the answers that name the brand, 'false' those that do not." }),
});

export const ProjectChatItem = ChatItem.extend({
  prompt_id: z.uuid(),
  topic_id: z.uuid().nullable(),
  topic_name: z.string().nullable(),
}).meta({ id: 'ProjectChatItem' });

export const ProjectChats = successEnvelopeSchema(
  z.object({
    items: z.array(ProjectChatItem),
    page: z.int(),
    page_size: z.int(),
    has_more: z.boolean().meta({ description: 'Whether a next page holds more answers' }),
  }),
);

/** Extension: every answer of a project across its prompts (the dashboard's answers feed). */
export default async function projectChatsRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/projects/:project_id/chats',
    {
      schema: {
        operationId: 'listProjectChats',
        tags: ['analytics'],
        summary: "Extension: the project's AI answers in the window across its prompts, newest first (paged), filtered by engine, prompt, topic and brand named or not",
        params: ProjectParams,
        querystring: ProjectChatsQuery,
        response: { 200: ProjectChats, ...errorResponses(400, 401, 403, 404, 414, 429) },
      },
    },
    async (req, reply) => {
      const { page, page_size, prompt_id, topic_id, brand_id, brand_named, ...window } = req.query;
      const w = resolveWindow(window);
      markRetention(req, reply, w.from);
      const filters = { promptId: prompt_id, topicId: topic_id, brandId: brand_id, brandNamed: brand_named === 'true' };
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await projectChats(ctx, req.params.project_id, w, filters, page, page_size)));
    },
  );
}
