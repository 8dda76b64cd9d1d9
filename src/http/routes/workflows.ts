import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import { ctxOf } from '../request.js';
import * as schemas from '../../modules/workflows/schema.js';
import * as workflows from '../../modules/workflows/service.js';

/** The article workflow of an action (docs/decisions.md): execute, read, answer a checkpoint. */
export default async function workflowRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['actions'];

  app.post(
    '/projects/:project_id/actions/:action_id/execute',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'executeAction',
        tags,
        summary: 'Start the article workflow (outline, draft, final with approval checkpoints)',
        params: schemas.ActionParams,
        response: { 202: schemas.ExecuteEnvelope, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req, reply) => reply.status(202).send(successEnvelope(await workflows.executeAction(ctxOf(req), req.params.project_id, req.params.action_id))),
  );

  app.get(
    '/projects/:project_id/actions/:action_id/workflow',
    {
      schema: { operationId: 'getWorkflow', tags, summary: "The action's latest workflow", params: schemas.ActionParams, response: { 200: schemas.WorkflowEnvelope, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (req) => successEnvelope(await workflows.getWorkflow(ctxOf(req), req.params.project_id, req.params.action_id)),
  );

  app.post(
    '/projects/:project_id/actions/:action_id/workflow/respond',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'respondToCheckpoint',
        tags,
        summary: 'Approve, edit, regenerate or reject the checkpoint that waits',
        params: schemas.ActionParams,
        body: schemas.RespondBody,
        response: { 200: schemas.WorkflowEnvelope, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => successEnvelope(await workflows.respond(ctxOf(req), req.params.project_id, req.params.action_id, req.body)),
  );
}
