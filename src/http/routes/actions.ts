import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import { ctxOf } from '../request.js';
import { ProjectParams } from '../../modules/common.js';
import * as s from '../../modules/actions/schema.js';
import * as svc from '../../modules/actions/service.js';

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
        querystring: s.ListActionsQuery,
        response: { 200: s.ActionListEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => successEnvelope(await svc.listActions(ctxOf(req), req.params.project_id, req.query)),
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
        body: s.CreateActionBody,
        response: { 201: s.ActionEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req, reply) => reply.status(201).send(successEnvelope(await svc.createAction(ctxOf(req), req.params.project_id, req.body))),
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
        body: s.BatchTransitionBody,
        response: { 200: s.BatchEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => successEnvelope(await svc.batchTransition(ctxOf(req), req.params.project_id, req.body)),
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
        response: { 200: s.TaskCreatedEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => successEnvelope(await svc.startRecommendation(ctxOf(req), req.params.project_id)),
  );

  app.get(
    '/projects/:project_id/actions/tasks/:task_id',
    {
      schema: {
        operationId: 'getRecommendationTask',
        tags,
        summary: 'Status of a recommendation task',
        params: s.TaskParams,
        response: { 200: s.TaskEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => successEnvelope(await svc.getTask(ctxOf(req), req.params.project_id, req.params.task_id)),
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
        body: s.EnrichActionBody,
        response: { 200: s.EnrichedEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => successEnvelope(await svc.enrichAction(ctxOf(req), req.params.project_id, req.body)),
  );

  app.get(
    '/projects/:project_id/actions/:action_id',
    {
      schema: {
        operationId: 'getAction',
        tags,
        summary: 'One action',
        params: s.ActionParams,
        response: { 200: s.ActionEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => successEnvelope(await svc.getAction(ctxOf(req), req.params.project_id, req.params.action_id)),
  );

  app.patch(
    '/projects/:project_id/actions/:action_id/:action',
    {
      config: admin,
      schema: {
        operationId: 'transitionAction',
        tags,
        summary: 'Move an action: accept, start, complete, ignore (reason?, feedback?) or reopen',
        params: s.TransitionParams,
        body: s.TransitionBody,
        response: { 200: s.ActionEnvelope, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) =>
      successEnvelope(await svc.transitionAction(ctxOf(req), req.params.project_id, req.params.action_id, req.params.action, req.body)),
  );
}
