import { z } from 'zod';
import { successEnvelopeSchema, statusEnvelopeSchema } from '../../lib/envelope.js';
import { IsoDate, TREND_DESCRIPTION, UncertaintyShape, Uuid } from '../common.js';
import { MAX_MARKETS_PER_PROMPT, marketCode } from '../../lib/markets.js';

const MarketShape = z
  .object({ country: z.string().meta({ description: 'ISO 3166-1 alpha-2' }), language: z.string().meta({ description: 'ISO 639' }) })
  .meta({ id: 'Market' });

export const PROMPT_TYPES = ['active', 'suggested', 'pending', 'inactive', 'url_recommended'] as const;

export const Prompt = z
  .object({
    id: z.uuid(),
    project_id: z.uuid(),
    content: z.string(),
    prompt_type: z.enum(PROMPT_TYPES),
    topic_id: z.uuid().nullable(),
    country: z.string().nullable(),
    markets: z.array(MarketShape).meta({
      description:
        "Extension: the markets the prompt runs in, each a series of its own (its own samples, credits and figures); by default one, from the prompt's country (or the project's location) and the project's language",
    }),
    persona: z.string().nullable().meta({ description: "Extension: the asker's context, sent with the prompt as the engine's instructions where it takes them" }),
    visibility: z.number().nullable(),
    sentiment: z.number().int().nullable(),
    position: z.number().nullable(),
    volume: z.number().int().nullable(),
    cvr: z.number().nullable(),
    intent: z.enum(['informational', 'commercial', 'navigational', 'transactional']).nullable(),
    trend: z.enum(['up', 'down', 'stable']).nullable().meta({ description: TREND_DESCRIPTION }),
    created_at: IsoDate,
    ...UncertaintyShape,
  })
  .meta({ id: 'Prompt' });

export const PromptCreated = z
  .object({
    id: z.uuid(),
    projectId: z.uuid(),
    content: z.string(),
    promptType: z.string(),
    topicId: z.uuid().nullable(),
    country: z.string().nullable(),
    markets: z.array(MarketShape),
    persona: z.string().nullable(),
    createdAt: IsoDate,
  })
  .meta({ id: 'PromptCreated' });

const Country = z
  .string({ error: 'country must be a two-letter ISO country code' })
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'country must be a two-letter ISO country code')
  .transform((v) => v.toUpperCase());

const Content = z.string().max(1000, 'prompt content must be at most 1000 characters');

const MARKETS_ERROR = `markets must be a list of 1 to ${MAX_MARKETS_PER_PROMPT} {country, language} objects, such as [{"country": "US", "language": "en"}]`;
const MarketInput = z.strictObject(
  {
    country: z
      .string({ error: 'a market country must be a two-letter ISO country code' })
      .trim()
      .regex(/^[A-Za-z]{2}$/, 'a market country must be a two-letter ISO country code')
      .transform((v) => v.toUpperCase()),
    language: z
      .string({ error: 'a market language must be a two- or three-letter ISO 639 language code' })
      .trim()
      .regex(/^[A-Za-z]{2,3}$/, 'a market language must be a two- or three-letter ISO 639 language code')
      .transform((v) => v.toLowerCase()),
  },
  { error: MARKETS_ERROR },
);
/** A prompt's markets: 1 to MAX_MARKETS_PER_PROMPT, each once; null in a PATCH: back to the default. */
const Markets = z
  .array(MarketInput, { error: MARKETS_ERROR })
  .min(1, MARKETS_ERROR)
  .max(MAX_MARKETS_PER_PROMPT, MARKETS_ERROR)
  .refine((list) => new Set(list.map(marketCode)).size === list.length, 'markets must not name the same market twice');
const Persona = z
  .string({ error: 'persona must be a string of at most 500 characters' })
  .trim()
  .max(500, 'persona must be a string of at most 500 characters')
  .transform((v) => (v === '' ? null : v));

export const CreatePromptsBody = z.strictObject({
  prompts: z
    .array(Content, { error: 'prompts must be an array of strings' })
    .min(1, 'prompts must contain 1 to 50 items')
    .max(50, 'prompts must contain 1 to 50 items')
    .refine((list) => list.every((p) => p.trim().length > 0), 'prompts must not contain empty or whitespace-only items'),
  topicId: z.uuid({ error: (iss) => (iss.input === undefined ? 'topicId is required' : 'topicId must be a UUID') }),
  country: Country.optional(),
  markets: Markets.optional(),
  persona: Persona.optional(),
});

export const PatchPromptBody = z.strictObject({
  content: Content.refine((v) => v.trim().length > 0, 'content must not be empty').optional(),
  country: Country.optional(),
  topicId: z.uuid({ error: 'topicId must be a UUID' }).optional(),
  promptType: z.enum(['Active', 'Inactive', 'Suggested'], { error: "promptType must be 'Active', 'Inactive' or 'Suggested'" }).optional(),
  markets: Markets.nullable().optional(),
  persona: Persona.nullable().optional(),
});

export const PromptParams = z.strictObject({ project_id: Uuid, prompt_id: Uuid });

export const ProjectMarket = z
  .object({
    market: z.string().meta({ description: 'COUNTRY-language, as the `market` query parameter takes it (`US-en`)' }),
    country: z.string(),
    language: z.string(),
    prompts: z.number().int().meta({ description: 'Active prompts running in this market' }),
  })
  .meta({ id: 'ProjectMarket' });
export const ProjectMarketsEnvelope = successEnvelopeSchema(z.array(ProjectMarket));

export const PromptListEnvelope = successEnvelopeSchema(z.object({ project_id: z.uuid(), total: z.number().int(), prompts: z.array(Prompt) }));
export const PromptEnvelope = successEnvelopeSchema(Prompt);
export const PromptsCreatedEnvelope = statusEnvelopeSchema(
  z.object({ projectId: z.uuid(), created: z.number().int(), prompts: z.array(PromptCreated) }),
);
export const PromptDeletedEnvelope = statusEnvelopeSchema(z.object({ promptId: z.uuid(), message: z.string() }));
