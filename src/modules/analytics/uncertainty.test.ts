// The uncertainty fields (issue 12, section 2) across endpoints, and the trend's z-test
// around its significance boundary. Expected values are R 4.2.2's (prop.test without
// continuity correction, t.test), worked out independently of src/lib/statistics.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, ZERO_UUID, type TestApp } from '../../../test/helpers.js';
import { data, fixtureProject, OWN, storeSpecs, type AnswerSpec, type FixtureProject } from '../../../test/analytics-fixture.js';
import { PROVIDERS } from '../../ports/providers/types.js';
import { addDays } from './window.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: 'api', rateLimitWindowMs: 100 });
});
afterAll(async () => t?.stop());

// A week of answers, 5 providers a day: 35 responses per prompt and window.
const FROM = '2025-05-08';
const TO = '2025-05-14';
const W = `date_from=${FROM}&date_to=${TO}`;
const PREV_FROM = '2025-05-01';
/** The 35 (day, provider) slots of the week starting at `from`. */
const slots = (from: string) => Array.from({ length: 35 }, (_, i) => ({ i, day: addDays(from, Math.floor(i / 5)), provider: PROVIDERS[i % 5] }));

describe('trend: the two-proportion z-test around the 95% boundary', () => {
  let f: FixtureProject;
  // [prompt, mentions this week, mentions the week before] of 35 each; R prop.test p-values
  const CASES = [
    ['13 of 35 after 5 of 35: p = 0.0287', 13, 5, 'up'],
    ['12 of 35 after 5 of 35: p = 0.0510 (20 points, the old rule said up)', 12, 5, 'stable'],
    ['17 of 35 after 9 of 35: p = 0.0478', 17, 9, 'up'],
    ['16 of 35 after 9 of 35: p = 0.0808', 16, 9, 'stable'],
    ['5 of 35 after 13 of 35: p = 0.0287', 5, 13, 'down'],
    ['0 of 35 after 0 of 35', 0, 0, 'stable'],
  ] as const;

  beforeAll(async () => {
    f = await fixtureProject(t, { brand: 'Trendco', url: 'https://trendco.io', prompts: CASES.map(([label]) => label) });
    const specs: AnswerSpec[] = [];
    CASES.forEach(([, now, before], p) => {
      for (const [from, mentions] of [[FROM, now], [PREV_FROM, before]] as const) {
        for (const s of slots(from)) specs.push({ prompt: f.promptIds[p], provider: s.provider, day: s.day, named: s.i < mentions ? { [OWN]: [1, 1, 60] } : {} });
      }
    });
    await storeSpecs(t, f.projectId, specs, 'trendco.io');
  });

  it.each(CASES.map((c, i) => [...c, i] as const))('%s -> %s', async (_label, now, _before, trend, i) => {
    const p = await data(f.api, `/projects/${f.projectId}/prompts/${f.promptIds[i]}?${W}`);
    expect(p).toMatchObject({ responses: 35, visibility: Math.round((10000 * now) / 35) / 100, trend });
  });

  it('null when the window before has no responses', async () => {
    // the week before PREV_FROM holds nothing
    const p = await data(f.api, `/projects/${f.projectId}/prompts/${f.promptIds[0]}?date_from=${PREV_FROM}&date_to=${addDays(PREV_FROM, 6)}`);
    expect(p).toMatchObject({ responses: 35, trend: null });
  });
});

describe('the same brand and window: the same responses and intervals on every endpoint', () => {
  let f: FixtureProject;
  let R: string;
  // One prompt, so the project's figures are the prompt's. Slot i (0..34): the own brand is
  // named when i % 3 != 0 (23 of 35), at position 1 + i % 2, sentiment 40 + 5 * (i % 7);
  // Rival when i is even (18), first unless the own brand is first.
  beforeAll(async () => {
    f = await fixtureProject(t, { brand: 'Crossco', url: 'https://crossco.io', prompts: ['Which tool is best?'], competitors: [{ name: 'Rival', website: 'rival.io' }] });
    R = f.competitorIds.Rival;
    const specs: AnswerSpec[] = slots(FROM).map(({ i, day, provider }) => {
      const named: AnswerSpec['named'] = {};
      const own = i % 3 !== 0;
      if (own) named[OWN] = [1 + (i % 2), 1, 40 + 5 * (i % 7)];
      if (i % 2 === 0) named[R] = [own && i % 2 === 0 ? 2 : 1, 1, 50];
      return { prompt: f.promptIds[0], provider, day, named };
    });
    await storeSpecs(t, f.projectId, specs, 'crossco.io');
  });

  const g = (path: string, q: string) => data(f.api, `/projects/${f.projectId}${path}?${q}`);
  const ext = (x: any) => ({ responses: x.responses, visibility_ci: x.visibility_ci, position_ci: x.position_ci, sentiment_ci: x.sentiment_ci });

  it('the week: prompts list and get, overview, competitors (own brand), prompt analytics', async () => {
    const pid = f.promptIds[0];
    const [list, one, overview, comps, analytics] = await Promise.all([
      g('/prompts', W),
      g(`/prompts/${pid}`, W),
      g('/overview', W),
      g('/competitors', W),
      g(`/prompts/${pid}/analytics`, W),
    ]);
    // R: prop.test(23, 35) -> 49.15 .. 79.17; positions t -> 1.26 .. 1.70; sentiments t -> 50.43 .. 59.13
    const expected = { responses: 35, visibility_ci: [49.15, 79.17], position_ci: [1.26, 1.7], sentiment_ci: [50.43, 59.13] };
    expect(ext(list.prompts[0])).toEqual(expected);
    expect(ext(one)).toEqual(expected);
    expect(ext(overview.items[0])).toEqual(expected);
    const own = comps.active_competitors.find((c: any) => c.competitor_id === ZERO_UUID).metrics;
    expect(ext(own)).toEqual(expected);
    expect(analytics.sentiment_ci).toEqual(expected.sentiment_ci);
    // and the figures themselves agree
    expect([own.visibility, own.position]).toEqual([list.prompts[0].visibility, list.prompts[0].position]);
    // share of voice: 23 of the 23 + 18 mentions of tracked brands -> 56.10, R 41.04 .. 70.11
    expect([own.share_of_voice, own.share_of_voice_ci]).toEqual([56.1, [41.04, 70.11]]);
  });

  it('each day: the visibility series, the competitors and the prompts of a one-day window', async () => {
    const series = await g('/visibility', W);
    expect(series.dates).toHaveLength(7);
    for (const [i, day] of series.dates.entries()) {
      const oneDay = `date_from=${day}&date_to=${day}`;
      const [comps, prompts] = await Promise.all([g('/competitors', oneDay), g('/prompts', oneDay)]);
      for (const s of series.series) {
        const m = comps.active_competitors.find((c: any) => c.competitor_id === s.competitor_id).metrics;
        const point = { responses: s.responses[i], visibility_ci: s.visibility_ci[i], position_ci: s.position_ci[i], sentiment_ci: s.sentiment_ci[i] };
        expect(point).toEqual(ext(m));
        expect(s.responses[i]).toBe(5);
        if (s.is_own_brand) expect(point).toEqual(ext(prompts.prompts[0]));
      }
    }
  });
});

describe('the schemas describe every new field (the OpenAPI document is built from them)', () => {
  /** Every property of a JSON schema, at any depth, with its description (or its items'). */
  function properties(node: unknown, out = new Map<string, string | undefined>()): Map<string, string | undefined> {
    if (Array.isArray(node)) for (const n of node) properties(n, out);
    else if (node && typeof node === 'object') {
      const o = node as Record<string, any>;
      if (o.properties) for (const [k, v] of Object.entries<any>(o.properties)) if (!out.get(k)) out.set(k, v.description ?? v.items?.description);
      for (const v of Object.values(o)) properties(v, out);
    }
    return out;
  }
  const EXT = ['responses', 'visibility_ci', 'position_ci', 'sentiment_ci'];

  it.each([
    ['Prompt', () => import('../prompts/schema.js').then((s) => s.Prompt), [...EXT, 'trend']],
    ['CompetitorMetrics', () => import('../competitors/schema.js').then((s) => s.CompetitorMetrics), [...EXT, 'share_of_voice', 'share_of_voice_ci']],
    ['OverviewItem', () => import('./schema.js').then((s) => s.OverviewItem), EXT],
    ['Visibility', () => import('./schema.js').then((s) => s.Visibility), EXT],
    ['PromptAnalytics', () => import('./schema.js').then((s) => s.PromptAnalytics), ['sentiment_ci', 'n', 'ci']],
  ] as const)('%s', async (_name, load, fields) => {
    const { z } = await import('zod');
    const props = properties(z.toJSONSchema(await load(), { unrepresentable: 'any' }));
    for (const field of fields) expect(props.get(field), field).toMatch(/^Extension: |z-test/);
  });

  it('the document shows them where it inlines the schema (GET /visibility)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const op = doc.paths['/v1/projects/{project_id}/visibility'].get;
    const props = properties(op.responses['200']);
    for (const field of EXT) expect(props.get(field), field).toMatch(/^Extension: /);
  });
});
