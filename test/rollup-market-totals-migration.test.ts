// Migration 0031 gives the project rollups (project_daily/weekly/monthly) and the domain
// rollups (project_domain_daily, prompt_domain_monthly) the market '*' rows the prompt
// rollups have had since 0030. A project already flagged (projects.market_totals) had them
// in the prompt rollups only: the migration sums its history into the others, so the flag
// still means "the '*' rows are there for the whole history". This stores answers through
// the write path (which writes them all), turns the store back into the 0030 format (the new
// tables' '*' rows gone) and starts again: the rows are summed back, every read as before.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedProject } from '../src/collection/seed.js';
import { PROVIDERS } from '../src/ports/providers/types.js';
import { client, startRestartableTestApp, type TestApp } from './helpers.js';
import { expectConsistentRollups } from './rollup-invariants.js';
import { bodiesOf, undoThrough } from './undo-migrations.js';

let t: TestApp;
beforeAll(async () => {
  t = await startRestartableTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

const WINDOW = 'date_from=2025-04-01&date_to=2025-05-20';
const TOTALLED = ['project_daily', 'project_weekly', 'project_monthly', 'project_domain_daily', 'prompt_domain_monthly'];

it('a store of the 0030 format migrates: a flagged project gets its project and domain totals summed, one without none', async () => {
  const markets = await seedProject(t.runtime.ctx, { prompts: 2, providers: [...PROVIDERS], days: 50, competitors: 3, endDay: '2025-05-20', markets: ['US-en', 'DE-de'] });
  const single = await seedProject(t.runtime.ctx, { prompts: 2, providers: [...PROVIDERS], days: 50, competitors: 3, endDay: '2025-05-20' });
  const promptId = (await t.runtime.ctx.store.query<{ id: string }>(`select id from prompts where project_id = $1 order by created_at, id limit 1`, [markets.projectId])).rows[0].id;
  const paths = (projectId: string, prompt?: string) =>
    [...['competitors', 'visibility', 'overview', 'prompts', 'sources', 'sources/analytics'], ...(prompt ? [`prompts/${prompt}/domains`] : [])].map(
      (p) => `/projects/${projectId}/${p}?${WINDOW}`,
    );
  const before = await bodiesOf(client(t.app, markets.apiKey), paths(markets.projectId, promptId));
  const beforeSingle = await bodiesOf(client(t.app, single.apiKey), paths(single.projectId));
  const store = t.runtime.ctx.store;
  const totalRows = async (projectId: string) => {
    const counts: Record<string, number> = {};
    for (const table of TOTALLED) {
      counts[table] = (await t.runtime.ctx.store.query<{ n: number }>(`select count(*)::int as n from ${table} where project_id = $1 and market = '*'`, [projectId])).rows[0].n;
    }
    return counts;
  };
  const written = await totalRows(markets.projectId);
  for (const table of TOTALLED) expect(written[table], table).toBeGreaterThan(0);

  await undoThrough(store, '0031_rollup_market_totals');
  expect(await store.query(`select 1 from project_daily where market = '*'`).then((r) => r.rows.length)).toBe(0);
  await t.restart();
  const migrated = t.runtime.ctx.store;

  expect(await totalRows(markets.projectId)).toEqual(written);
  expect(Object.values(await totalRows(single.projectId))).toEqual(TOTALLED.map(() => 0));
  await expectConsistentRollups(migrated, markets.projectId);
  await expectConsistentRollups(migrated, single.projectId);
  expect(await bodiesOf(client(t.app, markets.apiKey), paths(markets.projectId, promptId))).toEqual(before);
  expect(await bodiesOf(client(t.app, single.apiKey), paths(single.projectId))).toEqual(beforeSingle);
});
