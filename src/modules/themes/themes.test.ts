import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../analysis/index.js';
import { reanalyseProject } from '../../collection/reanalyse.js';
import { storeAnswers, type AnalysedAnswer } from '../answers/store-answers.js';
import type { ThemeItemOut } from './schema.js';
import { loadBrandSpecs } from '../projects/brands.js';
import { loadProjectWithPlan } from '../projects/project-row.js';
import { data, fixtureProject, type FixtureProject } from '../../../test/analytics-fixture.js';
import { startTestApp, ZERO_UUID, type TestApp } from '../../../test/helpers.js';

// GET /projects/{id}/themes through HTTP on the real store: answers analysed by the real
// analyser and stored through the real write path; then a prompt deleted and the project
// analysed again, the rollup following both.

const ANSWERS: Array<[prompt: number, day: string, text: string]> = [
  [0, '2026-11-02', 'Brevio is cheaper than Zenlytics, but its reporting is limited. Zenlytics has excellent customer support.'],
  [0, '2026-11-03', 'Brevio is affordable and intuitive. Zenlytics is expensive for small teams.'],
  [1, '2026-11-03', 'Brevio offers pipelines and reporting. Brevio support is slow and hard to reach.'],
  [1, '2026-10-01', 'Brevio pricing is great value for money.'],
];

describe('GET /projects/{project_id}/themes', () => {
  let t: TestApp;
  let f: FixtureProject;
  let zenlytics: string;

  beforeAll(async () => {
    t = await startTestApp({ role: 'api' });
    f = await fixtureProject(t, {
      brand: 'Brevio',
      url: 'https://brevio.io',
      prompts: ['best crm for startups', 'crm with good support'],
      competitors: [{ name: 'Zenlytics', website: 'https://zenlytics.com' }],
    });
    zenlytics = f.competitorIds.Zenlytics;
    await t.runtime.ctx.store.tx(async (tx) => {
      const analyse = createAnalyzer(await loadBrandSpecs(tx, (await loadProjectWithPlan(tx, f.projectId))!));
      const items: AnalysedAnswer[] = ANSWERS.map(([p, day, text]) => ({
        promptId: f.promptIds[p],
        provider: 'chatgpt',
        day,
        market: 'US-en',
        answer: { provider: 'chatgpt', model: 'gpt-4o', text, references: [], raw: null, simulated: false },
        analysis: analyse(text, []),
      }));
      expect(await storeAnswers(tx, f.projectId, items)).toHaveLength(ANSWERS.length);
    });
  });
  afterAll(() => t?.stop());

  const themes = (q: string) => data(f.api, `/projects/${f.projectId}/themes?${q}`);
  const byTheme = (list: ThemeItemOut[]): Record<string, ThemeItemOut> => Object.fromEntries(list.map((x) => [x.theme, x]));

  it("counts the own brand's themes by band, with examples linking to the answers", async () => {
    const list = await themes('start_date=2026-11-01&end_date=2026-11-30');
    const own = byTheme(list);
    expect(own.price).toMatchObject({ mentions: 2, positive: 2, neutral: 0, negative: 0 });
    expect(own.support).toMatchObject({ mentions: 1, negative: 1 });
    expect(own.features.mentions).toBeGreaterThanOrEqual(1);
    expect(own.price.examples[0].excerpt).toMatch(/Brevio/);
    const chats = await data(f.api, `/projects/${f.projectId}/prompts/${own.support.examples[0].prompt_id}/chats?date_from=2026-11-01&date_to=2026-11-30`);
    expect(chats.items.map((c: { id: string }) => c.id)).toContain(own.support.examples[0].chat_id);
    // most spoken-of first; the own brand is the default and the all-zero id alike
    expect(list[0].mentions).toBeGreaterThanOrEqual(list[list.length - 1].mentions);
    expect(await themes(`brand_id=${ZERO_UUID}&start_date=2026-11-01&end_date=2026-11-30`)).toEqual(list);
  });

  it("reads a competitor's themes, and only the window's days", async () => {
    const z = byTheme(await themes(`brand_id=${zenlytics}&start_date=2026-11-01&end_date=2026-11-30`));
    expect(z.support).toMatchObject({ mentions: 1, positive: 1 });
    expect(z.price).toMatchObject({ mentions: 1, negative: 1 });
    const october = byTheme(await themes('start_date=2026-10-01&end_date=2026-10-01'));
    expect(Object.keys(october)).toEqual(['price']);
  });

  it('answers bad input with a 4xx and a detail', async () => {
    for (const q of ['start_date=2026-13-01', 'start_date=2026-11-05&end_date=2026-11-01', 'brand_id=nope', 'start_date=2024-01-01&end_date=2026-01-01', 'colour=red']) {
      const res = await f.api.get(`/projects/${f.projectId}/themes?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().detail, q).toBeTruthy();
    }
    const unknown = await f.api.get(`/projects/${f.projectId}/themes?brand_id=11111111-1111-4111-8111-111111111111`);
    expect(unknown.statusCode).toBe(404);
  });

  it('stays consistent when the project is analysed again and when a prompt is deleted', async () => {
    const before = await themes('start_date=2026-10-01&end_date=2026-11-30');
    await reanalyseProject(t.runtime.ctx, f.projectId);
    expect(await themes('start_date=2026-10-01&end_date=2026-11-30')).toEqual(before);

    const del = await f.api.delete(`/projects/${f.projectId}/prompts/${f.promptIds[1]}`);
    expect(del.statusCode).toBe(200);
    const own = byTheme(await themes('start_date=2026-10-01&end_date=2026-11-30'));
    expect(own.support).toBeUndefined(); // only the deleted prompt's answers spoke of it
    expect(own.price).toMatchObject({ mentions: 2, positive: 2 });
    for (const x of Object.values(own)) {
      for (const e of x.examples) expect(e.prompt_id).toBe(f.promptIds[0]);
    }
  });
});
