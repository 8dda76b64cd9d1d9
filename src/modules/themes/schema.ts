import { z } from 'zod';
import { THEMES } from '../../analysis/index.js';
import { successEnvelopeSchema } from '../../lib/envelope.js';
import { Uuid } from '../common.js';
import { MarketParam } from '../analytics/window.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (name: string) =>
  z
    .string()
    .regex(DAY, `${name} must be a date in the form YYYY-MM-DD`)
    .optional()
    .meta({ description: `YYYY-MM-DD (UTC), inclusive` });

export const ThemesQuery = z.strictObject({
  brand_id: Uuid.optional().meta({
    description: "A competitor_id as /competitors lists it; the own brand's is the all-zero UUID (the default).",
  }),
  start_date: day('start_date'),
  end_date: day('end_date'),
  market: MarketParam,
});
export type ThemesQueryInput = z.infer<typeof ThemesQuery>;

export const ThemeExample = z.object({
  chat_id: Uuid.meta({ description: 'The answer (chat) the excerpt is from.' }),
  prompt_id: Uuid.meta({ description: 'Extension: the prompt of that answer (its chats: /prompts/{prompt_id}/chats).' }),
  sentiment: z.enum(['positive', 'neutral', 'negative']).meta({ description: 'Extension: the band of what the excerpt says of the brand.' }),
  excerpt: z.string(),
});

export const ThemeItem = z
  .object({
    theme: z.enum(THEMES),
    mentions: z.number().int().meta({ description: 'Answers of the window that speak of the brand on this theme.' }),
    positive: z.number().int(),
    neutral: z.number().int(),
    negative: z.number().int(),
    examples: z.array(ThemeExample).meta({ description: 'Up to 3 excerpts, newest first.' }),
  })
  .meta({ id: 'Theme' });

export const ThemesEnvelope = successEnvelopeSchema(z.array(ThemeItem));
export type ThemeItemOut = z.infer<typeof ThemeItem>;

export const CompareThemesQuery = ThemesQuery.omit({ brand_id: true });

export const BrandThemesItem = z.object({
  brand_id: Uuid.meta({ description: "competitor_id as /competitors lists it; the own brand's is the all-zero UUID." }),
  name: z.string(),
  is_own_brand: z.boolean(),
  themes: z.array(ThemeItem),
});
export const CompareThemesEnvelope = successEnvelopeSchema(z.array(BrandThemesItem));
