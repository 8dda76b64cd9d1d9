import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, statusEnvelope, errorResponses } from '../../lib/envelope.js';
import { ctxOf, servicesOf } from '../request.js';
import { createProject } from '../../modules/projects/service.js';
import * as schemas from '../../modules/accounts/schema.js';
import { accountSummary, createAccount, getAccountKey } from '../../modules/accounts/service.js';

export default async function accountRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/account/create',
    {
      config: { auth: 'public' },
      schema: {
        operationId: 'createAccount',
        tags: ['account'],
        summary: 'Create an account (team on the skip_trial plan) and its first user',
        security: [],
        body: schemas.CreateAccountBody,
        response: { 200: schemas.AccountCreated, ...errorResponses(400, 409, 429) },
      },
    },
    async (req) => statusEnvelope(await createAccount(servicesOf(req), req.body, { ip: req.ip, requestId: req.id })),
  );

  app.post(
    '/account/api-key',
    {
      config: { auth: 'public' },
      schema: {
        operationId: 'getAccountApiKey',
        tags: ['account'],
        summary: "Get the account's admin API key, creating one when it has none",
        security: [],
        body: schemas.ApiKeyBody,
        response: { 200: schemas.ApiKeyResult, ...errorResponses(400, 401, 429, 500) },
      },
    },
    async (req) => statusEnvelope(await getAccountKey(servicesOf(req), req.body, { ip: req.ip, requestId: req.id })),
  );

  app.post(
    '/account/projects',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'createProject',
        tags: ['account'],
        summary: 'Create a project and start its bootstrap pipeline',
        body: schemas.CreateProjectBody,
        response: { 202: schemas.ProjectAccepted, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (req, reply) => reply.status(202).send(statusEnvelope(await createProject(ctxOf(req), req.body), 202)),
  );

  app.get(
    '/account',
    {
      schema: {
        operationId: 'getAccount',
        tags: ['account'],
        summary: "The caller's team: plan, credits used and left this month, rate-limit tier (extension)",
        response: { 200: schemas.AccountSummaryEnvelope, ...errorResponses(401, 429) },
      },
    },
    async (req) => successEnvelope(await accountSummary(ctxOf(req))),
  );
}
