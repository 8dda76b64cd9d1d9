import { z } from 'zod';
import { successEnvelopeSchema } from '../../lib/envelope.js';
import { Ci, IsoDate, UncertaintyShape, Uuid } from '../common.js';
import { SURFACES } from '../../ports/providers/types.js';
import { WindowQueryShape } from './window.js';

export const PromptParams = z.strictObject({ project_id: Uuid, prompt_id: Uuid });

const Page = {
  page: z.coerce.number({ error: 'page must be an integer of at least 1' }).int('page must be an integer of at least 1').min(1, 'page must be an integer of at least 1').default(1),
  page_size: z.coerce
    .number({ error: 'page_size must be an integer from 1 to 100' })
    .int('page_size must be an integer from 1 to 100')
    .min(1, 'page_size must be an integer from 1 to 100')
    .max(100, 'page_size must be an integer from 1 to 100')
    .default(50),
};
export const PagedWindowQuery = z.strictObject({ ...WindowQueryShape, ...Page });
export const OverviewQuery = z.strictObject({
  ...WindowQueryShape,
  prompt_type: z.enum(['active', 'suggested'], { error: "prompt_type must be 'active' or 'suggested'" }).default('active'),
});

const ProviderMetric = z
  .object({
    provider: z.string(),
    value: z.number(),
    n: z
      .number()
      .int()
      .meta({ description: "Extension: the responses the value rests on: the provider's responses of the day (visibility) or those that mention the brand (position, sentiment)." }),
    ci: Ci(
      'Extension: 95% interval of the value, [low, high], 2 decimals: Wilson score for visibility (percent), t interval of the mean for position and sentiment (null when n < 2).',
    ),
  })
  .meta({ id: 'ProviderMetric' });
const Chart = z.record(z.string(), z.array(ProviderMetric));

export const PromptAnalytics = successEnvelopeSchema(
  z.object({
    prompt_id: z.uuid(),
    prompt_content: z.string(),
    volume: z.number().int().nullable(),
    sentiment: z.number().int().nullable(),
    sentiment_ci: UncertaintyShape.sentiment_ci,
    visibility_chart: Chart,
    position_chart: Chart,
    sentiment_chart: Chart,
  }),
);

const BrandInfo = z.object({ name: z.string(), icon_url: z.string(), icon_urls: z.array(z.string()) }).meta({ id: 'BrandInfo' });
const Reference = z
  .object({ title: z.string(), link: z.string(), snippet: z.string(), reference_index: z.number().int() })
  .meta({ id: 'ReferenceItem' });

export const ChatItem = z
  .object({
    id: z.uuid(),
    date: IsoDate,
    mentioned: z.boolean(),
    position: z.number().int().nullable(),
    all_mentions: z.array(BrandInfo),
    chat_preview: z.string(),
    platform: z.string(),
    sample: z.int().meta({ description: "Which of the day's samples this answer is, 1 to the project's samples_per_run (extension)" }),
    model: z.string(),
    full_content: z.string(),
    prompt_content: z.string(),
    references: z.array(Reference),
    brands_mentioned: z.record(z.string(), z.object({ position: z.number().int(), count: z.number().int() })).nullable(),
    sentiment: z.number().int().nullable(),
    sentiment_by_brands: z.record(z.string(), z.number()).nullable(),
    search_queries: z.array(z.string()).meta({
      description:
        'Extension: the web searches the engine ran for this answer, each once, in the order run, where its API reports them (OpenAI and xAI web_search_call actions, Claude web_search tool calls, Gemini webSearchQueries); [] otherwise',
    }),
    surface: z.enum(SURFACES).meta({
      description: 'Extension: how the answer was obtained: api, api_search (a model API with its web search tool), serp (a search-result page through SerpApi) or ui (a consumer interface)',
    }),
    market: z.string().meta({ description: 'Extension: the market the answer was asked in, COUNTRY-language (`US-en`)' }),
    analyser: z
      .string()
      .optional()
      .meta({
        description:
          "Extension: the analysis model (ANALYSIS_MODEL, `<provider>:<model>`) whose judgement of the sentiment toward the brands named these figures carry; absent when the lexicon alone read the answer (the default)",
      }),
  })
  .meta({ id: 'ChatItem' });
export const Chats = successEnvelopeSchema(z.object({ items: z.array(ChatItem) }));

export const SearchQueryItem = z
  .object({
    query: z.string(),
    count: z.number().int().meta({ description: "Answers of the window whose engine ran this search" }),
    providers: z.array(z.string()).meta({ description: 'The engines that ran it, most runs first' }),
  })
  .meta({ id: 'SearchQueryItem' });
export const SearchQueries = successEnvelopeSchema(z.array(SearchQueryItem));

export const ModelChangeItem = z
  .object({
    provider: z.string(),
    day: z.string().meta({ description: 'The first day (UTC, YYYY-MM-DD) the engine answered with to_model' }),
    from_model: z.string().meta({ description: "The engine's model on its previous day with answers (the model behind most of that day's answers)" }),
    to_model: z.string().meta({ description: 'The model behind most of the answers of this day' }),
  })
  .meta({ id: 'ModelChange' });
export const ModelChanges = successEnvelopeSchema(z.array(ModelChangeItem));

export const SamplingPlanQuery = z.strictObject({
  ...WindowQueryShape,
  margin: z.coerce
    .number({ error: 'margin must be a number greater than 0 and at most 50' })
    .gt(0, 'margin must be a number greater than 0 and at most 50')
    .max(50, 'margin must be a number greater than 0 and at most 50')
    .default(5)
    .meta({ description: 'The wanted half-width of the 95% interval, in percentage points (default 5)' }),
});

export const SamplingPlanItem = z
  .object({
    prompt_id: z.uuid(),
    content: z.string(),
    responses: z.number().int().meta({ description: "The prompt's answers in the window" }),
    visibility: z.number().nullable().meta({ description: 'Percent of those answers naming the brand; null when there are none (unmeasured)' }),
    visibility_ci: Ci('95% Wilson interval of visibility, [low, high] in percent; null when responses is 0'),
    half_width: z.number().nullable().meta({ description: 'Half the width of visibility_ci, in percentage points; null when responses is 0' }),
    samples_needed: z.number().int().meta({
      description: 'Answers the window needs in all for a 95% Wilson interval of ±margin points at the observed proportion (0.5 when there are none)',
    }),
    credits_needed: z.number().int().meta({ description: 'Credits of the answers still missing (samples_needed − responses, at least 0; one credit an answer)' }),
    samples_per_run_needed: z.number().int().meta({
      description: 'Extension: samples per daily run of each engine that collect samples_needed over a window of the same length',
    }),
  })
  .meta({ id: 'SamplingPlanItem' });
export const SamplingPlan = successEnvelopeSchema(z.array(SamplingPlanItem));

export const DomainItem = z
  .object({
    domain: z.string(),
    domain_type: z.number().int(),
    citation_count: z.number().int(),
    avg_citations: z.number(),
    used_percentage: z.number(),
    mentioned: z.boolean(),
    brands_appeared: z.array(BrandInfo),
    favicon_url: z.string().nullable(),
    favicon_urls: z.array(z.string()),
  })
  .meta({ id: 'DomainItem' });
export const Domains = successEnvelopeSchema(z.object({ items: z.array(DomainItem) }));

export const UrlItem = z
  .object({
    url: z.string(),
    title: z.string(),
    domain: z.string(),
    url_type: z.number().int().nullable(),
    url_type_name: z.string(),
    mentioned_count: z.number().int(),
    brands_appear: z.array(BrandInfo),
    first_seen: IsoDate,
    last_seen: IsoDate,
  })
  .meta({ id: 'UrlItem' });
export const Urls = successEnvelopeSchema(z.object({ items: z.array(UrlItem) }));

export const OverviewItem = z
  .object({
    prompt_id: z.uuid(),
    content: z.string(),
    prompt_type: z.string(),
    created_at: IsoDate,
    topic_id: z.uuid().nullable(),
    topic_name: z.string().nullable(),
    visibility: z.number(),
    sentiment: z.number(),
    position: z.number(),
    volume: z.number().int().nullable(),
    intent: z.string().nullable(),
    cvr: z.number().nullable(),
    ...UncertaintyShape,
    competitors_mentioned: z.array(
      z.object({
        competitor_id: z.uuid(),
        name: z.string(),
        mention_count: z.number().int(),
        icon_url: z.string().nullable(),
        icon_urls: z.array(z.string()),
      }),
    ),
  })
  .meta({ id: 'OverviewItem' });
export const Overview = successEnvelopeSchema(z.object({ items: z.array(OverviewItem) }));

export const Visibility = successEnvelopeSchema(
  z.object({
    dates: z.array(z.string()),
    period: z.string(),
    series: z.array(
      z.object({
        competitor_id: z.uuid(),
        name: z.string(),
        website: z.string(),
        icon_url: z.string().nullable(),
        is_own_brand: z.boolean(),
        visibility: z.array(z.number().nullable()),
        sentiment: z.array(z.number().nullable()),
        position: z.array(z.number().nullable()),
        responses: z.array(z.number().int()).meta({ description: "Extension: the project's responses of each day, aligned to dates." }),
        visibility_ci: z
          .array(Ci('95% Wilson score interval of the day, [low, high] in percent, 2 decimals.'))
          .meta({ description: 'Extension: 95% Wilson score interval of each day\'s visibility, aligned to dates; null on a day without responses.' }),
        position_ci: z
          .array(Ci('95% t interval of the day\'s mean position.'))
          .meta({ description: 'Extension: 95% t interval of each day\'s mean position, aligned to dates; null below 2 responses that mention the brand.' }),
        sentiment_ci: z
          .array(Ci('95% t interval of the day\'s mean sentiment.'))
          .meta({ description: 'Extension: 95% t interval of each day\'s mean sentiment, aligned to dates; null below 2 responses that mention the brand.' }),
      }),
    ),
  }),
);

export const PromptSeries = successEnvelopeSchema(
  z
    .object({
      project_id: z.uuid(),
      dates: z.array(z.string()).meta({ description: 'Every day of the window, oldest first (YYYY-MM-DD, UTC)' }),
      prompts: z.array(
        z.object({
          prompt_id: z.uuid(),
          visibility: z
            .array(z.number().nullable())
            .meta({ description: "The prompt's visibility of each day over the providers asked for, in percent, aligned to dates; null on a day without responses" }),
          responses: z.array(z.number().int()).meta({ description: 'The responses each day rests on, aligned to dates' }),
        }),
      ),
    })
    .meta({ id: 'PromptSeries' }),
);
