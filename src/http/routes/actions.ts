import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import { ctxOf } from '../request.js';
import { ProjectParams } from '../../modules/common.js';
import * as schemas from '../../modules/actions/schema.js';
import * as actions from '../../modules/actions/service.js';

/**
 * Actions (spec 4.7; Envelope A throughout, docs/decisions.md). The routes under
 * /actions/{action_id}/enrich-content, enrich-forum and execute live in enrich.ts and workflows.ts.
 */
export default async function actionRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['actions'];
  const admin = { scope: 'admin' as const };

  app.get(
    '/projects/:project_id/actions',
    {
      schema: {
        operationId: 'listActions',
        tags,
        summary: "The project's actions, newest first, optionally by status or group",
        params: ProjectParams,
        querystring: schemas.ListActionsQuery,
        response: { 200: schemas.ActionListEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => successEnvelope(await actions.listActions(ctxOf(req), req.params.project_id, req.query)),
  );

  app.post(
    '/projects/:project_id/actions',
    {
      config: admin,
      schema: {
        operationId: 'createAction',
        tags,
        summary: 'Create an action (status suggested)',
        params: ProjectParams,
        body: schemas.CreateActionBody,
        response: { 201: schemas.ActionEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req, reply) => reply.status(201).send(successEnvelope(await actions.createAction(ctxOf(req), req.params.project_id, req.body))),
  );

  app.post(
    '/projects/:project_id/actions/batch-transition',
    {
      config: admin,
      schema: {
        operationId: 'transitionActions',
        tags,
        summary: 'Apply one operation to up to 100 actions, each on its own',
        params: ProjectParams,
        body: schemas.BatchTransitionBody,
        response: { 200: schemas.BatchEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => successEnvelope(await actions.batchTransition(ctxOf(req), req.params.project_id, req.body)),
  );

  app.post(
    '/projects/:project_id/actions/recommend',
    {
      config: admin,
      schema: {
        operationId: 'recommendActions',
        tags,
        summary: "Derive actions from the project's last 30 days in the background; poll the task",
        params: ProjectParams,
        response: { 200: schemas.TaskCreatedEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => successEnvelope(await actions.startRecommendation(ctxOf(req), req.params.project_id)),
  );

  app.get(
    '/projects/:project_id/actions/tasks/:task_id',
    {
      schema: {
        operationId: 'getRecommendationTask',
        tags,
        summary: 'Status of a recommendation task',
        params: schemas.TaskParams,
        response: { 200: schemas.TaskEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => successEnvelope(await actions.getTask(ctxOf(req), req.params.project_id, req.params.task_id)),
  );

  app.post(
    '/projects/:project_id/actions/enrich',
    {
      config: admin,
      schema: {
        operationId: 'draftAction',
        tags,
        summary: "Have the writer fill in an action's fields, grounded in the project's data",
        params: ProjectParams,
        body: schemas.EnrichActionBody,
        response: { 200: schemas.EnrichedEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => successEnvelope(await actions.enrichAction(ctxOf(req), req.params.project_id, req.body)),
  );

  app.get(
    '/projects/:project_id/actions/:action_id',
    {
      schema: {
        operationId: 'getAction',
        tags,
        summary: 'One action',
        params: schemas.ActionParams,
        response: { 200: schemas.ActionEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => successEnvelope(await actions.getAction(ctxOf(req), req.params.project_id, req.params.action_id)),
  );

  app.patch(
    '/projects/:project_id/actions/:action_id/:action',
    {
      config: admin,
      schema: {
        operationId: 'transitionAction',
        tags,
        summary: 'Move an action: accept, start, complete, ignore (reason?, feedback?) or reopen',
        params: schemas.TransitionParams,
        body: schemas.TransitionBody,
        response: { 200: schemas.ActionEnvelope, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) =>
      successEnvelope(await actions.transitionAction(ctxOf(req), req.params.project_id, req.params.action_id, req.params.action, req.body)),
  );
}
