// Migration 0013 moves each answer's text, references and raw body into one packed
// `responses.body` and its citation rows into ids of a per-project page dictionary
// (responses.cited, cited_pages). This stores answers through the write path, reads every
// endpoint that shows them, then turns the store back into the 0012 format (the columns and
// the citations table as the old write path filled them, 0015 and 0014 undone and 0013
// unrecorded), starts again (migrations, then the compression of the plain bodies) and reads
// every endpoint again: each body byte for byte the same, every body compressed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chatPreview } from '../src/analysis/preview.js';
import { seedProject, type SeedResult } from '../src/collection/seed.js';
import { decodeAnswerBody } from '../src/modules/answers/answer-body.js';
import { citedPagesById, pagesOf } from '../src/modules/answers/cited-pages.js';
import { BROTLI } from '../src/lib/packed-json.js';
import { PROVIDERS } from '../src/ports/providers/types.js';
import { client, startRestartableTestApp, type TestApp } from './helpers.js';
import { expectConsistentRollups } from './rollup-invariants.js';
import { bodiesOf, migrationMillis, undoThrough } from './undo-migrations.js';

let t: TestApp;
beforeAll(async () => {
  t = await startRestartableTestApp();
});
afterAll(async () => t?.stop());

async function bodies(s: SeedResult, promptIds: string[]): Promise<Record<string, string>> {
  const c = client(t.app, s.apiKey);
  const paths = [`/projects/${s.projectId}/sources?duration_days=30`, `/projects/${s.projectId}/sources/analytics?duration_days=30`, `/projects/${s.projectId}/competitors/suggestions?duration_days=30`];
  for (const id of promptIds) {
    for (const what of ['chats', 'domains', 'urls']) paths.push(`/projects/${s.projectId}/prompts/${id}/${what}?duration_days=30${what === 'chats' ? '&page_size=100' : ''}`);
    paths.push(`/projects/${s.projectId}/prompts/${id}/domains?duration_days=30&providers=perplexity,claude`);
  }
  return bodiesOf(c, paths);
}

/** The store as the 0012 write path left it: the old columns and the citations table, filled from the new ones. */
async function toFormat0012(projectId: string): Promise<void> {
  const store = t.runtime.ctx.store;
  await undoThrough(store, '0014_project_brand_arrays'); // 0013 is applied again only with every later migration undone
  await store.query(`alter table responses add column "text" text, add column "references" jsonb, add column "raw" jsonb, add column "preview" text, add column "brands" jsonb`);
  const { rows } = await store.query<{ id: string; provider: string; body: Uint8Array; cited: number[]; brand_ids: string[]; brand_stats: number[] }>(
    `select id, provider, body, cited, brand_ids, brand_stats from responses`,
  );
  const pages = await citedPagesById(store, rows.flatMap((r) => r.cited));
  const decoded = rows.map((r) => decodeAnswerBody(r.body, pagesOf(r.cited, pages), r.provider));
  const ids: string[] = [];
  const cols: string[][] = [[], [], [], [], []];
  for (const [i, r] of rows.entries()) {
    const b = decoded[i];
    ids.push(r.id);
    cols[0].push(b.text);
    cols[1].push(JSON.stringify(b.references));
    cols[2].push(JSON.stringify(b.raw ?? null));
    cols[3].push(chatPreview(b.text));
    // the brands as 0012 kept them: brand id -> {position, count, sentiment} (brand_ids and brand_stats again, 0035 undone)
    cols[4].push(JSON.stringify(Object.fromEntries(r.brand_ids.map((id, k) => [id, { position: r.brand_stats[3 * k], count: r.brand_stats[3 * k + 1], sentiment: r.brand_stats[3 * k + 2] }]))));
  }
  await store.query(
    `update responses r set "text" = u.t, "references" = u.rf::jsonb, raw = u.w::jsonb, preview = u.pr, brands = u.b::jsonb
       from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) as u(id, t, rf, w, pr, b) where r.id = u.id`,
    [ids, ...cols],
  );
  await store.query(
    `alter table responses alter column "text" set not null, alter column "references" set not null, alter column preview set not null, alter column brands set not null`,
  );
  await store.query(`CREATE TABLE "citations" (
	"response_id" uuid NOT NULL REFERENCES "responses"("id") ON DELETE cascade, "project_id" uuid NOT NULL, "prompt_id" uuid NOT NULL,
	"provider" text NOT NULL, "day" date NOT NULL, "url" text NOT NULL, "domain" text NOT NULL, "title" text NOT NULL,
	"category" smallint NOT NULL, "url_type" smallint, "reference_index" integer NOT NULL, "mentioned" boolean NOT NULL, "brand_ids" uuid[] NOT NULL)`);
  await store.query(`CREATE UNIQUE INDEX "citations_response_url_key" ON "citations" USING btree ("response_id","url")`);
  await store.query(`CREATE INDEX "citations_prompt_day_idx" ON "citations" USING btree ("prompt_id","day")`);
  await store.query(
    `insert into citations (response_id, project_id, prompt_id, provider, day, url, domain, title, category, url_type, reference_index, mentioned, brand_ids)
     select r.id, r.project_id, r.prompt_id, r.provider, r.day, p.url, p.domain, p.title, p.category, p.url_type, k.n, r.mentioned,
            array(select jsonb_object_keys(r.brands)::uuid)
       from responses r cross join unnest(r.cited) with ordinality as k(id, n) join cited_pages p on p.id = k.id`,
  );
  const n = await store.query<{ n: number }>(`select count(*)::int as n from citations where project_id = $1`, [projectId]);
  expect(n.rows[0].n).toBeGreaterThan(100);
  await store.query(`drop index responses_plain_body_idx`);
  await store.query(`alter table responses drop column body, drop column cited, drop column brand_ids, drop column brand_stats`);
  await store.query(`drop table cited_pages`);
  await store.query(`delete from drizzle.__drizzle_migrations where created_at = $1`, [migrationMillis('0013_compact_answers')]);
}

it('a store of the 0012 format migrates to the packed bodies and the page dictionary with every body unchanged', async () => {
  const s = await seedProject(t.runtime.ctx, { prompts: 3, providers: [...PROVIDERS], days: 20, competitors: 4 });
  const store = t.runtime.ctx.store;
  const prompts = (await store.query<{ id: string }>(`select id from prompts where project_id = $1 order by id`, [s.projectId])).rows.map((r) => r.id);
  const before = await bodies(s, prompts);
  // the answers carry references and brands, so the comparison can fail
  expect(before[`/projects/${s.projectId}/prompts/${prompts[0]}/urls?duration_days=30`]).toContain('brands_appear');
  expect(JSON.parse(before[`/projects/${s.projectId}/prompts/${prompts[0]}/chats?duration_days=30&page_size=100`]).data.items.some((i: { references: unknown[] }) => i.references.length > 0)).toBe(true);

  await toFormat0012(s.projectId);
  await t.restart();
  const after = await bodies(s, prompts);
  expect(after).toEqual(before);

  const packed = await t.runtime.ctx.store.query<{ format: number; n: number }>(`select get_byte(body, 0) as format, count(*)::int as n from responses group by 1`);
  expect(packed.rows).toEqual([{ format: BROTLI, n: 3 * PROVIDERS.length * 20 }]);
  await expectConsistentRollups(t.runtime.ctx.store, s.projectId);

  // and the page dictionary serves new answers and a re-analysis like one written by the new path
  const { reanalyseProject } = await import('../src/collection/reanalyse.js');
  await reanalyseProject(t.runtime.ctx, s.projectId);
  expect(await bodies(s, prompts)).toEqual(before);
});
