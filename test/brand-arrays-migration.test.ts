// Migration 0012 replaces the prompt × brand rollups (prompt_brand_daily/weekly/monthly, one
// row per brand named) with per-brand arrays on the prompt rollup rows, indexed by a brand
// number per project. This builds the old tables as the old write path filled them (from the
// answers stored), empties the arrays (as after ADD COLUMN ... DEFAULT '{}'), runs the
// migration's statements for one project and checks that the arrays, and every figure the
// endpoints show, come out as the write path gives them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { touchAnalytics } from '../src/store/analytics-version.js';
import { MIGRATIONS_FOLDER } from '../src/store/migrations.js';
import { fixtureProject, OWN, storeSpecs, type AnswerSpec } from './analytics-fixture.js';
import { startTestApp, type TestApp } from './helpers.js';
import { BRANDS_OF_R, expectConsistentRollups } from './rollup-invariants.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

const statements = () =>
  readFileSync(path.join(MIGRATIONS_FOLDER, '0012_brand_arrays.sql'), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.replace(/^\s*(--[^\n]*\n)*/, '').trim());

/** The numbering and array backfills of 0012, limited to one project (a shared test database holds others). */
function backfill(): { numbering: string[]; arrays: string[] } {
  const all = statements();
  const numbering = all.filter((s) => s.startsWith('UPDATE "competitors"') || s.startsWith('UPDATE "projects"'));
  expect(numbering).toHaveLength(2);
  const arrays = all.filter((s) => /^UPDATE "prompt_(daily|weekly|monthly)"/.test(s));
  expect(arrays).toHaveLength(3);
  return {
    numbering: [
      numbering[0].replace(/FROM "competitors"\) n/, 'FROM "competitors" WHERE "project_id" = $1) n'),
      numbering[1].replace(/FROM "competitors" GROUP BY 1\) x/, 'FROM "competitors" WHERE "project_id" = $1 GROUP BY 1) x'),
    ],
    arrays: arrays.map((u) => {
      expect(u).toMatch(/\n WHERE d\./);
      return u.replace(/\n WHERE d\./, '\n WHERE d."project_id" = $1 AND d.');
    }),
  };
}

/** The old prompt × brand tables, filled as addToRollups filled them: per brand named, provider and '*', day, week and month. */
const OLD_TABLES = [
  ['prompt_brand_daily', 'day', `r.day`],
  ['prompt_brand_weekly', 'week', `date_trunc('week', r.day::timestamp)::date`],
  ['prompt_brand_monthly', 'month', `date_trunc('month', r.day::timestamp)::date`],
] as const;

it('the backfill of 0012 gives the per-brand arrays and the figures the write path gives', async () => {
  const f = await fixtureProject(t, {
    brand: 'Oldco',
    url: 'https://oldco.io',
    prompts: ['Old question one?', 'Old question two?'],
    competitors: [
      { name: 'Rival', website: 'rival.io' },
      { name: 'Other', website: 'other.io' },
      { name: 'Quiet', website: 'quiet.io' },
    ],
  });
  const { Rival: R, Other: O } = f.competitorIds;
  const [P1, P2] = f.promptIds;
  // brand numbers: given on insert, in order, never reused
  const numbers = await t.runtime.ctx.store.query<{ name: string; brand_no: number }>(
    `select name, brand_no from competitors where project_id = $1 order by brand_no`,
    [f.projectId],
  );
  expect(numbers.rows.map((r) => [r.name, r.brand_no])).toEqual([['Rival', 1], ['Other', 2], ['Quiet', 3]]);
  // answers over two months and weeks, several providers and brands (Quiet never named, Other only last)
  const specs: AnswerSpec[] = [
    { prompt: P1, provider: 'chatgpt', day: '2025-01-30', named: { [OWN]: [1, 2, 80], [R]: [2, 1, 40] } },
    { prompt: P1, provider: 'perplexity', day: '2025-01-30', named: { [R]: [1, 3, 70], [O]: [2, 1, 50] } },
    { prompt: P1, provider: 'chatgpt', day: '2025-02-03', named: { [OWN]: [3, 1, 35], [O]: [1, 2, 60] } },
    { prompt: P2, provider: 'claude', day: '2025-02-03', named: { [R]: [1, 1, 55], [OWN]: [2, 1, 65] } },
    { prompt: P2, provider: 'claude', day: '2025-02-04', named: { [R]: [1, 4, 55] } },
    { prompt: P2, provider: 'gemini', day: '2025-02-10', named: {} },
  ];
  await storeSpecs(t, f.projectId, specs, 'oldco.io');
  const store = t.runtime.ctx.store;
  const snapshot = async () => {
    const out: unknown[] = [];
    for (const table of ['prompt_daily', 'prompt_weekly', 'prompt_monthly']) {
      const { rows } = await store.query(`select * from ${table} where project_id = $1`, [f.projectId]);
      out.push(rows.map((r) => JSON.stringify(r)).sort());
    }
    return out;
  };
  const windows = ['date_from=2025-01-30&date_to=2025-02-10', 'date_from=2025-02-01&date_to=2025-02-28', 'date_from=2025-01-30&date_to=2025-01-30&providers=perplexity'];
  const figures = async () => {
    const out: unknown[] = [];
    for (const w of windows) {
      for (const p of ['overview', 'competitors', 'visibility', 'prompts']) {
        const res = await f.api.get(`/projects/${f.projectId}/${p}?${w}`);
        expect(res.statusCode).toBe(200);
        out.push(res.json());
      }
    }
    return out;
  };
  const written = await snapshot();
  const shown = await figures();
  const overview = (shown[0] as { data: { items: Array<{ competitors_mentioned: Array<{ name: string; mention_count: number }> }> } }).data.items;
  expect(overview.map((i) => i.competitors_mentioned.map((c) => [c.name, c.mention_count]))).toEqual([
    [['Rival', 4], ['Other', 3]],
    [['Rival', 5]],
  ]);

  const { numbering, arrays } = backfill();
  await store.tx(async (tx) => {
    // the numbering of 0012 numbers competitors by creation, as the trigger did
    for (const s of numbering) await tx.query(s, [f.projectId]);
    // a store as migrated before the backfill: the new arrays empty
    for (const table of ['prompt_daily', 'prompt_weekly', 'prompt_monthly']) {
      await tx.query(`update ${table} set brand_mentions = '{}', brand_counts = '{}' where project_id = $1`, [f.projectId]);
    }
  });
  await expect(expectConsistentRollups(store, f.projectId)).rejects.toThrow();
  expect(await figures()).not.toEqual(shown);

  await store.tx(async (tx) => {
    for (const [table, unit, bucket] of OLD_TABLES) {
      await tx.query(`create temp table ${table} on commit drop as
        select r.project_id, r.prompt_id, v.provider, ${bucket} as ${unit}, b.key::uuid as brand_id,
               count(*)::int as mentions, sum((b.value->>'count')::int)::int as mention_count,
               sum((b.value->>'position')::int)::int as position_sum, sum((b.value->>'sentiment')::int)::int as sentiment_sum
          from responses r cross join lateral ${BRANDS_OF_R} as b cross join lateral (values (r.provider), ('*')) as v(provider)
         where r.project_id = $1 group by 1, 2, 3, 4, 5`, [f.projectId]);
    }
    const old = await tx.query<{ n: number }>(`select count(*)::int as n from prompt_brand_weekly`);
    expect(old.rows[0].n).toBeGreaterThan(0);
    for (const s of arrays) await tx.query(s, [f.projectId]);
    await touchAnalytics(tx, f.projectId); // the read cache is in memory: a migrated store starts without it
  });
  expect(await snapshot()).toEqual(written);
  expect(await figures()).toEqual(shown);
  await expectConsistentRollups(store, f.projectId);
  const seq = await store.query<{ brand_seq: number }>(`select brand_seq from projects where id = $1`, [f.projectId]);
  expect(seq.rows[0].brand_seq).toBe(3);

  // a competitor deleted and another added: the new one takes a new number, never the old one
  const del = await f.api.delete(`/projects/${f.projectId}/competitors/${f.competitorIds.Quiet}`);
  expect(del.statusCode).toBe(200);
  const add = await f.api.post(`/projects/${f.projectId}/competitors`, { competitors: [{ name: 'Newer', website: 'newer.io' }] });
  expect(add.statusCode).toBe(200);
  const after = await store.query<{ brand_no: number }>(`select brand_no from competitors where project_id = $1 and name = 'Newer'`, [f.projectId]);
  expect(after.rows[0].brand_no).toBe(4);
});
