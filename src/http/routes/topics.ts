import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, statusEnvelope, errorResponses } from '../../lib/envelope.js';
import { ctxOf } from '../request.js';
import * as schemas from '../../modules/topics/schema.js';
import * as topics from '../../modules/topics/service.js';

export default async function topicRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['topics'];

  app.get(
    '/projects/:project_id/topics',
    { schema: { operationId: 'listTopics', tags, summary: "The project's topics", params: schemas.ProjectParams, response: { 200: schemas.TopicListEnvelope, ...errorResponses(400, 401, 403, 404, 429) } } },
    async (req) => successEnvelope(await topics.listTopics(ctxOf(req), req.params.project_id)),
  );

  app.post(
    '/projects/:project_id/topics',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'createTopic',
        tags,
        summary: 'Create a topic (extension)',
        params: schemas.ProjectParams,
        body: schemas.CreateTopicBody,
        response: { 201: schemas.TopicEnvelope, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req, reply) => reply.status(201).send(successEnvelope(await topics.createTopic(ctxOf(req), req.params.project_id, req.body))),
  );

  app.patch(
    '/projects/:project_id/topics/:topic_id',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'updateTopic',
        tags,
        summary: 'Rename a topic or change its description (extension)',
        params: schemas.TopicParams,
        body: schemas.PatchTopicBody,
        response: { 200: schemas.TopicEnvelope, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => successEnvelope(await topics.updateTopic(ctxOf(req), req.params.project_id, req.params.topic_id, req.body)),
  );

  app.delete(
    '/projects/:project_id/topics/:topic_id',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'deleteTopic',
        tags,
        summary: 'Delete a topic (extension); one that holds prompts needs move_to',
        params: schemas.TopicParams,
        querystring: schemas.DeleteTopicQuery,
        response: { 200: schemas.TopicDeleted, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req) => statusEnvelope(await topics.deleteTopic(ctxOf(req), req.params.project_id, req.params.topic_id, req.query.move_to)),
  );
}
