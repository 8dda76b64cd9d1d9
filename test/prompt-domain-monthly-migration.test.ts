// Migration 0016 adds prompt_domain_monthly (the domains a prompt's answers cite, per provider
// and month), filled from the answers already stored. This stores answers through the write
// path, reads the prompts' domains (and URLs) over windows of whole and partial months, turns
// the store back into the 0015 format (the table dropped, 0016 unrecorded), starts again
// (migrations) and reads them again: each body byte for byte the same, and the rows the
// backfill made those the write path makes. Then a prompt is deleted on the migrated store.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedProject, type SeedResult } from '../src/collection/seed.js';
import { PROVIDERS } from '../src/ports/providers/types.js';
import { client, startRestartableTestApp, type TestApp } from './helpers.js';
import { expectConsistentRollups } from './rollup-invariants.js';
import { bodiesOf, undoThrough } from './undo-migrations.js';

let t: TestApp;
beforeAll(async () => {
  // no workers: the re-analysis a competitor's deletion queues stays queued, so its bits stay in the rows
  t = await startRestartableTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

const WINDOWS = [
  'date_from=2025-03-02&date_to=2025-05-20',
  'date_from=2025-04-01&date_to=2025-04-30',
  'date_from=2025-03-15&date_to=2025-05-31&providers=perplexity,claude',
  'date_from=2025-02-20&date_to=2025-05-20&providers=gemini',
  'date_from=2025-05-03&date_to=2025-05-09',
];

async function bodies(s: SeedResult, prompts: string[]): Promise<Record<string, string>> {
  const paths = prompts.flatMap((q) => WINDOWS.flatMap((w) => ['domains', 'urls'].map((what) => `/projects/${s.projectId}/prompts/${q}/${what}?${w}`)));
  return bodiesOf(client(t.app, s.apiKey), paths);
}

it('a store of the 0015 format migrates to prompt_domain_monthly with every domain and URL figure unchanged', async () => {
  const s = await seedProject(t.runtime.ctx, { prompts: 3, providers: [...PROVIDERS], days: 80, competitors: 4, endDay: '2025-05-20' });
  const store = t.runtime.ctx.store;
  const c = client(t.app, s.apiKey);
  const prompts = ((await c.get(`/projects/${s.projectId}/prompts`)).json().data.prompts as Array<{ id: string }>).map((p) => p.id);
  // a competitor deleted after its answers were stored: its bits stay in the rows, shown nowhere
  const competitors = (await c.get(`/projects/${s.projectId}/competitors?date_from=2025-03-01&date_to=2025-05-20`)).json().data.active_competitors as Array<{
    competitor_id: string;
    is_own_brand: boolean;
  }>;
  const others = competitors.filter((x) => !x.is_own_brand);
  expect(others.length).toBe(4);
  expect((await c.delete(`/projects/${s.projectId}/competitors/${others[1].competitor_id}`)).statusCode).toBe(200);
  const before = await bodies(s, prompts);
  // the figures are there to compare: domains with brands named beside them
  const domains = JSON.parse(before[`/projects/${s.projectId}/prompts/${prompts[0]}/domains?${WINDOWS[0]}`]).data.items as Array<{ brands_appeared: unknown[] }>;
  expect(domains.length).toBeGreaterThan(3);
  expect(domains.some((d) => d.brands_appeared.length > 1)).toBe(true);
  await expectConsistentRollups(store, s.projectId);
  const rows = async () =>
    (await t.runtime.ctx.store.query(`select * from prompt_domain_monthly where project_id = $1`, [s.projectId])).rows
      .map((r) => JSON.stringify({ ...r, brands: undefined }))
      .sort();
  const written = await rows();
  expect(written.length).toBeGreaterThan(3 * 3);

  await undoThrough(store, '0016_prompt_domain_monthly');
  await t.restart();
  expect(await bodies(s, prompts)).toEqual(before);
  await expectConsistentRollups(t.runtime.ctx.store, s.projectId);
  // the rows as the write path made them (the brands bits aside: the deleted competitor's are not backfilled)
  expect(await rows()).toEqual(written);

  // a prompt deleted on the migrated store: its rows go with it, the others' figures stay
  expect((await client(t.app, s.apiKey).delete(`/projects/${s.projectId}/prompts/${prompts[0]}`)).statusCode).toBe(200);
  await expectConsistentRollups(t.runtime.ctx.store, s.projectId);
  const left = await bodies(s, prompts.slice(1));
  for (const [p, body] of Object.entries(left)) expect(body, p).toBe(before[p]);
});

it('a project tracking a brand numbered 31 or more reads its domains from the answers, with the same figures', async () => {
  const s = await seedProject(t.runtime.ctx, { prompts: 2, providers: [...PROVIDERS], days: 50, competitors: 3, endDay: '2025-05-20' });
  const prompts = ((await client(t.app, s.apiKey).get(`/projects/${s.projectId}/prompts`)).json().data.prompts as Array<{ id: string }>).map((p) => p.id);
  const before = await bodies(s, prompts);
  const store = t.runtime.ctx.store;
  const last = await store.query<{ id: string; name: string; brand_no: number }>(
    `select id, name, brand_no from competitors where project_id = $1 and not is_own_brand order by brand_no desc limit 1`,
    [s.projectId],
  );
  // the brand is named beside the domains, so the comparison can fail
  const named = Object.entries(before).filter(([p, body]) => p.includes('/domains?') && body.includes(`"name":${JSON.stringify(last.rows[0].name)}`));
  expect(named.length).toBeGreaterThan(0);
  // that competitor renumbered past the rollup's 31 bits (as after 31 competitors added over
  // time), in the answers that name it too (responses.brand_nos, migration 0035)
  await store.query(`update competitors set brand_no = 40 where id = $1`, [last.rows[0].id]);
  await store.query(`update projects set brand_seq = 40 where id = $1`, [s.projectId]);
  await store.query(`update responses set brand_nos = array_replace(brand_nos, $2::smallint, 40::smallint) where project_id = $1`, [s.projectId, last.rows[0].brand_no]);
  expect(await bodies(s, prompts)).toEqual(before);
});
