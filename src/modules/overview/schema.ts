import { z } from 'zod';
import { successEnvelopeSchema } from '../../lib/envelope.js';
import { Competitor, CompetitorMetrics } from '../competitors/schema.js';

const Period = z.object({ date_from: z.string(), date_to: z.string() });

const CompetitorTable = Period.extend({
  active_competitors: z.array(Competitor),
  total_active: z.number().int(),
});

export const OverviewSummary = z
  .object({
    current: CompetitorTable.meta({ description: 'GET /competitors for the window, as it answers it' }),
    previous: CompetitorTable.meta({ description: 'The same for the window of the same length just before it (for the changes)' }),
    by_provider: z
      .array(z.object({ provider: z.string(), own_brand: CompetitorMetrics.nullable() }))
      .meta({ description: "The own brand's metrics per engine: the window's providers filter, else the project's engines" }),
    engines: z
      .array(
        z.object({
          provider: z.string(),
          mode: z.enum(['live', 'simulated']),
          live_with: z.string().meta({ description: 'The environment variable that makes this engine live' }),
        }),
      )
      .meta({ description: "The project's engines and whether this service asks them for real" }),
  })
  .meta({ id: 'OverviewSummary' });

export const OverviewSummaryEnvelope = successEnvelopeSchema(OverviewSummary);
