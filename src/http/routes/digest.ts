import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ctxOf } from '../request.js';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import * as schemas from '../../modules/digest/schema.js';
import * as digest from '../../modules/digest/service.js';

/** The weekly digest: each person's opt-in, a preview, and a send-now (issue 27). */
export default async function digestRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['team'];

  app.get(
    '/team/members/me',
    {
      schema: { operationId: 'getMyMembership', tags, summary: 'Your own settings in this team (the weekly digest)', response: { 200: schemas.MyDigestEnvelope, ...errorResponses(401, 429) } },
    },
    async (req) => successEnvelope(await digest.getMyDigest(ctxOf(req))),
  );

  app.patch(
    '/team/members/me',
    {
      schema: {
        operationId: 'updateMyMembership',
        tags,
        summary: 'Opt in to (or out of) the weekly digest e-mail; any member may, viewers too',
        body: schemas.PatchMeBody,
        response: { 200: schemas.MyDigestEnvelope, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (req) => successEnvelope(await digest.setMyDigest(ctxOf(req), req.body.digest)),
  );

  app.post(
    '/team/digest/preview',
    {
      schema: { operationId: 'previewDigest', tags, summary: "This week's digest as it would be sent now", response: { 200: schemas.DigestPreviewEnvelope, ...errorResponses(401, 429) } },
    },
    async (req) => successEnvelope(await digest.previewDigest(ctxOf(req))),
  );

  app.post(
    '/team/digest/send',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'sendDigest',
        tags,
        summary: "Send this week's digest now to the members who opted in",
        description: '409 when mail is off (SMTP_URL and MAIL_FROM unset).',
        response: { 200: schemas.DigestSentEnvelope, ...errorResponses(401, 403, 409, 429) },
      },
    },
    async (req) => successEnvelope(await digest.sendTeamDigest(ctxOf(req))),
  );
}
