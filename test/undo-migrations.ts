// Turning a store back into an older format, for the tests of the migrations that change it:
// the old tables and columns filled from the new ones as the old write path would have
// left them, and the migration's record removed, so that the next start applies it again.
import fs from 'node:fs';
import path from 'node:path';
import type { Store } from '../src/store/index.js';
import { MIGRATIONS_FOLDER } from '../src/store/migrations.js';

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
export async function undo0014(store: Store): Promise<void> {
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
