import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import { ctxOf } from '../request.js';
import * as s from '../../modules/keys/schema.js';
import * as svc from '../../modules/keys/service.js';

/** Key management for team admins (docs/decisions.md, an extension; Envelope A). */
export default async function keyRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['keys'];

  app.get(
    '/keys',
    { config: { scope: 'admin' }, schema: { operationId: 'listKeys', tags, summary: "List the team's API keys (never the full key)", response: { 200: s.KeyListEnvelope, ...errorResponses(401, 403, 429) } } },
    async (req) => successEnvelope(await svc.listKeys(ctxOf(req))),
  );

  app.post(
    '/keys',
    {
      config: { scope: 'admin' },
      schema: { operationId: 'createKey', tags, summary: 'Create an API key; the full key is shown only in this response', body: s.CreateKeyBody, response: { 201: s.KeyCreatedEnvelope, ...errorResponses(400, 401, 403, 429) } },
    },
    async (req, reply) => reply.status(201).send(successEnvelope(await svc.createTeamKey(ctxOf(req), req.body))),
  );

  app.patch(
    '/keys/:key_id',
    {
      config: { scope: 'admin' },
      schema: { operationId: 'updateKey', tags, summary: 'Activate or deactivate a key', params: s.KeyParams, body: s.PatchKeyBody, response: { 200: s.KeyEnvelope, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (req) => successEnvelope(await svc.setKeyActive(ctxOf(req), req.params.key_id, req.body.is_active)),
  );

  app.delete(
    '/keys/:key_id',
    {
      config: { scope: 'admin' },
      schema: { operationId: 'deleteKey', tags, summary: 'Delete a key', params: s.KeyParams, response: { 200: s.KeyDeletedEnvelope, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (req) => successEnvelope(await svc.deleteKey(ctxOf(req), req.params.key_id)),
  );
}
