import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, statusEnvelope, errorResponses } from '../../lib/envelope.js';
import { ctxOf } from '../request.js';
import { cachedRead } from '../cached-read.js';
import { ProjectParams } from '../../modules/common.js';
import { resolveWindow, WindowQuery } from '../../modules/analytics/window.js';
import * as s from '../../modules/prompts/schema.js';
import * as svc from '../../modules/prompts/service.js';

export default async function promptRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['prompts'];

  app.get(
    '/projects/:project_id/prompts',
    { schema: { operationId: 'listPrompts', tags, summary: "The project's prompts, by creation date, with the window's metrics", params: ProjectParams, querystring: WindowQuery, response: { 200: s.PromptListEnvelope, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (req, reply) => {
      const w = resolveWindow(req.query);
      return cachedRead(req, reply, req.params.project_id, async () => successEnvelope(await svc.listPrompts(ctxOf(req), req.params.project_id, w)));
    },
  );

  app.get(
    '/projects/:project_id/prompts/:prompt_id',
    { schema: { operationId: 'getPrompt', tags, summary: "One prompt, with the window's metrics", params: s.PromptParams, querystring: WindowQuery, response: { 200: s.PromptEnvelope, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (req, reply) => {
      const w = resolveWindow(req.query);
      return cachedRead(req, reply, req.params.project_id, async () => successEnvelope(await svc.getPrompt(ctxOf(req), req.params.project_id, req.params.prompt_id, w)));
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
        body: s.CreatePromptsBody,
        response: { 200: s.PromptsCreatedEnvelope, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => statusEnvelope(await svc.createPrompts(ctxOf(req), req.params.project_id, req.body)),
  );

  app.patch(
    '/projects/:project_id/prompts/:prompt_id',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'updatePrompt',
        tags,
        summary: 'Change a prompt (send only the changes)',
        params: s.PromptParams,
        body: s.PatchPromptBody,
        response: { 200: s.PromptEnvelope, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => successEnvelope(await svc.updatePrompt(ctxOf(req), req.params.project_id, req.params.prompt_id, req.body)),
  );

  app.delete(
    '/projects/:project_id/prompts/:prompt_id',
    {
      config: { scope: 'admin' },
      schema: { operationId: 'deletePrompt', tags, summary: 'Delete a prompt and its history', params: s.PromptParams, response: { 200: s.PromptDeletedEnvelope, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (req) => statusEnvelope(await svc.deletePrompt(ctxOf(req), req.params.project_id, req.params.prompt_id)),
  );
}
