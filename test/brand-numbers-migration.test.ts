// Migration 0035 names the brands an answer names by their numbers (responses.brand_nos,
// competitors.brand_no, own brand 0) instead of their ids (brand_ids uuid[]), and keeps their
// figures as smallint. This stores answers through the write path, reads every endpoint that
// shows an answer's brands, turns the store back into the 0034 format and starts again: every
// body byte for byte the same. A competitor deleted before the migration (its re-analysis not
// run) is left out of the answers that named it, as the rollups leave it out.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedProject, type SeedResult } from '../src/collection/seed.js';
import type { Store } from '../src/store/index.js';
import { client, startRestartableTestApp, type TestApp } from './helpers.js';
import { expectConsistentRollups } from './rollup-invariants.js';
import { bodiesOf, undoThrough } from './undo-migrations.js';

let t: TestApp;
beforeAll(async () => {
  t = await startRestartableTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

const WINDOW = 'duration_days=30';

async function paths(store: Store, s: SeedResult): Promise<string[]> {
  const prompts = (await store.query<{ id: string }>(`select id from prompts where project_id = $1 order by id`, [s.projectId])).rows.map((r) => r.id);
  const brands = (await store.query<{ id: string }>(`select id from competitors where project_id = $1 and not is_own_brand order by id`, [s.projectId])).rows.map((r) => r.id);
  const out = [`/projects/${s.projectId}/chats?${WINDOW}&page_size=100`];
  for (const brand of ['00000000-0000-0000-0000-000000000000', ...brands]) {
    for (const named of ['true', 'false']) out.push(`/projects/${s.projectId}/chats?${WINDOW}&page_size=100&brand_id=${brand}&brand_named=${named}`);
  }
  for (const id of prompts) {
    for (const what of ['chats', 'domains', 'urls', 'analytics']) out.push(`/projects/${s.projectId}/prompts/${id}/${what}?${WINDOW}${what === 'chats' ? '&page_size=100' : ''}`);
  }
  return out;
}

it('a store of the 0034 format migrates to brand numbers with every body unchanged', async () => {
  const seeded = await seedProject(t.runtime.ctx, { prompts: 2, providers: ['chatgpt', 'perplexity', 'claude'], days: 20, competitors: 4 });
  const store = t.runtime.ctx.store;
  const urls = await paths(store, seeded);
  const before = await bodiesOf(client(t.app, seeded.apiKey), urls);
  // the answers name brands, competitors among them, so the bodies show them
  const named = await store.query<{ n: number }>(`select count(*)::int as n from responses where project_id = $1 and cardinality(brand_nos) > 1`, [seeded.projectId]);
  expect(named.rows[0].n).toBeGreaterThan(10);

  await undoThrough(store, '0035_responses_brand_numbers');
  const old = await store.query<{ n: number }>(`select count(*)::int as n from responses where project_id = $1 and cardinality(brand_ids) > 1`, [seeded.projectId]);
  expect(old.rows[0].n).toBe(named.rows[0].n);
  await t.restart();
  expect(await bodiesOf(client(t.app, seeded.apiKey), urls)).toEqual(before);
  await expectConsistentRollups(t.runtime.ctx.store, seeded.projectId);
});

it('leaves out the brands of a competitor deleted before the migration', async () => {
  const seeded = await seedProject(t.runtime.ctx, { prompts: 1, providers: ['chatgpt', 'gemini'], days: 15, competitors: 3, endDay: '2025-05-20' });
  const store = t.runtime.ctx.store;
  const gone = (await store.query<{ id: string; brand_no: number }>(`select id, brand_no from competitors where project_id = $1 and not is_own_brand order by brand_no limit 1`, [seeded.projectId])).rows[0];
  const figures = async (s: Store) =>
    (
      await s.query<{ id: string; nos: number[]; stats: number[] }>(`select id, brand_nos as nos, brand_stats as stats from responses where project_id = $1 order by id`, [seeded.projectId])
    ).rows;
  const written = await figures(store);
  expect(written.filter((r) => r.nos.includes(gone.brand_no)).length).toBeGreaterThan(0);
  await undoThrough(store, '0035_responses_brand_numbers');
  await store.query(`delete from competitors where id = $1`, [gone.id]);
  await t.restart();
  const migrated = await figures(t.runtime.ctx.store);
  // each answer keeps the other brands, their figures in the same order
  const without = written.map((r) => {
    const kept = r.nos.flatMap((no, i) => (no === gone.brand_no ? [] : [i]));
    return { id: r.id, nos: kept.map((i) => r.nos[i]), stats: kept.flatMap((i) => r.stats.slice(3 * i, 3 * i + 3)) };
  });
  expect(migrated).toEqual(without);
});
