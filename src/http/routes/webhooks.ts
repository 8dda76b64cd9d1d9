import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import { ctxOf } from '../request.js';
import * as schemas from '../../modules/webhooks/schema.js';
import * as webhooks from '../../modules/webhooks/service.js';

export default async function webhookRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['webhooks'];

  app.post(
    '/webhooks',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'createWebhook',
        tags,
        summary: 'Register an HTTPS endpoint for action events; the secret is shown only here',
        body: schemas.CreateWebhookBody,
        response: { 201: schemas.WebhookCreatedEnvelope, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (req, reply) => reply.status(201).send(successEnvelope(await webhooks.createWebhook(ctxOf(req), req.body))),
  );

  app.get(
    '/webhooks',
    { schema: { operationId: 'listWebhooks', tags, summary: "The team's webhooks (without secrets)", response: { 200: schemas.WebhookListEnvelope, ...errorResponses(401, 429) } } },
    async (req) => successEnvelope(await webhooks.listWebhooks(ctxOf(req))),
  );

  app.get(
    '/webhooks/:webhook_id/deliveries',
    {
      schema: {
        operationId: 'listWebhookDeliveries',
        tags,
        summary: "A webhook's recent deliveries, newest first: status, attempts, last error",
        description: 'Up to `limit` (default 50) deliveries. A delivery is `pending` while retries remain, then `delivered` or `failed`.',
        params: schemas.WebhookParams,
        querystring: schemas.DeliveriesQuery,
        response: { 200: schemas.WebhookDeliveriesEnvelope, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (req) => successEnvelope(await webhooks.listDeliveries(ctxOf(req), req.params.webhook_id, req.query.limit ?? 50)),
  );

  app.delete(
    '/webhooks/:webhook_id',
    {
      config: { scope: 'admin' },
      schema: { operationId: 'deleteWebhook', tags, summary: 'Delete a webhook; deliveries to it stop', params: schemas.WebhookParams, response: { 200: schemas.WebhookDeletedEnvelope, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (req) => successEnvelope(await webhooks.deleteWebhook(ctxOf(req), req.params.webhook_id)),
  );
}
