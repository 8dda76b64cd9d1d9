import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ctxOf } from '../request.js';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import * as schemas from '../../modules/credits/schema.js';
import { teamCredits } from '../../modules/credits/service.js';

/** What the team's credits buy and when they reset (extension, read by the dashboard). */
export default async function creditRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/team/credits',
    {
      schema: {
        tags: ['team'],
        operationId: 'getTeamCredits',
        summary: 'Credits left this month, what a day of tracking costs, the days it pays for and when the credits reset',
        response: { 200: schemas.TeamCreditsEnvelope, ...errorResponses(401, 429) },
      },
    },
    async (req) => successEnvelope(await teamCredits(ctxOf(req))),
  );
}
