// Migration 0014 replaces project_brand_daily (a row per provider, day and brand named) with
// per-brand arrays on project_daily. This stores answers through the write path, reads every
// endpoint that shows brand figures, turns the store back into the 0013 format (the old table
// filled from the arrays, the arrays dropped, 0014 unrecorded), starts again (migrations) and
// reads them again: each body byte for byte the same. Then a prompt is deleted on the migrated
// store, which takes its answers out of the arrays, and the rollups still agree with the answers.
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

async function bodies(s: SeedResult): Promise<Record<string, string>> {
  const c = client(t.app, s.apiKey);
  const p = `/projects/${s.projectId}`;
  const windows = ['duration_days=30', 'duration_days=7', 'duration_days=30&providers=perplexity,claude', 'duration_days=30&providers=gemini'];
  const paths = windows.flatMap((w) => [`${p}/competitors?${w}`, `${p}/visibility?${w}`, `${p}/overview?${w}`, `${p}/prompts?${w}`]);
  return bodiesOf(c, paths);
}

it('a store of the 0013 format migrates to the per-brand arrays of project_daily with every figure unchanged', async () => {
  const s = await seedProject(t.runtime.ctx, { prompts: 3, providers: [...PROVIDERS], days: 20, competitors: 4 });
  const store = t.runtime.ctx.store;
  const c = client(t.app, s.apiKey);
  // a competitor deleted after its answers were stored: its sums stay in the rollups, shown nowhere
  const competitors = (await c.get(`/projects/${s.projectId}/competitors?duration_days=30`)).json().data.active_competitors as Array<{
    competitor_id: string;
    is_own_brand: boolean;
    metrics: { mention_count: number };
  }>;
  const others = competitors.filter((x) => !x.is_own_brand);
  expect(others.length).toBe(4);
  // the brands were named, so the comparison can fail
  expect(others.every((x) => x.metrics.mention_count > 0)).toBe(true);
  expect((await c.delete(`/projects/${s.projectId}/competitors/${others[1].competitor_id}`)).statusCode).toBe(200);
  const before = await bodies(s);

  await undoThrough(store, '0014_project_brand_arrays');
  const old = await store.query<{ n: number }>(`select count(*)::int as n from project_brand_daily where project_id = $1`, [s.projectId]);
  expect(old.rows[0].n).toBeGreaterThan(20 * 3);
  await t.restart();
  expect(await bodies(s)).toEqual(before);
  await expectConsistentRollups(t.runtime.ctx.store, s.projectId);

  // a prompt deleted on the migrated store: its answers leave the project rows' arrays
  const prompts = (await client(t.app, s.apiKey).get(`/projects/${s.projectId}/prompts`)).json().data.prompts as Array<{ id: string }>;
  expect((await client(t.app, s.apiKey).delete(`/projects/${s.projectId}/prompts/${prompts[0].id}`)).statusCode).toBe(200);
  await expectConsistentRollups(t.runtime.ctx.store, s.projectId);
  const after = await bodies(s);
  expect(after).not.toEqual(before);
});
