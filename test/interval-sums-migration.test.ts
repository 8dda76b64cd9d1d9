// Migration 0006 adds the sums of squares of position and sentiment to every rollup and
// fills them for answers stored before it. This runs its UPDATE statements on rows whose
// new columns are still 0 (as after ADD COLUMN ... DEFAULT 0) and checks that they give
// what the write path gives, in every daily, weekly, monthly and project rollup. The
// prompt × brand tables it also filled are gone since 0012 (brand_arrays.test.ts), and
// project_brand_daily since 0014 (its sums are arrays on project_daily): their statements are
// left out (project_brand_daily's read the prompt × brand tables).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../src/store/migrations.js';
import { SUMS_TABLES } from '../src/modules/rollups/sums-tables.js';
import { fixtureProject, OWN, storeSpecs, type AnswerSpec } from './analytics-fixture.js';
import { startTestApp, type TestApp } from './helpers.js';
import { expectConsistentRollups } from './rollup-invariants.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

// by id, as 0006 keyed them: each brand number named (brand_nos since 0035) by its competitor, the own brand's all-zero id for 0
const BRANDS_AS_0006_READ_THEM = `jsonb_each((select coalesce(jsonb_object_agg(case when n.no = 0 then '00000000-0000-0000-0000-000000000000'::uuid else c.id end,
  jsonb_build_object('position', r.brand_stats[3 * n.i - 2], 'count', r.brand_stats[3 * n.i - 1], 'sentiment', r.brand_stats[3 * n.i])), '{}'::jsonb)
  from unnest(r.brand_nos) with ordinality as n(no, i)
       left join competitors c on c.project_id = r.project_id and c.brand_no = n.no and not c.is_own_brand and n.no > 0))`;

/** The backfill statements of the migration, limited to one project (a shared test database holds others). */
function backfill(): string[] {
  const sql = readFileSync(path.join(MIGRATIONS_FOLDER, '0006_interval_sums.sql'), 'utf8');
  const updates = sql
    .split('--> statement-breakpoint')
    .map((s) => s.replace(/^\s*(--[^\n]*\n)*/, '').trim())
    .filter((s) => s.startsWith('UPDATE'));
  expect(updates).toHaveLength(8);
  const kept = updates.filter((u) => !u.includes('prompt_brand_'));
  expect(kept).toHaveLength(SUMS_TABLES.length); // prompt_daily, _weekly, _monthly and project_daily
  return kept.map((u) => {
    expect(u).toMatch(/\n WHERE d\./);
    // the brands named as 0006 found them (a jsonb object; brand_ids and brand_stats since 0013, brand_nos since 0035)
    return u.replace(/\n WHERE d\./, '\n WHERE d."project_id" = $1 AND d.').replace('jsonb_each(r."brands")', BRANDS_AS_0006_READ_THEM);
  });
}

it('the backfill of 0006 gives the sums of squares the write path gives', async () => {
  const f = await fixtureProject(t, { brand: 'Oldco', url: 'https://oldco.io', prompts: ['Old question one?', 'Old question two?'], competitors: [{ name: 'Rival', website: 'rival.io' }] });
  const R = f.competitorIds.Rival;
  const [P1, P2] = f.promptIds;
  // answers over two months and weeks, several providers and brands
  const specs: AnswerSpec[] = [
    { prompt: P1, provider: 'chatgpt', day: '2025-01-30', named: { [OWN]: [1, 2, 80], [R]: [2, 1, 40] } },
    { prompt: P1, provider: 'perplexity', day: '2025-01-30', named: { [R]: [1, 1, 70] } },
    { prompt: P1, provider: 'chatgpt', day: '2025-02-03', named: { [OWN]: [3, 1, 35] } },
    { prompt: P2, provider: 'claude', day: '2025-02-03', named: { [R]: [1, 1, 55], [OWN]: [2, 1, 65] } },
    { prompt: P2, provider: 'gemini', day: '2025-02-10', named: {} },
  ];
  await storeSpecs(t, f.projectId, specs, 'oldco.io');
  const store = t.runtime.ctx.store;
  const snapshot = async () => {
    const out: unknown[] = [];
    for (const table of SUMS_TABLES) {
      const { rows } = await store.query(`select * from ${table} where project_id = $1`, [f.projectId]);
      out.push(rows.map((r) => JSON.stringify(r)).sort());
    }
    return out;
  };
  const written = await snapshot();
  const nonZero = await store.query<{ n: number }>(`select count(*)::int as n from prompt_monthly where project_id = $1 and position_sq > 0 and sentiment_sq > 0`, [f.projectId]);
  expect(nonZero.rows[0].n).toBeGreaterThan(0);

  // a store as migrated before the backfill: the new columns 0 everywhere
  for (const table of SUMS_TABLES) {
    await store.query(`update ${table} set position_sq = 0, sentiment_sq = 0 where project_id = $1`, [f.projectId]);
  }
  await expect(expectConsistentRollups(store, f.projectId)).rejects.toThrow();

  for (const statement of backfill()) await store.query(statement, [f.projectId]);
  expect(await snapshot()).toEqual(written);
  await expectConsistentRollups(store, f.projectId);
});
