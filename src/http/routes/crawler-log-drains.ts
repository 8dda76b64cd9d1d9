import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFound } from '../../lib/errors.js';
import { ctxOf, servicesOf } from '../request.js';
import { ProjectParams, Uuid } from '../../modules/common.js';
import { errorResponses, successEnvelope, successEnvelopeSchema } from '../../lib/envelope.js';
import { createDrain, ingestDrainPush, listDrains, openDrain, revokeDrain } from '../../modules/crawler-logs/drains.js';
import * as schemas from '../../modules/crawler-logs/schema.js';
import { LOG_TYPES, logBodyOf } from './crawler-logs.js';

const DrainParams = z.strictObject({ project_id: Uuid, drain_id: Uuid });
const TokenParams = z.strictObject({ token: z.string().max(100) });

/** Log-drain URLs (issue 28): managed with a key, pushed to by a CDN with the URL alone. */
export default async function crawlerLogDrainRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['crawlers'];
  const errs = errorResponses(400, 401, 403, 404, 414, 429);

  app.post(
    '/projects/:project_id/crawler-log-drains',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'createCrawlerLogDrain',
        tags,
        summary: 'Create a log-drain URL that a CDN pushes access logs to, without an API key',
        description: 'The url (PUBLIC_URL/v1/crawler-log-drains/{token}) is shown only here: the token is stored hashed. Give it to Cloudflare Logpush (HTTP destination) or a Vercel log drain (NDJSON).',
        params: ProjectParams,
        body: schemas.DrainCreate,
        response: { 200: successEnvelopeSchema(schemas.DrainCreated), ...errs },
      },
    },
    async (req) => successEnvelope(await createDrain(ctxOf(req), req.params.project_id, req.body)),
  );

  app.get(
    '/projects/:project_id/crawler-log-drains',
    {
      schema: {
        operationId: 'listCrawlerLogDrains',
        tags,
        summary: "The project's log drains (without tokens), with when each was last used",
        params: ProjectParams,
        response: { 200: successEnvelopeSchema(z.array(schemas.Drain)), ...errs },
      },
    },
    async (req) => successEnvelope(await listDrains(ctxOf(req), req.params.project_id)),
  );

  app.delete(
    '/projects/:project_id/crawler-log-drains/:drain_id',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'revokeCrawlerLogDrain',
        tags,
        summary: 'Revoke a log drain: its URL answers 404 from now on',
        params: DrainParams,
        response: { 200: successEnvelopeSchema(schemas.DrainRevoked), ...errs },
      },
    },
    async (req) => successEnvelope(await revokeDrain(ctxOf(req), req.params.project_id, req.params.drain_id)),
  );

  // A push reaches the route as the request stream whatever its type (JSON included: Logpush
  // may label NDJSON as JSON), bounded by CRAWLER_LOG_MAX_MB as it is read.
  await app.register(pushRoute);
}

async function pushRoute(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
  app.post(
    '/crawler-log-drains/:token',
    {
      config: { auth: 'public', ownTextRule: true },
      schema: {
        operationId: 'pushCrawlerLogDrain',
        tags: ['crawlers'],
        security: [],
        summary: 'A CDN pushes a batch of access log lines to a log drain (the token in the URL is the credential)',
        description:
          "Same lines and counting as POST /projects/{project_id}/crawler-logs (combined or NDJSON, each line read as what it is, whatever the Content-Type; gzip with Content-Encoding: gzip); a batch sent again adds nothing. An empty push (a CDN's test) answers 200 with zero counts. An unknown or revoked token is a 404.",
        params: TokenParams,
        consumes: [...LOG_TYPES, 'application/json'],
        response: { 200: successEnvelopeSchema(schemas.IngestResult), ...errorResponses(400, 404, 413, 414, 415, 429) },
      },
    },
    async (req, reply) => {
      const drain = await openDrain(servicesOf(req), req.params.token);
      if (!drain) {
        (req.body as Readable | undefined)?.resume?.();
        throw new NotFound('Unknown or revoked log drain');
      }
      if (drain.vercelVerify) reply.header('x-vercel-verify', drain.vercelVerify);
      const { body, gzip } = logBodyOf(req, { allowEmpty: true, anyType: true });
      return successEnvelope(await ingestDrainPush(drain, body, gzip));
    },
  );
}
