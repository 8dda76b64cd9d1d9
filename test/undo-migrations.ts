// Turning a store back into an older format, for the tests of the migrations that change it:
// the old tables and columns filled from the new ones as the old write path would have
// left them, and the migration's record removed, so that the next start applies it again.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { THEMES } from '../src/analysis/index.js';
import type { Store } from '../src/store/index.js';
import { MIGRATIONS_FOLDER } from '../src/store/migrations.js';

/** The bodies of GET `paths` as sent, each a 200: what a migration test compares byte for byte before and after. */
export async function bodiesOf(c: { get(path: string): Promise<{ statusCode: number; body: string }> }, paths: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of paths) {
    const res = await c.get(path);
    expect(res.statusCode, `${path} ${res.body}`).toBe(200);
    out[path] = res.body;
  }
  return out;
}

/** When drizzle recorded a migration (its journal's `when`): removing that row makes the next start apply it again. */
export function migrationMillis(tag: string): number {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string; when: number }> };
  const entry = journal.entries.find((e) => e.tag === tag);
  if (!entry) throw new Error(`no migration ${tag}`);
  return entry.when;
}

const BRAND_ARRAYS = ['brand_mentions', 'brand_counts', 'brand_position_sums', 'brand_sentiment_sums', 'brand_position_sq', 'brand_sentiment_sq'];

/**
 * The store as it was before 0014: project_brand_daily (a row per provider, day and brand
 * named) filled from project_daily's per-brand arrays, those arrays dropped. A number
 * without a competitor record (deleted) has no id to key its row by: left out, as every
 * read of the old table skipped a deleted competitor's rows.
 */
async function undo0014(store: Store): Promise<void> {
  await store.query(`CREATE TABLE "project_brand_daily" (
	"project_id" uuid NOT NULL REFERENCES "projects"("id") ON DELETE cascade, "provider" text NOT NULL, "day" date NOT NULL,
	"brand_id" uuid NOT NULL, "mentions" integer NOT NULL, "mention_count" integer NOT NULL, "position_sum" integer NOT NULL,
	"sentiment_sum" integer NOT NULL, "position_sq" integer DEFAULT 0 NOT NULL, "sentiment_sq" integer DEFAULT 0 NOT NULL)`);
  await store.query(`CREATE UNIQUE INDEX "project_brand_daily_key" ON "project_brand_daily" USING btree ("project_id","provider","day","brand_id")`);
  await store.query(
    `insert into project_brand_daily
     select d.project_id, d.provider, d.day, case when u.i = 1 then '00000000-0000-0000-0000-000000000000'::uuid else c.id end,
            u.mn, d.brand_counts[u.i], d.brand_position_sums[u.i], d.brand_sentiment_sums[u.i], d.brand_position_sq[u.i], d.brand_sentiment_sq[u.i]
       from project_daily d cross join lateral unnest(d.brand_mentions) with ordinality as u(mn, i)
            left join competitors c on c.project_id = d.project_id and c.brand_no = u.i - 1 and not c.is_own_brand and u.i > 1
      where u.mn > 0 and (u.i = 1 or c.id is not null)`,
  );
  await store.query(`alter table project_daily ${BRAND_ARRAYS.map((c) => `drop column ${c}`).join(', ')}`);
  await store.query(`delete from drizzle.__drizzle_migrations where created_at = $1`, [migrationMillis('0014_project_brand_arrays')]);
}

/**
 * The store as it was before 0015: project_domain_daily a row per provider, day and domain
 * (each day's domains read back from its text), project_domains and domain_sums_add dropped.
 */
async function undo0015(store: Store): Promise<void> {
  await store.query(`create table project_domain_rows as
    select d.project_id, d.provider, d.day, n.domain, x[i + 1]::smallint as category, x[i + 2] as citations, x[i + 3] as responses,
           x[i + 4] as citations_unmentioned
      from project_domain_daily d cross join lateral (select string_to_array(d.domains, ',')::int[] as x) a
           cross join lateral generate_series(1, cardinality(x), 5) as i
           join project_domains n on n.project_id = d.project_id and n.no = x[i]`);
  await store.query(`drop table project_domain_daily`);
  await store.query(`drop table project_domains`);
  await store.query(`drop function domain_sums_add(text, text)`);
  await store.query(`alter table project_domain_rows rename to project_domain_daily`);
  for (const c of ['project_id', 'provider', 'day', 'domain', 'category', 'citations', 'responses', 'citations_unmentioned']) {
    await store.query(`alter table project_domain_daily alter column ${c} set not null`);
  }
  await store.query(`ALTER TABLE "project_domain_daily" ADD CONSTRAINT "project_domain_daily_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action`);
  await store.query(`CREATE UNIQUE INDEX "project_domain_daily_key" ON "project_domain_daily" USING btree ("project_id","provider","day","domain")`);
  await store.query(`delete from drizzle.__drizzle_migrations where created_at = $1`, [migrationMillis('0015_domain_day_arrays')]);
}

/** The store as it was before 0016: no prompt_domain_monthly (the next start creates and fills it from the answers). */
async function undo0016(store: Store): Promise<void> {
  await store.query(`drop table prompt_domain_monthly`);
  await store.query(`delete from drizzle.__drizzle_migrations where created_at = $1`, [migrationMillis('0016_prompt_domain_monthly')]);
}

/** The store as it was before 0017: brand_sums_add the SQL function of 0012 (the same sums). */
async function undo0017(store: Store): Promise<void> {
  await store.query(`CREATE OR REPLACE FUNCTION "brand_sums_add"(a int[], b int[]) RETURNS int[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(coalesce(a[i], 0) + coalesce(b[i], 0) ORDER BY i), '{}'::int[])
    FROM generate_series(1, greatest(coalesce(array_length(a, 1), 0), coalesce(array_length(b, 1), 0))) AS i
$$`);
  await store.query(`delete from drizzle.__drizzle_migrations where created_at = $1`, [migrationMillis('0017_plpgsql_brand_sums')]);
}

/** The store as it was before 0018: no project_weekly and project_monthly, nor their functions (the next start fills them from project_daily). */
async function undo0018(store: Store): Promise<void> {
  await store.query(`drop table project_weekly`);
  await store.query(`drop table project_monthly`);
  await store.query(`drop aggregate brand_bits_agg(int[])`);
  await store.query(`drop aggregate brand_sums_agg(int[])`);
  await store.query(`drop function brand_bits_or(int[], int[])`);
  await store.query(`delete from drizzle.__drizzle_migrations where created_at = $1`, [migrationMillis('0018_project_buckets')]);
}

/** The key of each table before 0027 (the market is its last column since). */
const KEYS_BEFORE_0027: Array<[index: string, table: string, columns: string]> = [
  ['responses_prompt_provider_day_sample_key', 'responses', 'prompt_id, provider, day, sample'],
  ['credit_holds_key', 'credit_holds', 'prompt_id, provider, day, sample'],
  ['prompt_daily_key', 'prompt_daily', 'prompt_id, provider, day'],
  ['prompt_weekly_key', 'prompt_weekly', 'prompt_id, provider, week'],
  ['prompt_monthly_key', 'prompt_monthly', 'prompt_id, provider, month'],
  ['prompt_domain_monthly_key', 'prompt_domain_monthly', 'prompt_id, provider, month, domain'],
  ['theme_daily_key', 'theme_daily', 'prompt_id, brand_id, theme, day'],
  ['project_daily_key', 'project_daily', 'project_id, provider, day'],
  ['project_weekly_key', 'project_weekly', 'project_id, provider, week'],
  ['project_monthly_key', 'project_monthly', 'project_id, provider, month'],
  ['project_domain_daily_key', 'project_domain_daily', 'project_id, provider, day'],
  ['project_theme_daily_key', 'project_theme_daily', 'project_id, brand_id, day, theme'],
];

/** The store as it was before 0027: no markets (a store of one market per key, as the old write path left it). */
async function undo0027(store: Store): Promise<void> {
  for (const [index, table, columns] of KEYS_BEFORE_0027) {
    await store.query(`drop index ${index}`);
    await store.query(`alter table ${table} drop column market`);
    await store.query(`create unique index ${index} on ${table} using btree (${columns})`);
  }
  await store.query(`alter table prompts drop column markets, drop column persona`);
  await store.query(`drop table rollup_rebuilds`);
  await store.query(`drop function market_code(text, text)`);
  await store.query(`delete from drizzle.__drizzle_migrations where created_at = $1`, [migrationMillis('0027_markets')]);
}

/** The store as it was before 0028: responses a plain table again (primary key id), the same rows, indexes, keys and triggers. */
async function undo0028(store: Store): Promise<void> {
  await store.query(`create table responses_plain (like responses including defaults including storage)`);
  await store.query(`insert into responses_plain select * from responses`);
  await store.query(`drop table responses`);
  await store.query(`drop function responses_month_partition(date)`);
  await store.query(`alter table responses_plain rename to responses`);
  for (const statement of [
    `alter table responses add constraint responses_pkey primary key (id)`,
    `create unique index responses_prompt_provider_day_sample_key on responses using btree (prompt_id, provider, day, sample, market)`,
    `create index responses_project_day_idx on responses using btree (project_id, day)`,
    `create index responses_plain_body_idx on responses using btree (id) where get_byte(body, 0) = 0`,
    `alter table responses add constraint responses_project_id_projects_id_fk foreign key (project_id) references projects(id) on delete cascade`,
    `alter table responses add constraint responses_prompt_id_prompts_id_fk foreign key (prompt_id) references prompts(id) on delete cascade`,
    ...['insert', 'update', 'delete'].map(
      (op) =>
        `create trigger responses_${op === 'insert' ? 'inserted' : `${op}d`} after ${op} on responses referencing ${op === 'delete' ? 'old' : 'new'} table as changed for each statement execute function bump_analytics_version()`,
    ),
  ]) {
    await store.query(statement);
  }
  await store.query(`delete from drizzle.__drizzle_migrations where created_at = $1`, [migrationMillis('0028_responses_partitions')]);
}

/** Undoes a migration that only added tables and columns: drops them and forgets the migration. */
function dropAdded(tag: string, tables: string[], columns: Array<[table: string, column: string]>) {
  return async (store: Store): Promise<void> => {
    for (const table of tables) await store.query(`drop table ${table} cascade`);
    for (const [table, column] of columns) await store.query(`alter table ${table} drop column ${column} cascade`);
    await store.query(`delete from drizzle.__drizzle_migrations where created_at = $1`, [migrationMillis(tag)]);
  };
}

/** The store as it was before 0030: no market '*' rows in the prompt rollups, their project indexes without the market, no projects.market_totals. */
async function undo0030(store: Store): Promise<void> {
  for (const [table, bucket] of [['prompt_daily', 'day'], ['prompt_weekly', 'week'], ['prompt_monthly', 'month']]) {
    await store.query(`delete from ${table} where market = '*'`);
    await store.query(`drop index ${table}_project_idx`);
    await store.query(`create index ${table}_project_idx on ${table} using btree (project_id, provider, ${bucket})`);
  }
  await store.query(`alter table projects drop column market_totals`);
  await store.query(`delete from drizzle.__drizzle_migrations where created_at = $1`, [migrationMillis('0030_market_totals')]);
}

/** The store as it was before 0031: market '*' rows in the prompt rollups only, no domain_sums_agg. */
async function undo0031(store: Store): Promise<void> {
  for (const table of ['project_daily', 'project_weekly', 'project_monthly', 'project_domain_daily', 'prompt_domain_monthly']) {
    await store.query(`delete from ${table} where market = '*'`);
  }
  await store.query(`drop aggregate domain_sums_agg(text)`);
  await store.query(`delete from drizzle.__drizzle_migrations where created_at = $1`, [migrationMillis('0031_rollup_market_totals')]);
}

/** The store as it was before 0032: theme_daily a row per prompt, brand, theme, day and market. */
async function undo0032(store: Store): Promise<void> {
  await store.query(`create table theme_daily_rows (
    project_id uuid not null references projects(id) on delete cascade, prompt_id uuid not null references prompts(id) on delete cascade,
    brand_id uuid not null, theme text not null, day date not null, positive integer not null, neutral integer not null, negative integer not null,
    market text not null)`);
  await store.query(
    `insert into theme_daily_rows
     select t.project_id, t.prompt_id, t.brand_ids[i], ($1::text[])[t.counts[i][1] + 1], t.day, t.counts[i][2], t.counts[i][3], t.counts[i][4], t.market
       from theme_daily t cross join lateral generate_subscripts(t.brand_ids, 1) as i`,
    [THEMES],
  );
  await store.query(`drop table theme_daily`);
  await store.query(`alter table theme_daily_rows rename to theme_daily`);
  await store.query(`create unique index theme_daily_key on theme_daily using btree (prompt_id, brand_id, theme, day, market)`);
  await store.query(`create index theme_daily_project_idx on theme_daily using btree (project_id)`);
  await store.query(`delete from drizzle.__drizzle_migrations where created_at = $1`, [migrationMillis('0032_theme_daily_packed')]);
}

/** The store as it was before 0033: cited_pages unique on its URL and title whole, not on their digest. */
async function undo0033(store: Store): Promise<void> {
  await store.query(`drop index cited_pages_key`);
  await store.query(`drop function cited_page_key(text, text, integer, integer)`);
  await store.query(`alter table cited_pages add constraint cited_pages_key unique nulls not distinct (project_id, url, title, category, url_type)`);
  await store.query(`delete from drizzle.__drizzle_migrations where created_at = $1`, [migrationMillis('0033_cited_pages_digest_key')]);
}

/**
 * The store as it was before 0034: theme_daily's entries name their brand by id (brand_ids),
 * not number. An entry of a number no competitor holds any more (deleted) has no id: left out.
 */
async function undo0034(store: Store): Promise<void> {
  await store.query(`alter table theme_daily add column brand_ids uuid[]`);
  const entries = `(select i, case when t.counts[i][1] = 0 then '00000000-0000-0000-0000-000000000000'::uuid else c.id end as id
                      from generate_subscripts(t.counts, 1) as i
                           left join competitors c on c.project_id = t.project_id and c.brand_no = t.counts[i][1] and not c.is_own_brand and t.counts[i][1] > 0) e`;
  await store.query(
    `update theme_daily t set
       brand_ids = coalesce((select array_agg(e.id order by e.i) from ${entries} where e.id is not null), '{}'),
       counts = coalesce((select array_agg(array[t.counts[e.i][2], t.counts[e.i][3], t.counts[e.i][4], t.counts[e.i][5]]::smallint[] order by e.i)
                            from ${entries} where e.id is not null), '{}')`,
  );
  await store.query(`alter table theme_daily alter column brand_ids set not null`);
  await store.query(`delete from drizzle.__drizzle_migrations where created_at = $1`, [migrationMillis('0034_theme_daily_brand_numbers')]);
}

/** The store as it was before 0035: an answer names its brands by id (brand_ids uuid[]), their figures an int[]. */
async function undo0035(store: Store): Promise<void> {
  await store.query(
    `alter table responses add column brand_ids uuid[] default '{}'::uuid[] not null, add column brand_figures integer[] default '{}'::integer[] not null`,
  );
  // a number no competitor holds any more (deleted) has no id: its brand left out
  const named = `(select b.i, case when b.no = 0 then '00000000-0000-0000-0000-000000000000'::uuid else c.id end as id
                    from unnest(r.brand_nos) with ordinality as b(no, i)
                         left join competitors c on c.project_id = r.project_id and c.brand_no = b.no and not c.is_own_brand and b.no > 0) e`;
  await store.query(
    `update responses r set
       brand_ids = coalesce((select array_agg(e.id order by e.i) from ${named} where e.id is not null), '{}'),
       brand_figures = coalesce((select array_agg(r.brand_stats[3 * (e.i - 1) + k]::int order by e.i, k)
                                   from ${named} cross join generate_series(1, 3) as k where e.id is not null), '{}')
     where cardinality(r.brand_nos) > 0`,
  );
  await store.query(`alter table responses drop column brand_nos, drop column brand_stats`);
  await store.query(`alter table responses rename column brand_figures to brand_stats`);
  await store.query(`delete from drizzle.__drizzle_migrations where created_at = $1`, [migrationMillis('0035_responses_brand_numbers')]);
}

/** The store as it was before 0036: domain_sums_add the SQL function of 0015 (the same entries), its aggregate over it. */
async function undo0036(store: Store): Promise<void> {
  await store.query(`drop aggregate domain_sums_agg(text)`);
  await store.query(`drop function domain_sums_add(text, text)`);
  await store.query(`alter function domain_sums_add_any(text, text) rename to domain_sums_add`);
  await store.query(`create aggregate domain_sums_agg(text) (sfunc = domain_sums_add, stype = text, initcond = '')`);
  await store.query(`delete from drizzle.__drizzle_migrations where created_at = $1`, [migrationMillis('0036_plpgsql_domain_sums')]);
}

/** Each migration a test can undo, oldest first; the newest migration must be here (undoThrough checks). */
const UNDO: Array<[tag: string, undo: (store: Store) => Promise<void>]> = [
  ['0014_project_brand_arrays', undo0014],
  ['0015_domain_day_arrays', undo0015],
  ['0016_prompt_domain_monthly', undo0016],
  ['0017_plpgsql_brand_sums', undo0017],
  ['0018_project_buckets', undo0018],
  [
    '0019_alerts',
    dropAdded('0019_alerts', ['alert_events', 'alert_rules', 'shared_reports'], [['deliveries', 'alert_event_id'], ['team_members', 'digest']]),
  ],
  ['0020_crawler_logs', dropAdded('0020_crawler_logs', ['ai_referrals_daily', 'crawler_hits_daily', 'crawler_log_files', 'site_audits'], [])],
  ['0021_theme_rollups', dropAdded('0021_theme_rollups', ['theme_daily', 'project_theme_daily'], [])],
  ['0022_project_sampling', dropAdded('0022_project_sampling', [], [['projects', 'sampling']])],
  ['0023_crawler_log_drains', dropAdded('0023_crawler_log_drains', ['crawler_log_drains'], [])],
  ['0024_favicons', dropAdded('0024_favicons', ['favicons'], [])],
  ['0025_engine_model_daily', dropAdded('0025_engine_model_daily', ['engine_model_daily'], [])],
  ['0026_project_sampling_margin', dropAdded('0026_project_sampling_margin', [], [['projects', 'sampling_margin']])],
  ['0027_markets', undo0027],
  ['0028_responses_partitions', undo0028],
  ['0029_answer_model_judgement', dropAdded('0029_answer_model_judgement', [], [['responses', 'model_judgement']])],
  ['0030_market_totals', undo0030],
  ['0031_rollup_market_totals', undo0031],
  ['0032_theme_daily_packed', undo0032],
  ['0033_cited_pages_digest_key', undo0033],
  ['0034_theme_daily_brand_numbers', undo0034],
  ['0035_responses_brand_numbers', undo0035],
  ['0036_plpgsql_domain_sums', undo0036],
];

/**
 * The store as it was before migration `tag`: it and every later migration undone, newest
 * first (drizzle applies the migrations after the newest one it recorded, so a migration is
 * applied again at the next start only with every later one undone as well).
 */
export async function undoThrough(store: Store, tag: string): Promise<void> {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
  const newest = journal.entries.at(-1)?.tag;
  if (UNDO.at(-1)?.[0] !== newest) throw new Error(`migration ${newest} has no undo in test/undo-migrations.ts`);
  const from = UNDO.findIndex(([t]) => t === tag);
  if (from < 0) throw new Error(`no undo for migration ${tag}`);
  for (const [, undo] of UNDO.slice(from).reverse()) await undo(store);
}
