// Migration 0018 adds project_weekly and project_monthly (project_daily summed per calendar
// bucket, with per brand a bit per day it was named on), filled from project_daily. This
// stores answers through the write path, reads the competitor figures (and the visibility
// series beside them) over windows of whole and partial months and weeks, turns the store
// back into the 0017 format (the tables and functions dropped, 0018 unrecorded), starts
// again (migrations) and reads them again: each body byte for byte the same, and the rows
// the backfill made those the write path made. Then a prompt is deleted on the migrated store.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedProject, type SeedResult } from '../src/collection/seed.js';
import { PROVIDERS } from '../src/ports/providers/types.js';
import { client, startRestartableTestApp, type TestApp } from './helpers.js';
import { expectConsistentRollups } from './rollup-invariants.js';
import { bodiesOf, undoThrough } from './undo-migrations.js';

let t: TestApp;
beforeAll(async () => {
  // no workers: the re-analysis a competitor's deletion queues stays queued, so its sums stay in the rollups
  t = await startRestartableTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

const WINDOWS = [
  'date_from=2025-03-02&date_to=2025-05-20',
  'date_from=2025-04-01&date_to=2025-04-30',
  'date_from=2025-03-15&date_to=2025-05-31&providers=perplexity,claude',
  'date_from=2025-02-20&date_to=2025-05-20&providers=gemini',
  'date_from=2025-05-03&date_to=2025-05-18&providers=chatgpt,gemini,claude',
  'date_from=2025-05-05&date_to=2025-05-11',
];

async function bodies(s: SeedResult): Promise<Record<string, string>> {
  const paths = WINDOWS.flatMap((w) => [`/projects/${s.projectId}/competitors?${w}`, `/projects/${s.projectId}/visibility?${w}`]);
  return bodiesOf(client(t.app, s.apiKey), paths);
}

async function bucketRows(projectId: string): Promise<string[]> {
  const out: string[] = [];
  for (const table of ['project_weekly', 'project_monthly']) {
    const { rows } = await t.runtime.ctx.store.query(`select * from ${table} where project_id = $1`, [projectId]);
    out.push(...rows.map((r) => `${table} ${JSON.stringify(r)}`));
  }
  return out.sort();
}

it('a store of the 0017 format migrates to project_weekly and project_monthly with every competitor figure unchanged', async () => {
  const s = await seedProject(t.runtime.ctx, { prompts: 3, providers: [...PROVIDERS], days: 80, competitors: 4, endDay: '2025-05-20' });
  const store = t.runtime.ctx.store;
  const c = client(t.app, s.apiKey);
  // a competitor deleted after its answers were stored: its sums stay in the rollups, shown nowhere
  const competitors = (await c.get(`/projects/${s.projectId}/competitors?${WINDOWS[0]}`)).json().data.active_competitors as Array<{
    competitor_id: string;
    is_own_brand: boolean;
    metrics: { days_with_data: number };
  }>;
  const others = competitors.filter((x) => !x.is_own_brand);
  expect(others.length).toBe(4);
  expect(others.every((x) => x.metrics.days_with_data > 0)).toBe(true);
  expect((await c.delete(`/projects/${s.projectId}/competitors/${others[1].competitor_id}`)).statusCode).toBe(200);
  const before = await bodies(s);
  expectDaysAsSeries(s, before);
  await expectConsistentRollups(store, s.projectId);
  const written = await bucketRows(s.projectId);
  // weeks and months of every provider and '*' (80 days: 12 or 13 weeks, 3 or 4 months)
  expect(written.filter((r) => r.startsWith('project_weekly')).length).toBeGreaterThanOrEqual(12 * (PROVIDERS.length + 1));
  expect(written.filter((r) => r.startsWith('project_monthly')).length).toBeGreaterThanOrEqual(3 * (PROVIDERS.length + 1));

  await undoThrough(store, '0018_project_buckets');
  const gone = await store.query<{ n: number }>(`select count(*)::int as n from pg_tables where tablename in ('project_weekly', 'project_monthly')`);
  expect(gone.rows[0].n).toBe(0);
  await t.restart();
  expect(await bodies(s)).toEqual(before);
  await expectConsistentRollups(t.runtime.ctx.store, s.projectId);
  // the rows as the write path made them, day bits included
  expect(await bucketRows(s.projectId)).toEqual(written);

  // a prompt deleted on the migrated store: the buckets lose its answers (and the days only it named)
  const prompts = (await client(t.app, s.apiKey).get(`/projects/${s.projectId}/prompts`)).json().data.prompts as Array<{ id: string }>;
  expect((await client(t.app, s.apiKey).delete(`/projects/${s.projectId}/prompts/${prompts[0].id}`)).statusCode).toBe(200);
  await expectConsistentRollups(t.runtime.ctx.store, s.projectId);
  const after = await bodies(s);
  expect(after).not.toEqual(before);
  expectDaysAsSeries(s, after);
});

/** Each brand's days_with_data (read from the buckets) = the days its visibility series (read day by day) has a position. */
function expectDaysAsSeries(s: SeedResult, read: Record<string, string>): void {
  for (const w of WINDOWS) {
    const comps = JSON.parse(read[`/projects/${s.projectId}/competitors?${w}`]).data.active_competitors as Array<{ metrics: { days_with_data: number } }>;
    const series = JSON.parse(read[`/projects/${s.projectId}/visibility?${w}`]).data.series as Array<{ position: Array<number | null> }>;
    expect(comps.length).toBe(series.length);
    for (const [k, x] of comps.entries()) expect(x.metrics.days_with_data, w).toBe(series[k].position.filter((p) => p !== null).length);
  }
}
