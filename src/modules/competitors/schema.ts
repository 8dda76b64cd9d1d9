import { z } from 'zod';
import { successEnvelopeSchema, statusEnvelopeSchema } from '../../lib/envelope.js';
import { normalizeWebsite } from '../../lib/url.js';
import { Ci, UncertaintyShape, Uuid } from '../common.js';
import { WindowQueryShape } from '../analytics/window.js';

const ALIASES_OUT =
  "Extension: other names of the competitor, matched in answers like its name (the own brand's record shows the project's brand_aliases)";

export const CompetitorMetrics = z
  .object({
    visibility: z.number().nullable(),
    sentiment: z.number().nullable(),
    position: z.number().nullable(),
    mention_count: z.number().int().nullable(),
    days_with_data: z.number().int().nullable(),
    period: z.string(),
    ...UncertaintyShape,
    share_of_voice: z.number().meta({
      description:
        "Extension: the brand's share of voice, its mentions as a percent of all mentions of tracked brands (own brand and active competitors) in the window; a mention is a response naming the brand, however often. 0 without mentions.",
    }),
    share_of_voice_ci: Ci("Extension: 95% Wilson score interval of share_of_voice, [low, high] in percent, 2 decimals; null when no tracked brand is mentioned."),
  })
  .meta({ id: 'CompetitorMetrics' });

export const Competitor = z
  .object({
    competitor_id: z.uuid(),
    project_id: z.uuid(),
    name: z.string(),
    website: z.string(),
    icon_url: z.string().nullable(),
    icon_urls: z.array(z.string()),
    state: z.string().nullable(),
    is_own_brand: z.boolean(),
    aliases: z.array(z.string()).meta({ description: ALIASES_OUT }),
    metrics: CompetitorMetrics.nullable(),
  })
  .meta({ id: 'Competitor' });

export const CompetitorCreated = z
  .object({
    competitorId: z.uuid(),
    projectId: z.uuid(),
    name: z.string(),
    website: z.string(),
    iconUrl: z.string().nullable(),
    iconUrls: z.array(z.string()),
    state: z.string(),
    isOwnBrand: z.boolean(),
    aliases: z.array(z.string()).meta({ description: ALIASES_OUT }),
    metrics: z.null(),
  })
  .meta({ id: 'CompetitorCreated' });

const Name = z.string({ error: 'name is required' }).trim().min(1, 'name must not be empty').max(200, 'name must be at most 200 characters');
const Website = z
  .string({ error: 'website is required' })
  .max(2048, 'website must be a valid domain or URL')
  .refine((v) => normalizeWebsite(v) !== null, 'website must be a valid domain or URL');

const Aliases = z
  .array(
    z.string({ error: 'aliases[] must be a string' }).trim().min(1, 'aliases[] must not be empty').max(100, 'aliases[] must be at most 100 characters'),
    { error: 'aliases must be an array of strings' },
  )
  .max(20, 'aliases must hold at most 20 names')
  .meta({
    description:
      'Extension: other names of the competitor ("Freshworks CRM", "Sendinblue"), matched in answers like its name; duplicates (any case) are dropped; on update the list replaces the old one',
  });

export const CreateCompetitorsBody = z.strictObject({
  competitors: z
    .array(z.strictObject({ name: Name, website: Website, aliases: Aliases.optional() }), { error: 'competitors must be an array of {name, website}' })
    .min(1, 'competitors must contain 1 to 20 items')
    .max(20, 'competitors must contain 1 to 20 items'),
});

export const PatchCompetitorBody = z.strictObject({ name: Name.optional(), website: Website.optional(), aliases: Aliases.optional() });

export const CompetitorParams = z.strictObject({ project_id: Uuid, competitor_id: Uuid });

export const CompetitorListEnvelope = successEnvelopeSchema(z.object({ active_competitors: z.array(Competitor), total_active: z.number().int() }));
export const CompetitorEnvelope = successEnvelopeSchema(Competitor);
export const CompetitorsCreatedEnvelope = statusEnvelopeSchema(
  z.object({ projectId: z.uuid(), created: z.number().int(), competitors: z.array(CompetitorCreated) }),
);
export const CompetitorDeletedEnvelope = statusEnvelopeSchema(z.object({ competitorId: z.uuid(), message: z.string() }));

export const SuggestionsQuery = z.strictObject({
  ...WindowQueryShape,
  limit: z.coerce
    .number({ error: 'limit must be an integer from 1 to 50' })
    .int('limit must be an integer from 1 to 50')
    .min(1, 'limit must be an integer from 1 to 50')
    .max(50, 'limit must be an integer from 1 to 50')
    .default(10),
});

export const CompetitorSuggestionsEnvelope = successEnvelopeSchema(
  z
    .object({
      project_id: z.uuid(),
      period: z.string(),
      answers_in_window: z.number().int().meta({ description: 'The answers of the window (over the providers asked for)' }),
      answers_read: z.number().int().meta({ description: 'The answers read for suggestions: the newest of the window, at most 2000' }),
      suggestions: z.array(
        z.object({
          name: z.string(),
          website: z.string().nullable().meta({ description: "The brand's domain, from the answers' citations; null when no answer cites one" }),
          answers: z.number().int().meta({ description: 'Answers read that name the brand' }),
          mentions: z.number().int().meta({ description: 'Times the brand is named in those answers' }),
          share_of_answers: z.number().meta({ description: 'answers as a percent of answers_read, 2 decimals' }),
        }),
      ),
    })
    .meta({ id: 'CompetitorSuggestions' }),
);
