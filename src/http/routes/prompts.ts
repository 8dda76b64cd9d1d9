import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, statusEnvelope, errorResponses } from '../../lib/envelope.js';
import { ctxOf } from '../request.js';
import { cachedRead } from '../cached-read.js';
import { ProjectParams } from '../../modules/common.js';
import { resolveWindow, WindowQuery } from '../../modules/analytics/window.js';
import * as schemas from '../../modules/prompts/schema.js';
import * as prompts from '../../modules/prompts/service.js';

export default async function promptRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['prompts'];

  app.get(
    '/projects/:project_id/prompts',
    { schema: { operationId: 'listPrompts', tags, summary: "The project's prompts, by creation date, with the window's metrics", params: ProjectParams, querystring: WindowQuery, response: { 200: schemas.PromptListEnvelope, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (req, reply) => {
      const w = resolveWindow(req.query);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await prompts.listPrompts(ctx, req.params.project_id, w)));
    },
  );

  app.get(
    '/projects/:project_id/markets',
    {
      schema: {
        operationId: 'listProjectMarkets',
        tags,
        summary: "Extension: the markets the project's active prompts run in, with their prompts (the codes `market=` takes)",
        params: ProjectParams,
        response: { 200: schemas.ProjectMarketsEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req, reply) => cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await prompts.listProjectMarkets(ctx, req.params.project_id))),
  );

  app.get(
    '/projects/:project_id/prompts/:prompt_id',
    { schema: { operationId: 'getPrompt', tags, summary: "One prompt, with the window's metrics", params: schemas.PromptParams, querystring: WindowQuery, response: { 200: schemas.PromptEnvelope, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (req, reply) => {
      const w = resolveWindow(req.query);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await prompts.getPrompt(ctx, req.params.project_id, req.params.prompt_id, w)));
    },
  );

  app.post(
    '/projects/:project_id/prompts',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'createPrompts',
        tags,
        summary: 'Create 1 to 50 prompts; tracking begins immediately',
        params: ProjectParams,
        body: schemas.CreatePromptsBody,
        response: { 200: schemas.PromptsCreatedEnvelope, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => statusEnvelope(await prompts.createPrompts(ctxOf(req), req.params.project_id, req.body)),
  );

  app.patch(
    '/projects/:project_id/prompts/:prompt_id',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'updatePrompt',
        tags,
        summary: 'Change a prompt (send only the changes)',
        params: schemas.PromptParams,
        body: schemas.PatchPromptBody,
        response: { 200: schemas.PromptEnvelope, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => successEnvelope(await prompts.updatePrompt(ctxOf(req), req.params.project_id, req.params.prompt_id, req.body)),
  );

  app.delete(
    '/projects/:project_id/prompts/:prompt_id',
    {
      config: { scope: 'admin' },
      schema: { operationId: 'deletePrompt', tags, summary: 'Delete a prompt and its history', params: schemas.PromptParams, response: { 200: schemas.PromptDeletedEnvelope, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (req) => statusEnvelope(await prompts.deletePrompt(ctxOf(req), req.params.project_id, req.params.prompt_id)),
  );
}
