import { z } from 'zod';
import { successEnvelopeSchema } from '../../lib/envelope.js';

export const SourceDomain = z
  .object({ source_id: z.uuid(), domain: z.string(), category: z.number().int(), reference_count: z.number().int() })
  .meta({ id: 'SourceDomain' });

export const SourceList = successEnvelopeSchema(z.array(SourceDomain));

const pct = z.number();
export const SourcesAnalytics = successEnvelopeSchema(
  z.object({
    stats: z.object({ total_sources: z.number().int(), total_citations: z.number().int() }),
    category_breakdown: z.object({ corporate: pct, editorial: pct, institutional: pct, reference: pct, ugc: pct, other: pct }),
    performance_chart: z.object({
      dates: z.array(z.string()),
      series: z.array(z.object({ domain: z.string(), values: z.array(z.number().nullable()) })),
    }),
    top_domains: z.array(SourceDomain),
    opportunities: z.array(
      z.object({ domain: z.string(), citation_count: z.number().int(), category: z.number().int(), category_name: z.string() }),
    ),
  }),
);
