import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import { ctxOf } from '../request.js';
import * as schemas from '../../modules/keys/schema.js';
import * as keys from '../../modules/keys/service.js';

/** Key management for team admins (docs/decisions.md, an extension; Envelope A). */
export default async function keyRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['keys'];

  app.get(
    '/keys',
    { config: { scope: 'admin' }, schema: { operationId: 'listKeys', tags, summary: "List the team's API keys (never the full key)", response: { 200: schemas.KeyListEnvelope, ...errorResponses(401, 403, 429) } } },
    async (req) => successEnvelope(await keys.listKeys(ctxOf(req))),
  );

  app.post(
    '/keys',
    {
      config: { scope: 'admin' },
      schema: { operationId: 'createKey', tags, summary: 'Create an API key; the full key is shown only in this response', body: schemas.CreateKeyBody, response: { 201: schemas.KeyCreatedEnvelope, ...errorResponses(400, 401, 403, 429) } },
    },
    async (req, reply) => reply.status(201).send(successEnvelope(await keys.createTeamKey(ctxOf(req), req.body))),
  );

  app.patch(
    '/keys/:key_id',
    {
      config: { scope: 'admin' },
      schema: { operationId: 'updateKey', tags, summary: 'Activate or deactivate a key', params: schemas.KeyParams, body: schemas.PatchKeyBody, response: { 200: schemas.KeyEnvelope, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (req) => successEnvelope(await keys.setKeyActive(ctxOf(req), req.params.key_id, req.body.is_active)),
  );

  app.delete(
    '/keys/:key_id',
    {
      config: { scope: 'admin' },
      schema: { operationId: 'deleteKey', tags, summary: 'Delete a key', params: schemas.KeyParams, response: { 200: schemas.KeyDeletedEnvelope, ...errorResponses(400, 401, 403, 404, 429) } },
    },
    async (req) => successEnvelope(await keys.deleteKey(ctxOf(req), req.params.key_id)),
  );
}
