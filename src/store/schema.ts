import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  date,
  smallint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

// One schema for both stores (PGlite and PostgreSQL); drizzle-kit writes the migrations
// in ./migrations from this file. Every row below a team carries team_id or hangs off a
// project that does, so every query can be scoped by the caller's team.

/** Bytes (PostgreSQL bytea); drizzle-orm has no built-in type for it. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const teams = pgTable('teams', {
  id: uuid('id').primaryKey().defaultRandom(),
  plan: text('plan').notNull().default('skip_trial'),
  rateLimitTier: text('rate_limit_tier').notNull().default('standard'),
  createdAt: createdAt(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').notNull().default('admin'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name'),
    keyHash: text('key_hash').notNull(),
    keyPrefix: text('key_prefix').notNull(),
    keyEncrypted: text('key_encrypted').notNull(),
    scope: text('scope').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('api_keys_hash_key').on(t.keyHash), index('api_keys_team_idx').on(t.teamId)],
);

export const creditUsage = pgTable(
  'credit_usage',
  {
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    month: text('month').notNull(), // YYYY-MM, UTC
    used: integer('used').notNull().default(0),
  },
  (t) => [uniqueIndex('credit_usage_pk').on(t.teamId, t.month)],
);

export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    brandName: text('brand_name'),
    websiteUrl: text('website_url'),
    domain: text('domain'),
    location: text('location'),
    language: text('language'),
    brandAliases: jsonb('brand_aliases').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    status: text('status').notNull().default('initializing'),
    statusError: text('status_error'),
    webhookUrl: text('webhook_url'),
    providers: jsonb('providers').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** How many times each prompt is asked of each provider in one run (plan maximum applies). */
    samplesPerRun: smallint('samples_per_run').notNull().default(1),
    /** `fixed` (every prompt the same samples) or `adaptive` (the same credits where intervals are widest). */
    sampling: text('sampling').notNull().default('fixed'),
    /** The ± points adaptive sampling aims each prompt's 95% interval at (1 to 25). */
    samplingMargin: real('sampling_margin').notNull().default(5),
    /** The last brand number given to a competitor of the project (competitors.brand_no; never reused). */
    brandSeq: smallint('brand_seq').notNull().default(0),
    /** The prompt rollups hold market '*' rows (every market summed) for the whole history (src/modules/rollups/market-totals.ts). */
    marketTotals: boolean('market_totals').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('projects_team_idx').on(t.teamId, t.createdAt)],
);

export const topics = pgTable(
  'topics',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    nameKey: text('name_key').notNull(),
    description: text('description'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('topics_project_name_key').on(t.projectId, t.nameKey)],
);

export const prompts = pgTable(
  'prompts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    topicId: uuid('topic_id').references(() => topics.id, { onDelete: 'set null' }),
    content: text('content').notNull(),
    contentKey: text('content_key').notNull(),
    promptType: text('prompt_type').notNull().default('active'),
    country: text('country'),
    intent: text('intent'),
    /** The markets the prompt runs in ([{country, language}], lib/markets.ts); null: one, from its country (or the project's location) and the project's language. */
    markets: jsonb('markets').$type<Array<{ country: string; language: string }>>(),
    /** The asker's context, sent with the prompt where the engine takes instructions. */
    persona: text('persona'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('prompts_project_content_key').on(t.projectId, t.contentKey),
    index('prompts_project_created_idx').on(t.projectId, t.createdAt),
    index('prompts_team_type_idx').on(t.teamId, t.promptType),
  ],
);

export const competitors = pgTable(
  'competitors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    website: text('website').notNull(),
    domain: text('domain').notNull(),
    aliases: jsonb('aliases').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    state: text('state').notNull().default('active'),
    isOwnBrand: boolean('is_own_brand').notNull().default(false),
    /**
     * The brand's number in the project (1, 2, ...; 0 is the own brand in the rollups), given
     * on insert by a trigger from projects.brand_seq (migration 0012) and never reused: the
     * index of the brand in the prompt rollups' per-brand arrays.
     */
    brandNo: smallint('brand_no').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('competitors_project_domain_key').on(t.projectId, t.domain),
    uniqueIndex('competitors_project_brand_no_key').on(t.projectId, t.brandNo),
    index('competitors_project_idx').on(t.projectId, t.createdAt),
  ],
);

export const webhooks = pgTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    secretEncrypted: text('secret_encrypted').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('webhooks_team_url_key').on(t.teamId, t.url)],
);

/** Small server-wide values that must survive restarts (generated secrets). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

// ---------------------------------------------------------------------------------------
// Collection: raw answers (written once, analysed once) and the daily rollups every
// analytics endpoint reads. A response is one provider's answer to one prompt on one day,
// hence the unique key; rollups are incremented in the same transaction as the answer.
// Every rollup keeps a row per provider and one more with provider '*' (all providers
// summed), so a read without a provider filter touches a fifth of the rows.

/** The sums every answer adds to the rollups of responses (prompt and project levels). */
const answerSums = () => ({
  responses: integer('responses').notNull(),
  mentioned: integer('mentioned').notNull(),
  positionSum: integer('position_sum').notNull(),
  sentimentSum: integer('sentiment_sum').notNull(),
  citesOwn: integer('cites_own').notNull(),
  citations: integer('citations').notNull(),
  /** Sums of squares of position and sentiment (mentioning responses): the t intervals' variance. */
  positionSq: integer('position_sq').notNull().default(0),
  sentimentSq: integer('sentiment_sq').notNull().default(0),
});

/**
 * The per-brand sums of a prompt rollup row, indexed by brand number + 1 (own brand first,
 * then competitors.brand_no; trailing brands not named are left out): responses naming the
 * brand, and times named. Their position and sentiment sums live per project only
 * (projectBrandArrays on project_daily); prompt deletion takes them from the prompt's answers.
 */
const brandArrays = () => ({
  brandMentions: integer('brand_mentions').array().notNull().default(sql`'{}'::int[]`),
  brandCounts: integer('brand_counts').array().notNull().default(sql`'{}'::int[]`),
});

/**
 * The per-brand sums of a project_daily row, indexed as brandArrays: those two, and the
 * sums of position and sentiment (and of their squares) over the responses naming the brand.
 */
const projectBrandArrays = () => ({
  ...brandArrays(),
  brandPositionSums: integer('brand_position_sums').array().notNull().default(sql`'{}'::int[]`),
  brandSentimentSums: integer('brand_sentiment_sums').array().notNull().default(sql`'{}'::int[]`),
  brandPositionSq: integer('brand_position_sq').array().notNull().default(sql`'{}'::int[]`),
  brandSentimentSq: integer('brand_sentiment_sq').array().notNull().default(sql`'{}'::int[]`),
});

/** The leading columns of the per-prompt tables (answers and their rollups). */
const promptKey = () => ({
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  promptId: uuid('prompt_id').notNull().references(() => prompts.id, { onDelete: 'cascade' }),
  provider: text('provider').notNull(),
});
/** The market of a rollup row (`US-en`): the last column of every rollup's key (migration 0027). */
const marketKey = () => ({ market: text('market').notNull() });

/**
 * Partitioned by month on `day` (migration 0028: a partition per month, made before its first
 * answer; a month past the retention dropped whole, docs/retention.md). Hence the primary
 * key (id, day): a partitioned table's unique keys hold the partition key.
 */
export const responses = pgTable(
  'responses',
  {
    id: uuid('id').notNull().defaultRandom(),
    ...promptKey(),
    day: date('day', { mode: 'string' }).notNull(),
    /** Which of the run's samples this answer is (1 to the project's samples_per_run). */
    sample: smallint('sample').notNull().default(1),
    /** The market the answer was asked in, `US-en` (lib/markets.ts): (prompt, market) is a series. */
    market: text('market').notNull(),
    collectedAt: timestamp('collected_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    model: text('model').notNull(),
    simulated: boolean('simulated').notNull(),
    /**
     * The answer's text, references and raw provider body, as one packed JSON array
     * `[text, references, raw]` (lib/packed-json.ts; read through modules/answers/answer-body.ts).
     */
    body: bytea('body').notNull(),
    mentioned: boolean('mentioned').notNull(),
    position: integer('position'),
    sentiment: integer('sentiment'),
    /**
     * Tracked brands named, by position (first named first), by number (competitors.brand_no,
     * own brand 0; migration 0035, which replaced brand_ids uuid[]).
     */
    brandNos: smallint('brand_nos').array().notNull().default(sql`'{}'::smallint[]`),
    /** Per brand of brand_nos, in its order: position, count, sentiment (modules/answers/answer-brands.ts). */
    brandStats: smallint('brand_stats').array().notNull().default(sql`'{}'::smallint[]`),
    citesOwn: boolean('cites_own').notNull(),
    citationCount: integer('citation_count').notNull(),
    /** The URLs cited (deduplicated, in the answer's order): ids of cited_pages rows. */
    cited: integer('cited').array().notNull().default(sql`'{}'::integer[]`),
    /** The market sent to the engine: {country, language}, null where it took none; null for simulated answers. */
    sent: jsonb('sent'),
    /** What the vendor reported using: {input_tokens, output_tokens, searches, cost_usd}, each when reported. */
    usage: jsonb('usage'),
    /**
     * What the analysis model (ANALYSIS_MODEL) judged of the answer: {by, bands: {brand id: band},
     * tokens} (analysis/model.ts); null when the lexicon alone read it.
     */
    modelJudgement: jsonb('model_judgement'),
  },
  (t) => [
    primaryKey({ name: 'responses_pkey', columns: [t.id, t.day] }),
    uniqueIndex('responses_prompt_provider_day_sample_key').on(t.promptId, t.provider, t.day, t.sample, t.market),
    index('responses_project_day_idx').on(t.projectId, t.day),
    // Empty once the start after migration 0013 has compressed the bodies it wrote plain (store/answer-bodies.ts).
    index('responses_plain_body_idx').on(t.id).where(sql`get_byte(${t.body}, 0) = 0`),
  ],
);

/**
 * The pages a project's answers cite, one row per (url, title, category, page type) seen:
 * an answer keeps only their ids (responses.cited), so a URL cited in thousands of answers
 * is stored once.
 */
export const citedPages = pgTable(
  'cited_pages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    domain: text('domain').notNull(),
    title: text('title').notNull(),
    category: smallint('category').notNull(),
    urlType: smallint('url_type'),
  },
  // unique on the project and a digest of the other four (migration 0033), not the URL and title whole
  (t) => [uniqueIndex('cited_pages_key').on(t.projectId, sql`cited_page_key(${t.url}, ${t.title}, ${t.category}, ${t.urlType})`)],
);

/** Per prompt, provider and day. */
export const promptDaily = pgTable(
  'prompt_daily',
  {
    ...marketKey(),
    ...promptKey(),
    day: date('day', { mode: 'string' }).notNull(),
    ...answerSums(),
    ...brandArrays(),
  },
  (t) => [
    uniqueIndex('prompt_daily_key').on(t.promptId, t.provider, t.day, t.market),
    index('prompt_daily_project_idx').on(t.projectId, t.provider, t.day, t.market),
  ],
);

/**
 * The same sums per prompt, provider and week (Monday, UTC), and below per month: a
 * window is read as a few months, weeks and days (coverWindow in
 * src/modules/rollups/buckets.ts), so a long window costs a fraction of the rows.
 * Every rollup's columns and encodings: src/modules/rollups/README.md.
 */
export const promptWeekly = pgTable(
  'prompt_weekly',
  {
    ...marketKey(),
    ...promptKey(),
    week: date('week', { mode: 'string' }).notNull(),
    ...answerSums(),
    ...brandArrays(),
  },
  (t) => [
    uniqueIndex('prompt_weekly_key').on(t.promptId, t.provider, t.week, t.market),
    index('prompt_weekly_project_idx').on(t.projectId, t.provider, t.week, t.market),
  ],
);

/** prompt_daily's sums per month (the 1st, UTC). */
export const promptMonthly = pgTable(
  'prompt_monthly',
  {
    ...marketKey(),
    ...promptKey(),
    month: date('month', { mode: 'string' }).notNull(),
    ...answerSums(),
    ...brandArrays(),
  },
  (t) => [
    uniqueIndex('prompt_monthly_key').on(t.promptId, t.provider, t.month, t.market),
    index('prompt_monthly_project_idx').on(t.projectId, t.provider, t.month, t.market),
  ],
);

/**
 * The domains a prompt's answers cite, per provider and month (the 1st, UTC): the prompt's
 * domains endpoint reads the window's whole months here and only the days around them from
 * the answers (a weekly level as well would cost more storage per answer than it saves). `responses` counts the answers citing the domain
 * (one per answer), `mentioned` those of them naming the own brand; `brands` has bit n set
 * when a citing answer named the brand of number n (competitors.brand_no, own brand 0;
 * numbers from 31 on are not kept, and a project tracking one reads its answers instead).
 */
const promptDomainColumns = () => ({
  domain: text('domain').notNull(),
  category: smallint('category').notNull(),
  citations: integer('citations').notNull(),
  responses: integer('responses').notNull(),
  mentioned: integer('mentioned').notNull(),
  brands: integer('brands').notNull(),
});

export const promptDomainMonthly = pgTable(
  'prompt_domain_monthly',
  {
    ...marketKey(),
    ...promptKey(),
    month: date('month', { mode: 'string' }).notNull(),
    ...promptDomainColumns(),
  },
  (t) => [uniqueIndex('prompt_domain_monthly_key').on(t.promptId, t.provider, t.month, t.domain, t.market)],
);

/**
 * A counter per project, raised by triggers (migration 0005) in every transaction that
 * changes what its analytics show: answers, prompts, topics, competitors, the project.
 * Cached analytics responses are valid for one version (src/http/read-cache.ts).
 */
export const analyticsVersions = pgTable('analytics_versions', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  version: bigint('version', { mode: 'number' }).notNull(),
});

/**
 * Per project, provider and day: the answers' sums and, per tracked brand named, its sums
 * (one row per day holds every brand: the visibility trend and the competitor figures read
 * a row per day, as a snapshot table would).
 */
export const projectDaily = pgTable(
  'project_daily',
  {
    ...marketKey(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    ...answerSums(),
    ...projectBrandArrays(),
  },
  (t) => [uniqueIndex('project_daily_key').on(t.projectId, t.provider, t.day, t.market)],
);

/**
 * project_daily summed per week (Monday, UTC) and per month (the 1st), per-brand arrays
 * included, with `brand_days`: per brand number, bit n set when the brand was named on day
 * n of the bucket (0 = its first day; a month's 31 days fit an int), so the days a brand
 * was named on by any of several providers are the bits of their masks OR'd. A window's
 * brand sums read its whole months and weeks here and only the days around them from
 * project_daily (rollups/project-reads.ts): a year is about 20 rows instead of 365.
 */
const projectBucketColumns = () => ({
  projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
  provider: text('provider').notNull(),
});
const brandDays = () => ({ brandDays: integer('brand_days').array().notNull().default(sql`'{}'::int[]`) });

export const projectWeekly = pgTable(
  'project_weekly',
  {
    ...marketKey(),
    ...projectBucketColumns(),
    week: date('week', { mode: 'string' }).notNull(),
    ...answerSums(),
    ...projectBrandArrays(),
    ...brandDays(),
  },
  (t) => [uniqueIndex('project_weekly_key').on(t.projectId, t.provider, t.week, t.market)],
);

export const projectMonthly = pgTable(
  'project_monthly',
  {
    ...marketKey(),
    ...projectBucketColumns(),
    month: date('month', { mode: 'string' }).notNull(),
    ...answerSums(),
    ...projectBrandArrays(),
    ...brandDays(),
  },
  (t) => [uniqueIndex('project_monthly_key').on(t.projectId, t.provider, t.month, t.market)],
);

/**
 * The domains a project's answers cite, numbered per project (1, 2, ... as first stored,
 * a batch's new ones by name), kept while the project lasts (a number never changes its
 * domain, re-analysis included): project_domain_daily names them by number.
 */
export const projectDomains = pgTable(
  'project_domains',
  {
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    no: integer('no').notNull(),
    domain: text('domain').notNull(),
  },
  (t) => [uniqueIndex('project_domains_key').on(t.projectId, t.domain), uniqueIndex('project_domains_no_key').on(t.projectId, t.no)],
);

/**
 * Per project, provider and day: each domain cited that day as five ints in `domains`, by
 * domain number ascending: number, category, citations, responses, citations_unmentioned
 * (unmentioned: citations in responses that do not name the own brand, for opportunities;
 * category: the lowest id seen, as the reads take min(category)). One row per day instead
 * of one per domain: a year's window is 365 rows (rollups/domain-days.ts). The ints are
 * kept as decimal text ('3,0,12,9,4,...'): a read ships it as it is stored, where an int[]
 * is converted int by int, and it is smaller.
 */
export const projectDomainDaily = pgTable(
  'project_domain_daily',
  {
    ...marketKey(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    domains: text('domains').notNull(),
  },
  (t) => [uniqueIndex('project_domain_daily_key').on(t.projectId, t.provider, t.day, t.market)],
);

/** Credits spent per team and UTC month: one per stored answer. */
export const creditHolds = pgTable(
  'credit_holds',
  {
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    month: text('month').notNull(),
    promptId: uuid('prompt_id').notNull(),
    provider: text('provider').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    sample: smallint('sample').notNull().default(1),
    market: text('market').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('credit_holds_key').on(t.promptId, t.provider, t.day, t.sample, t.market), index('credit_holds_team_idx').on(t.teamId, t.month)],
);

/** Collection runs (bootstrap, daily refresh, on-demand): what was asked, stored and skipped. */
export const collectionRuns = pgTable(
  'collection_runs',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    planned: integer('planned').notNull().default(0),
    stored: integer('stored').notNull().default(0),
    skippedNoCredits: integer('skipped_no_credits').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('collection_runs_project_idx').on(t.projectId, t.createdAt)],
);

/**
 * Outbox of signed HTTP deliveries (bootstrap callbacks and registered-webhook events).
 * Written in the transaction that makes the event, so none is lost to a restart.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(), // 'callback' | 'webhook'
    teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
    webhookId: text('webhook_id').references(() => webhooks.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    event: text('event').notNull(),
    messageId: text('message_id').notNull(),
    body: text('body').notNull(),
    status: text('status').notNull().default('pending'), // pending | delivered | failed
    attempts: integer('attempts').notNull().default(0),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    /** The alert event this delivery tells of (kinds 'webhook', 'slack', 'email'): its failures show on the event. */
    alertEventId: uuid('alert_event_id'),
  },
  (t) => [index('deliveries_status_idx').on(t.status, t.createdAt), index('deliveries_alert_event_idx').on(t.alertEventId)],
);

// ---------------------------------------------------------------------------------------
// Actions, recommendation tasks and content workflows.

export const actions = pgTable(
  'actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    priority: text('priority').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    category: text('category').notNull(),
    effort: text('effort'),
    expectedImpactMin: doublePrecision('expected_impact_min'),
    expectedImpactMax: doublePrecision('expected_impact_max'),
    status: text('status').notNull().default('suggested'),
    targets: jsonb('targets').$type<Array<{ type: string; value: string }>>().notNull().default(sql`'[]'::jsonb`),
    execution: jsonb('execution').notNull(),
    groupName: text('group_name'),
    dependsOn: jsonb('depends_on').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** 'manual' (POST /actions) or 'recommend' (the recommendation task). */
    source: text('source').notNull().default('manual'),
    /** What a recommendation is about; two open actions never share one. */
    fingerprint: text('fingerprint'),
    ignoreReason: text('ignore_reason'),
    ignoreFeedback: text('ignore_feedback'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('actions_project_idx').on(t.projectId, t.createdAt),
    uniqueIndex('actions_open_fingerprint_key')
      .on(t.projectId, t.fingerprint)
      .where(sql`fingerprint is not null and status in ('suggested', 'accepted', 'in_progress')`),
  ],
);

export const recommendationTasks = pgTable(
  'recommendation_tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('running'),
    itemCount: integer('item_count').notNull().default(0),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('recommendation_tasks_project_idx').on(t.projectId, t.createdAt)],
);

/** A content workflow: outline, draft and final, each paused at a checkpoint for approval. */
export const workflows = pgTable(
  'workflows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actionId: uuid('action_id').notNull().references(() => actions.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    /** running | awaiting_approval | completed | failed | rejected */
    status: text('status').notNull().default('running'),
    /** The step being written or waiting: outline | draft | final. */
    step: text('step').notNull().default('outline'),
    /** Checkpoint waiting for a reply (null while a step is being written). */
    checkpoint: text('checkpoint'),
    /** Approved or edited text of each step, and the feedback for a regeneration. */
    outline: text('outline'),
    draft: text('draft'),
    final: text('final'),
    title: text('title'),
    feedback: text('feedback'),
    /** Increments on every move: a step's job carries the version it was queued for. */
    version: integer('version').notNull().default(0),
    result: jsonb('result'),
    error: text('error'),
    writer: text('writer'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('workflows_action_idx').on(t.actionId, t.createdAt),
    uniqueIndex('workflows_one_open_per_action')
      .on(t.actionId)
      .where(sql`status in ('running', 'awaiting_approval')`),
  ],
);

/**
 * Dashboard sign-ins: a cookie holds a random token, this row its hash. A session acts
 * with one API key's scope, tier and credits (the account's admin key for an email
 * sign-in, the given key for a key sign-in); deactivating that key ends the session too.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    keyId: uuid('key_id').notNull().references(() => apiKeys.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    /** admin | viewer: never more than the key's own scope. */
    scope: text('scope').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('sessions_token_key').on(t.tokenHash), index('sessions_team_idx').on(t.teamId)],
);

/**
 * People of a team and their role (admin | viewer). A user may belong to several teams;
 * users.team_id stays the team their account was created with. The last-admin rule is
 * checked under a lock on the team row (modules/team/members.ts).
 */
export const teamMembers = pgTable(
  'team_members',
  {
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    /** Opted in to the weekly digest e-mail of this team. */
    digest: boolean('digest').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('team_members_pk').on(t.teamId, t.userId), index('team_members_user_idx').on(t.userId)],
);

/** Invitations: the link's token is never stored, only its SHA-256 hash; single-use, 7 days. */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    acceptedBy: uuid('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('invitations_token_key').on(t.tokenHash), index('invitations_team_idx').on(t.teamId, t.createdAt)],
);

/** One-time password-reset links made by the operator CLI; only the token's hash is kept. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('password_resets_token_key').on(t.tokenHash)],
);

/**
 * Who wrote what: one row per successful write of a person or key, kept 400 days. Never a
 * secret: ids, the route's action name, the client address and the request id only.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    actorUserId: uuid('actor_user_id'),
    actorKeyId: uuid('actor_key_id'),
    /** The actor as shown: the user's email, or the key's prefix. */
    actorLabel: text('actor_label').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    ip: text('ip'),
    requestId: text('request_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_team_idx').on(t.teamId, t.createdAt),
    index('audit_log_created_idx').on(t.createdAt),
  ],
);

/**
 * Crawler logs (issue 28): each ingested log file once, by the SHA-256 of its uncompressed
 * bytes, so a re-sent file adds nothing. Its lines are not kept, only the counts below.
 */
export const crawlerLogFiles = pgTable(
  'crawler_log_files',
  {
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    sha256: text('sha256').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    lines: integer('lines').notNull(),
    parsed: integer('parsed').notNull(),
    rejected: integer('rejected').notNull(),
    botHits: integer('bot_hits').notNull(),
    referrals: integer('referrals').notNull(),
    ingestedAt: timestamp('ingested_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.sha256] })],
);

/**
 * Log-drain URLs: a CDN (Cloudflare Logpush, a Vercel log drain) pushes a project's access
 * logs to PUBLIC_URL/v1/crawler-log-drains/{token}. The token is never stored, only its
 * SHA-256 hash; `token_prefix` tells drains apart in a list.
 */
export const crawlerLogDrains = pgTable(
  'crawler_log_drains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name'),
    tokenHash: text('token_hash').notNull(),
    tokenPrefix: text('token_prefix').notNull(),
    /** Sent back as `x-vercel-verify` on every answer of the drain (Vercel's ownership check). */
    vercelVerify: text('vercel_verify'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('crawler_log_drains_token_key').on(t.tokenHash), index('crawler_log_drains_project_idx').on(t.projectId)],
);

/** AI crawler requests per project, day, page and agent; verified: from the operator's published addresses. */
export const crawlerHitsDaily = pgTable(
  'crawler_hits_daily',
  {
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    path: text('path').notNull(),
    agent: text('agent').notNull(),
    hits: integer('hits').notNull(),
    verifiedHits: integer('verified_hits').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.path, t.agent] })],
);

/** The models each engine answered a project's prompts with, per day (rollups/engine-models.ts). */
export const engineModelDaily = pgTable(
  'engine_model_daily',
  {
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    model: text('model').notNull(),
    answers: integer('answers').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.provider, t.day, t.model] })],
);

/** Visits referred by AI engines per project, day, landing page and engine (the referrer's host). */
export const aiReferralsDaily = pgTable(
  'ai_referrals_daily',
  {
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    path: text('path').notNull(),
    engine: text('engine').notNull(),
    visits: integer('visits').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.path, t.engine] })],
);

/**
 * Brand icons for the dashboard's favicon proxy (issue 24), one row per host name; a row
 * without a body is a negative entry (no usable icon). Fresh for a day from `fetched_at`.
 */
export const favicons = pgTable('favicons', {
  domain: text('domain').primaryKey(),
  contentType: text('content_type'),
  body: bytea('body'),
  etag: text('etag'),
  fetchedAt: timestamp('fetched_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Site audits (issue 28): one row per run; pages and findings as the API shows them. */
export const siteAudits = pgTable(
  'site_audits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    pages: jsonb('pages').notNull().default(sql`'[]'::jsonb`),
    findings: jsonb('findings').notNull().default(sql`'[]'::jsonb`),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index('site_audits_project_idx').on(t.projectId, t.createdAt)],
);

// ---------------------------------------------------------------------------------------
// Alerts, shared reports (issue 27).

/**
 * Alert rules of a project. `state` is what the last measured evaluation found (the
 * condition held or not; the brands or domains already told of), so an event fires once
 * per change and is not repeated while the condition holds.
 */
export const alertRules = pgTable(
  'alert_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    metric: text('metric').notNull(),
    condition: text('condition').notNull(),
    threshold: doublePrecision('threshold'),
    windowDays: integer('window_days').notNull().default(7),
    providers: jsonb('providers'),
    promptIds: jsonb('prompt_ids'),
    brandId: uuid('brand_id'),
    channels: jsonb('channels').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    state: jsonb('state'),
    evaluatedAt: timestamp('evaluated_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('alert_rules_project_idx').on(t.projectId, t.createdAt)],
);

/** Fired alert events: the figures, the test's p-value and the windows compared. */
export const alertEvents = pgTable(
  'alert_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    alertId: uuid('alert_id').notNull().references(() => alertRules.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    runId: uuid('run_id'),
    metric: text('metric').notNull(),
    condition: text('condition').notNull(),
    value: doublePrecision('value').notNull(),
    previous: doublePrecision('previous'),
    pValue: doublePrecision('p_value'),
    window: jsonb('window').notNull(),
    detail: jsonb('detail'),
    firedAt: timestamp('fired_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('alert_events_project_idx').on(t.projectId, t.firedAt), uniqueIndex('alert_events_rule_run_key').on(t.alertId, t.runId)],
);

/** Read-only report links: the token is never stored, only its SHA-256 hash. */
export const sharedReports = pgTable(
  'shared_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    windowDays: integer('window_days').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('shared_reports_token_key').on(t.tokenHash), index('shared_reports_project_idx').on(t.projectId)],
);

/** Counts of the answers by sentiment band toward a brand on a theme (src/modules/themes). */
const themeCounts = () => ({
  brandId: uuid('brand_id').notNull(),
  theme: text('theme').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  positive: integer('positive').notNull(),
  neutral: integer('neutral').notNull(),
  negative: integer('negative').notNull(),
});

/**
 * Per prompt, day and market: the answers speaking of each brand on each theme, by band.
 * What a prompt's deletion takes out of project_theme_daily; deleted with the prompt.
 * Entry i is `counts[i]` = {brand number (competitors.brand_no, own brand 0), theme number
 * (its index in THEMES), positive, neutral, negative} (migration 0032: one row per prompt,
 * day and market, not per entry; 0034: the brand by its number, not its id).
export const themeDaily = pgTable(
  'theme_daily',
  {
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    promptId: uuid('prompt_id').notNull().references(() => prompts.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    ...marketKey(),
    counts: smallint('counts').array().array().notNull(),
  },
  (t) => [uniqueIndex('theme_daily_key').on(t.promptId, t.day, t.market), index('theme_daily_project_idx').on(t.projectId)],
);

/**
 * The same per project (what GET /themes reads: a year is a few thousand rows per brand),
 * with up to 3 examples per row: `[{c: chat id, p: prompt id, b: band, e: excerpt}]`.
 */
export const projectThemeDaily = pgTable(
  'project_theme_daily',
  {
    ...marketKey(),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    ...themeCounts(),
    examples: jsonb('examples').notNull().default(sql`'[]'::jsonb`),
  },
  (t) => [uniqueIndex('project_theme_daily_key').on(t.projectId, t.brandId, t.day, t.theme, t.market)],
);

/** Projects whose rollups mix markets (stored before migration 0027): re-analysed at the next start (src/runtime.ts). */
export const rollupRebuilds = pgTable('rollup_rebuilds', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
});
