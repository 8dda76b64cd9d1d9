// Migration 0032 packs theme_daily (what a prompt's deletion takes out of the project's theme
// rollup) from a row per prompt, brand, theme, day and market into a row per prompt, day and
// market, and 0034 names each entry's brand by its number instead of its id. This stores
// answers through the write path, turns the store back into the 0031 (or 0033) format and
// starts again: the same entries come back packed, GET /themes answers the same bytes, and
// deleting a prompt afterwards takes out exactly its counts.
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { THEMES } from '../src/analysis/index.js';
import { seedProject } from '../src/collection/seed.js';
import { addThemes } from '../src/modules/rollups/themes.js';
import { loadBrandNumbers, OWN_BRAND_ID } from '../src/modules/projects/brands.js';
import { PROVIDERS } from '../src/ports/providers/types.js';
import type { Store } from '../src/store/index.js';
import { client, startRestartableTestApp, type TestApp } from './helpers.js';
import { bodiesOf, undoThrough } from './undo-migrations.js';

let t: TestApp;
beforeAll(async () => {
  t = await startRestartableTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

const WINDOW = 'start_date=2025-04-01&end_date=2025-05-20';

/**
 * theme_daily's entries (the format of migration 0034: {brand number, theme number, the three
 * counts}) with their brands as the rows of competitors name them (the own brand 0), as
 * project_theme_daily keys its rows: `t` (prompt_id, day, market, brand_id, n, po, ne, ng).
 */
const ENTRIES = `select t.project_id, t.prompt_id, t.day, t.market, case when t.counts[i][1] = 0 then '${OWN_BRAND_ID}'::uuid else c.id end as brand_id,
                        t.counts[i][2] as n, t.counts[i][3] as po, t.counts[i][4] as ne, t.counts[i][5] as ng
                   from theme_daily t cross join lateral generate_subscripts(t.counts, 1) as i
                        left join competitors c on c.project_id = t.project_id and c.brand_no = t.counts[i][1] and not c.is_own_brand and t.counts[i][1] > 0`;

/** theme_daily's entries, one line per prompt, day, market, brand and theme, sorted. */
async function entries(store: Store, projectId: string): Promise<string[]> {
  const { rows } = await store.query<{ line: string }>(
    `select concat_ws(' ', t.prompt_id, t.day, t.market, t.brand_id, t.n, t.po, t.ne, t.ng) as line from (${ENTRIES}) t where t.project_id = $1`,
    [projectId],
  );
  return rows.map((r) => r.line).sort();
}

/** project_theme_daily's counts against the sums of theme_daily's entries, per brand, theme, day and market: the rows that differ. */
async function mismatches(store: Store, projectId: string): Promise<unknown[]> {
  const { rows } = await store.query(
    `with per_prompt as (
       select t.brand_id, ($2::text[])[t.n + 1] as theme, t.day, t.market,
              sum(t.po)::int as positive, sum(t.ne)::int as neutral, sum(t.ng)::int as negative
         from (${ENTRIES}) t
        where t.project_id = $1
        group by 1, 2, 3, 4)
     select * from (select brand_id, theme, day, market, positive, neutral, negative from project_theme_daily where project_id = $1) d
       full join per_prompt p using (brand_id, theme, day, market)
      where d.positive is distinct from p.positive or d.neutral is distinct from p.neutral or d.negative is distinct from p.negative`,
    [projectId, THEMES],
  );
  return rows;
}

it('a store of the 0031 format migrates: the same theme entries packed per prompt and day, the same themes read', async () => {
  const seeded = await seedProject(t.runtime.ctx, { prompts: 3, providers: [...PROVIDERS], days: 50, competitors: 4, endDay: '2025-05-20', markets: ['US-en', 'DE-de'] });
  const store = t.runtime.ctx.store;
  const api = client(t.app, seeded.apiKey);
  const brands = (await store.query<{ id: string }>(`select id from competitors where project_id = $1 order by id`, [seeded.projectId])).rows.map((r) => r.id);
  const paths = ['00000000-0000-0000-0000-000000000000', ...brands].flatMap((brand) =>
    [WINDOW, `${WINDOW}&market=DE-de`].map((q) => `/projects/${seeded.projectId}/themes?${q}&brand_id=${brand}`),
  );
  const before = await bodiesOf(api, paths);
  const written = await entries(store, seeded.projectId);
  expect(written.length).toBeGreaterThan(100);
  expect(await mismatches(store, seeded.projectId)).toEqual([]);
  const packedRows = (await store.query<{ n: number }>(`select count(*)::int as n from theme_daily where project_id = $1`, [seeded.projectId])).rows[0].n;
  expect(packedRows).toBeLessThan(written.length);

  await undoThrough(store, '0032_theme_daily_packed');
  const oldRows = (await store.query<{ n: number }>(`select count(*)::int as n from theme_daily where project_id = $1`, [seeded.projectId])).rows[0].n;
  expect(oldRows).toBe(written.length);
  await t.restart();
  const migrated = t.runtime.ctx.store;

  expect(await entries(migrated, seeded.projectId)).toEqual(written);
  expect(await mismatches(migrated, seeded.projectId)).toEqual([]);
  const after = client(t.app, seeded.apiKey);
  expect(await bodiesOf(after, paths)).toEqual(before);

  // a prompt deleted after the migration takes out its own counts, and only those
  const promptId = (await migrated.query<{ id: string }>(`select id from prompts where project_id = $1 order by created_at, id limit 1`, [seeded.projectId])).rows[0].id;
  const res = await after.delete(`/projects/${seeded.projectId}/prompts/${promptId}`);
  expect(res.statusCode).toBe(200);
  const left = await entries(migrated, seeded.projectId);
  expect(left.length).toBeGreaterThan(0);
  expect(left).toEqual(written.filter((line) => !line.startsWith(promptId)));
  expect(await mismatches(migrated, seeded.projectId)).toEqual([]);
});

it('a store of the 0033 format migrates to brand numbers; the entries of a deleted competitor are left out', async () => {
  const seeded = await seedProject(t.runtime.ctx, { prompts: 2, providers: ['chatgpt', 'perplexity'], days: 20, competitors: 3, endDay: '2025-05-20' });
  const store = t.runtime.ctx.store;
  const written = await entries(store, seeded.projectId);
  const gone = (await store.query<{ id: string }>(`select id from competitors where project_id = $1 and not is_own_brand order by brand_no limit 1`, [seeded.projectId])).rows[0].id;
  expect(written.some((line) => line.includes(gone))).toBe(true);
  await undoThrough(store, '0034_theme_daily_brand_numbers');
  const ids = await store.query<{ n: number }>(`select count(*)::int as n from theme_daily where project_id = $1 and $2::uuid = any(brand_ids)`, [seeded.projectId, gone]);
  expect(ids.rows[0].n).toBeGreaterThan(0);
  // deleted while the old format was stored (its re-analysis, which would rebuild the themes, not run)
  await store.query(`delete from competitors where id = $1`, [gone]);
  await t.restart();
  const migrated = await entries(t.runtime.ctx.store, seeded.projectId);
  expect(migrated).toEqual(written.filter((line) => !line.includes(gone)));
  const counts = await t.runtime.ctx.store.query<{ n: number }>(`select count(*)::int as n from theme_daily where project_id = $1 and array_ndims(counts) = 2 and array_length(counts, 2) = 5`, [seeded.projectId]);
  const rows = await t.runtime.ctx.store.query<{ n: number }>(`select count(*)::int as n from theme_daily where project_id = $1`, [seeded.projectId]);
  expect(counts.rows[0].n).toBe(rows.rows[0].n);
});

it("keeps THEMES in the order migration 0032 numbered them (the list may only grow at its end)", () => {
  const sql = fs.readFileSync(new URL('../migrations/0032_theme_daily_packed.sql', import.meta.url), 'utf8');
  const listed = /array_position\(ARRAY\[([^\]]+)\]/.exec(sql)![1].split(',').map((s) => s.trim().replace(/^'|'$/g, ''));
  expect(listed.length).toBeGreaterThan(0);
  expect(THEMES.slice(0, listed.length)).toEqual(listed);
});

it('adds a later batch of the same prompt, day and market to its row, per brand and theme', async () => {
  const seeded = await seedProject(t.runtime.ctx, { prompts: 1, providers: ['chatgpt'], days: 1, competitors: 2, endDay: '2025-05-20' });
  const store = t.runtime.ctx.store;
  const promptId = (await store.query<{ id: string }>(`select id from prompts where project_id = $1`, [seeded.projectId])).rows[0].id;
  const [brandA, brandB] = (await store.query<{ id: string }>(`select id from competitors where project_id = $1 order by id`, [seeded.projectId])).rows.map((r) => r.id);
  await store.query(`delete from theme_daily where project_id = $1`, [seeded.projectId]);
  await store.query(`delete from project_theme_daily where project_id = $1`, [seeded.projectId]);
  const item = (responseId: string, themes: Array<[brand: string, theme: (typeof THEMES)[number], band: 'positive' | 'neutral' | 'negative']>) => ({
    responseId,
    promptId,
    day: '2025-06-01',
    market: 'US-en',
    analysis: { themes: themes.map(([brandId, theme, band]) => ({ brandId, theme, band, excerpt: `${theme} ${band}` })) },
  });
  const numbers = await loadBrandNumbers(store, seeded.projectId);
  await store.tx((tx) => addThemes(tx, seeded.projectId, [item('00000000-0000-4000-8000-000000000001', [[brandA, 'price', 'positive'], [brandB, 'support', 'negative']])], numbers));
  await store.tx((tx) =>
    addThemes(
      tx,
      seeded.projectId,
      [item('00000000-0000-4000-8000-000000000002', [[brandA, 'price', 'positive'], [brandA, 'price', 'neutral'], [brandB, 'security', 'neutral']])],
      numbers,
    ),
  );
  const n = (theme: string) => THEMES.indexOf(theme as (typeof THEMES)[number]);
  const rows = (await entries(store, seeded.projectId)).filter((line) => line.includes('2025-06-01'));
  expect(rows).toEqual(
    [
      `${promptId} 2025-06-01 US-en ${brandA} ${n('price')} 2 1 0`,
      `${promptId} 2025-06-01 US-en ${brandB} ${n('support')} 0 0 1`,
      `${promptId} 2025-06-01 US-en ${brandB} ${n('security')} 0 1 0`,
    ].sort(),
  );
  expect((await store.query(`select 1 from theme_daily where prompt_id = $1 and day = '2025-06-01'`, [promptId])).rows).toHaveLength(1);
  expect(await mismatches(store, seeded.projectId)).toEqual([]);
});
