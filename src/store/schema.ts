import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

// One schema for both stores (PGlite and PostgreSQL); drizzle-kit writes the migrations
// in ./migrations from this file. Every row below a team carries team_id or hangs off a
// project that does, so every query can be scoped by the caller's team.

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
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('competitors_project_domain_key').on(t.projectId, t.domain),
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
