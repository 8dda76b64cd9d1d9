import { z } from 'zod';
import { ProjectMarket } from '../prompts/schema.js';
import { successEnvelopeSchema } from '../../lib/envelope.js';
import { ModelChangeItem } from '../analytics/schema.js';
import { Competitor, CompetitorMetrics } from '../competitors/schema.js';

const Period = z.object({ date_from: z.string(), date_to: z.string() });

const CompetitorTable = Period.extend({
  active_competitors: z.array(Competitor),
  total_active: z.number().int(),
});

const Direction = z.enum(['up', 'down', 'stable']).nullable();
const MoverShape = {
  direction: z.enum(['up', 'down']),
  value: z.number().meta({ description: 'Percent in this window' }),
  previous: z.number().meta({ description: 'Percent in the window before' }),
  p_value: z.number().meta({ description: 'Two-sided p-value of the two-proportion z-test' }),
};

const Changes = z
  .object({
    own_brand: z
      .object({ visibility: Direction, share_of_voice: Direction, position: Direction, sentiment: Direction })
      .meta({
        description:
          "The trend test of each own-brand figure against the previous window: up or down only when significant at 95% (z-test for percentages, Welch's t-test for position and sentiment), stable otherwise, null when either window has too few answers (10 responses, 2 mentions for the means). For position, up is a larger number (a worse rank).",
      }),
    competitors: z
      .array(z.object({ competitor_id: z.uuid(), name: z.string(), ...MoverShape }))
      .meta({ description: 'Competitors whose visibility changed significantly, the largest change first, at most 5' }),
    prompts: z
      .array(z.object({ prompt_id: z.uuid(), content: z.string(), ...MoverShape }))
      .meta({ description: "Active prompts where the own brand's visibility changed significantly (won: up, lost: down), at most 5" }),
    sources: z
      .array(z.object({ domain: z.string(), ...MoverShape }))
      .meta({ description: 'Cited domains whose share of responses citing them changed significantly (gained: up, lost: down), at most 5' }),
  })
  .meta({ description: 'Extension: what changed against the previous window, significant changes only' });

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
    changes: Changes,
    model_changes: z
      .array(ModelChangeItem)
      .meta({ description: 'Extension: the days in the window an engine changed model (GET /projects/{project_id}/model-changes), for the chart to mark' }),
    markets: z
      .array(ProjectMarket)
      .meta({ description: "Extension: the markets the project's active prompts run in (GET /projects/{project_id}/markets), for the market filter" }),
  })
  .meta({ id: 'OverviewSummary' });

export const OverviewSummaryEnvelope = successEnvelopeSchema(OverviewSummary);
