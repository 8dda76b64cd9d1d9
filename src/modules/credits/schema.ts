import { z } from 'zod';
import { successEnvelopeSchema } from '../../lib/envelope.js';

export const TeamCredits = z
  .object({
    plan: z.string(),
    credits_included: z.number().int().meta({ description: "The plan's credits per calendar month (UTC)" }),
    credits_used: z.number().int(),
    credits_left: z.number().int(),
    resets_at: z.string().meta({ description: 'When the credits reset: the first day of the next UTC month, 00:00 UTC' }),
    days_to_reset: z.number().int(),
    credits_per_day: z.number().int().meta({ description: "A day of tracking: per project, active prompts × engines × samples per run (the plan's cap), summed" }),
    days_of_tracking_left: z.number().int().nullable().meta({ description: 'Whole days the credits left pay for at that rate; null when nothing is tracked' }),
    enough_until_reset: z.boolean(),
    projects: z.array(
      z.object({
        project_id: z.uuid(),
        name: z.string(),
        active_prompts: z.number().int(),
        engines: z.number().int(),
        samples_per_run: z.number().int(),
        credits_per_day: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'TeamCredits' });

export const TeamCreditsEnvelope = successEnvelopeSchema(TeamCredits);
