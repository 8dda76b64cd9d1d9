// Migration 0027 puts the market into the key of the answers and of every rollup. This stores
// answers through the write path, turns the store back into the 0026 format (no markets),
// gives one project's prompt another country (as a prompt of the old format could have), and
// starts again: every answer gets the market it was asked in, a project of one market reads
// byte for byte as before, and the project asked in two markets is listed for a rebuild, sent
// at the start and, once re-analysed, reads per market.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedProject } from '../src/collection/seed.js';
import { reanalyseProject } from '../src/collection/reanalyse.js';
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

it('a store of the 0026 format migrates to markets: one-market figures unchanged, a mixed project rebuilt', async () => {
  const single = await seedProject(t.runtime.ctx, { prompts: 3, providers: [...PROVIDERS], days: 50, competitors: 3, endDay: '2025-05-20' });
  const mixed = await seedProject(t.runtime.ctx, { prompts: 2, providers: [...PROVIDERS], days: 50, competitors: 3, endDay: '2025-05-20' });
  const paths = (projectId: string) => ['competitors', 'visibility', 'overview', 'prompts', 'sources/analytics'].map((p) => `/projects/${projectId}/${p}?${WINDOW}`);
  const before = await bodiesOf(client(t.app, single.apiKey), paths(single.projectId));
  const store = t.runtime.ctx.store;

  await undoThrough(store, '0027_markets');
  const { rows: prompts } = await store.query<{ id: string }>(`select id from prompts where project_id = $1 order by created_at, id`, [mixed.projectId]);
  // a prompt of the old format asked in Germany (its country), the project in the US
  await store.query(`update prompts set country = 'DE' where id = $1`, [prompts[1].id]);
  await t.restart();
  const migrated = t.runtime.ctx.store;

  // every answer has the market it was asked in
  const markets = await migrated.query<{ prompt_id: string; market: string; n: number }>(
    `select prompt_id, market, count(*)::int as n from responses where project_id = any($1::uuid[]) group by 1, 2 order by 1, 2`,
    [[single.projectId, mixed.projectId]],
  );
  expect(new Set(markets.rows.filter((r) => r.prompt_id === prompts[1].id).map((r) => r.market))).toEqual(new Set(['DE-en']));
  expect(markets.rows.filter((r) => r.prompt_id !== prompts[1].id).every((r) => r.market === 'US-en')).toBe(true);

  // one market: every body as before, every rollup consistent
  expect(await bodiesOf(client(t.app, single.apiKey), paths(single.projectId))).toEqual(before);
  await expectConsistentRollups(migrated, single.projectId);

  // the mixed project: listed, and the list emptied by the start that sent its re-analysis
  const listed = await migrated.query<{ n: number }>(`select count(*)::int as n from rollup_rebuilds`);
  expect(listed.rows[0].n).toBe(0);
  const sent = await migrated.query<{ n: number }>(`select count(*)::int as n from pgboss.job where name = 'project-reanalyse' and data->>'projectId' = $1`, [mixed.projectId]);
  expect(sent.rows[0].n).toBe(1);
  await reanalyseProject(t.runtime.ctx, mixed.projectId);
  await expectConsistentRollups(migrated, mixed.projectId);
  const api = client(t.app, mixed.apiKey);
  const responsesOf = async (market: string) =>
    (await api.get(`/projects/${mixed.projectId}/visibility?${WINDOW}&market=${market}`)).json().data.series[0].responses.reduce((sum: number, n: number) => sum + n, 0);
  const german = markets.rows.filter((r) => r.prompt_id === prompts[1].id).reduce((sum, r) => sum + r.n, 0);
  expect(await responsesOf('DE-en')).toBeGreaterThan(0);
  expect((await responsesOf('DE-en')) + (await responsesOf('US-en'))).toBe(
    (await api.get(`/projects/${mixed.projectId}/visibility?${WINDOW}`)).json().data.series[0].responses.reduce((sum: number, n: number) => sum + n, 0),
  );
  expect(german).toBeGreaterThanOrEqual(await responsesOf('DE-en'));
});
