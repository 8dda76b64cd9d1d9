import { z } from 'zod';
import { successEnvelopeSchema } from '../../lib/envelope.js';
import { PLAN_NAMES, RATE_LIMIT_TIERS } from '../../lib/plans.js';
import { IsoDate, Uuid } from '../common.js';

export const TeamParams = z.strictObject({ team_id: Uuid });

export const PatchTeamBody = z.strictObject({
  plan: z.enum(PLAN_NAMES, { error: `plan must be one of ${PLAN_NAMES.join(', ')}` }).optional(),
  rate_limit_tier: z.enum(RATE_LIMIT_TIERS, { error: "rate_limit_tier must be 'standard' or 'premium'" }).optional(),
});

export const Team = z
  .object({
    team_id: z.uuid(),
    plan: z.string(),
    rate_limit_tier: z.string(),
    monthly_credits: z.number().int(),
    credits_used: z.number().int(),
    created_at: IsoDate,
  })
  .meta({ id: 'Team' });

export const TeamEnvelope = successEnvelopeSchema(Team);

export const TeamsQuery = z.strictObject({
  email: z.string().trim().min(3).max(320).optional().meta({ description: 'Only the teams this person (email) belongs to' }),
});
export const TeamListEntry = Team.extend({
  members: z.array(z.string()).meta({ description: "Members' emails, earliest first" }),
  projects: z.number().int(),
}).meta({ id: 'TeamListEntry' });
export const TeamsEnvelope = successEnvelopeSchema(z.array(TeamListEntry));

export const AdminProjectParams = z.strictObject({ project_id: Uuid });
export const JobParams = z.strictObject({ job_id: Uuid });
export const CallbackSecretEnvelope = successEnvelopeSchema(
  z
    .object({
      secret: z.string().meta({ description: 'The whsec_ secret that signs bootstrap callbacks (Standard Webhooks)' }),
      source: z.enum(['environment', 'generated']).meta({ description: 'CALLBACK_SIGNING_SECRET, or generated at first start and kept in the store' }),
    })
    .meta({ id: 'CallbackSecret' }),
);
export const RefreshEnvelope = successEnvelopeSchema(z.object({ job_id: z.uuid() }));
export const JobEnvelope = successEnvelopeSchema(
  z
    .object({
      job_id: z.uuid(),
      name: z.string(),
      status: z.enum(['created', 'retry', 'active', 'completed', 'cancelled', 'failed']),
      error: z.string().nullable(),
      output: z.unknown(),
      created_at: IsoDate,
      completed_at: IsoDate.nullable(),
    })
    .meta({ id: 'Job' }),
);

const Day = (name: string) =>
  z
    .string({ error: `${name} must be a date (YYYY-MM-DD)` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date (YYYY-MM-DD)`)
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), `${name} must be a real date`);

export const UsageQuery = z.strictObject({
  from: Day('from').optional().meta({ description: 'First UTC day (default: 29 days before `to`)' }),
  to: Day('to').optional().meta({ description: 'Last UTC day (default: today)' }),
});

export const UsageEnvelope = successEnvelopeSchema(
  z.array(
    z
      .object({
        day: z.string().meta({ description: 'UTC day, YYYY-MM-DD' }),
        provider: z.string(),
        responses: z.int().meta({ description: 'Live answers stored (simulated ones are free and left out)' }),
        reported: z.int().meta({ description: 'Of those, the answers whose vendor reported usage' }),
        input_tokens: z.int(),
        output_tokens: z.int(),
        searches: z.int().meta({ description: 'Web searches run (tool calls), or SerpApi searches billed' }),
        cost_usd: z.number().nullable().meta({ description: "The vendors' own stated price (Perplexity), summed; null when none stated one" }),
      })
      .meta({ id: 'ProviderUsageDay' }),
  ),
);
