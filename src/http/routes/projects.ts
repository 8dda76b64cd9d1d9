import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, statusEnvelope, errorResponses } from '../../lib/envelope.js';
import { ctxOf } from '../request.js';
import * as schemas from '../../modules/projects/schema.js';
import * as projects from '../../modules/projects/service.js';

export default async function projectRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['projects'];

  app.get(
    '/projects',
    { schema: { operationId: 'listProjects', tags, summary: "The team's projects, oldest first", response: { 200: schemas.ProjectListEnvelope, ...errorResponses(401, 429) } } },
    async (req) => successEnvelope(await projects.listProjects(ctxOf(req))),
  );

  app.get(
    '/projects/:project_id',
    {
      schema: { operationId: 'getProject', tags, summary: 'One project, with its brand aliases and how its bootstrap and callback went', params: schemas.ProjectParams, response: { 200: schemas.ProjectEnvelope, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (req) => successEnvelope(await projects.getProject(ctxOf(req), req.params.project_id)),
  );

  app.patch(
    '/projects/:project_id',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'updateProject',
        tags,
        summary: "Edit a project's names, aliases, website or market (extension); a brand change re-analyses its answers",
        params: schemas.ProjectParams,
        body: schemas.PatchProjectBody,
        response: { 200: schemas.ProjectEnvelope, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => successEnvelope(await projects.updateProject(ctxOf(req), req.params.project_id, req.body)),
  );

  app.delete(
    '/projects/:project_id',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'deleteProject',
        tags,
        summary: 'Delete a project and everything under it (extension); its plan slot is free again',
        params: schemas.ProjectParams,
        response: { 200: schemas.ProjectDeleted, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (req) => statusEnvelope(await projects.deleteProject(ctxOf(req), req.params.project_id)),
  );
}
