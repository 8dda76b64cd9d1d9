import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, errorBody, startTestApp, type TestApp } from '../../../test/helpers.js';
import { data, fixtureProject, OWN, storeSpecs, type AnswerSpec, type FixtureProject } from '../../../test/analytics-fixture.js';
import { addDays } from '../analytics/window.js';
import { utcDay } from '../../lib/time.js';

// GET /projects/{id}/overview/summary: the dashboard overview's aggregate read. Every
// table in it is the one GET /competitors gives for the same window; it only saves requests.
// GET /team/credits: what the team's credits buy and when they reset.

let t: TestApp;
let fx: FixtureProject;
const today = utcDay();
const from = addDays(today, -6);

beforeAll(async () => {
  t = await startTestApp({ role: 'api' });
  fx = await fixtureProject(t, {
    brand: 'Nexora',
    url: 'https://nexora.io',
    prompts: ['best crm for startups', 'crm with email sync'],
    competitors: [{ name: 'Pipewell', website: 'https://pipewell.com' }],
  });
  const pipe = fx.competitorIds.Pipewell!;
  const specs: AnswerSpec[] = [];
  for (let d = -13; d <= 0; d++) {
    for (const provider of ['chatgpt', 'perplexity', 'claude'] as const) {
      const own = (d + (provider === 'claude' ? 1 : 0)) % 2 === 0;
      specs.push({ prompt: fx.promptIds[0]!, provider, day: addDays(today, d), named: own ? { [OWN]: [1, 1, 1], [pipe]: [2, 1, 0] } : { [pipe]: [1, 1, 0] } });
    }
  }
  await storeSpecs(t, fx.projectId, specs, 'nexora.io');
});
afterAll(async () => t?.stop());

describe('GET /projects/{project_id}/overview/summary', () => {
  it('current, previous and per-engine tables equal GET /competitors for the same windows', async () => {
    const q = `?date_from=${from}&date_to=${today}`;
    const summary = await data(fx.api, `/projects/${fx.projectId}/overview/summary${q}`);
    const current = await data(fx.api, `/projects/${fx.projectId}/competitors${q}`);
    const previous = await data(fx.api, `/projects/${fx.projectId}/competitors?date_from=${addDays(from, -7)}&date_to=${addDays(from, -1)}`);
    expect(summary.current).toEqual({ date_from: from, date_to: today, ...current });
    expect(summary.previous).toEqual({ date_from: addDays(from, -7), date_to: addDays(from, -1), ...previous });
    expect(summary.current.active_competitors[0].metrics.responses).toBeGreaterThan(0);
    // No engine filter: the project's engines (the contract's five), each as /competitors?providers= gives it.
    expect(summary.by_provider.map((r: { provider: string }) => r.provider)).toEqual(['chatgpt', 'perplexity', 'google_ai_overview', 'gemini', 'claude']);
    for (const row of summary.by_provider) {
      const one = await data(fx.api, `/projects/${fx.projectId}/competitors${q}&providers=${row.provider}`);
      expect(row.own_brand).toEqual(one.active_competitors.find((c: { is_own_brand: boolean }) => c.is_own_brand).metrics);
    }
    expect(summary.by_provider.find((r: { provider: string }) => r.provider === 'chatgpt').own_brand.responses).toBe(7);
    expect(summary.engines).toContainEqual({ provider: 'chatgpt', mode: 'simulated', live_with: 'OPENAI_API_KEY' });
  });

  it('an engine filter narrows every table and the per-engine rows to those engines', async () => {
    const q = `?date_from=${from}&date_to=${today}&providers=claude,chatgpt`;
    const summary = await data(fx.api, `/projects/${fx.projectId}/overview/summary${q}`);
    expect(summary.by_provider.map((r: { provider: string }) => r.provider)).toEqual(['claude', 'chatgpt']);
    expect(summary.current.active_competitors).toEqual((await data(fx.api, `/projects/${fx.projectId}/competitors${q}`)).active_competitors);
  });

  it('bad input is a 400 with detail; another team is a 403; no key a 401', async () => {
    const bad = await fx.api.get(`/projects/${fx.projectId}/overview/summary?providers=altavista`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual(errorBody(expect.stringMatching(/^Unknown provider: altavista/)));
    expect((await fx.api.get(`/projects/${fx.projectId}/overview/summary?date_from=2026-02-30`)).statusCode).toBe(400);
    const other = await createAccount(t.app);
    const foreign = await client(t.app, other.key).get(`/projects/${fx.projectId}/overview/summary`);
    expect(foreign.statusCode).toBe(403);
    expect((await client(t.app).get(`/projects/${fx.projectId}/overview/summary`)).statusCode).toBe(401);
  });
});

describe('GET /projects/{project_id}/overview/summary: changes', () => {
  it('inside the noise: every own-brand test stable, no mover', async () => {
    const summary = await data(fx.api, `/projects/${fx.projectId}/overview/summary?date_from=${from}&date_to=${today}`);
    // 11 of 21 answers name the brand this week, 10 of 21 the week before; Pipewell every answer of both.
    expect(summary.changes).toEqual({
      own_brand: { visibility: 'stable', share_of_voice: 'stable', position: 'stable', sentiment: 'stable' },
      competitors: [],
      prompts: [],
      sources: [],
    });
  });

  it('a significant change: the own brand, its prompt, a competitor and a cited domain, with the alerts’ test', async () => {
    const gx = await fixtureProject(t, {
      brand: 'Quillo',
      url: 'https://quillo.io',
      prompts: ['best note app', 'note app with sync'],
      competitors: [{ name: 'Notewell', website: 'https://notewell.com' }],
    });
    const rival = gx.competitorIds.Notewell!;
    const specs: AnswerSpec[] = [];
    for (let d = -13; d <= 0; d++) {
      const recent = d >= -6;
      for (const provider of ['chatgpt', 'perplexity'] as const) {
        specs.push({
          prompt: gx.promptIds[0]!,
          provider,
          day: addDays(today, d),
          named: recent ? { [OWN]: [1, 1, 1], [rival]: [2, 1, 0] } : {},
          cites: recent ? [{ url: 'https://reviews.example/notes', domain: 'reviews.example', category: 0, urlType: null }] : [],
        });
        // the second prompt: the same in both weeks (not a mover)
        specs.push({ prompt: gx.promptIds[1]!, provider, day: addDays(today, d), named: { [OWN]: [1, 1, 1] } });
      }
    }
    await storeSpecs(t, gx.projectId, specs, 'quillo.io');
    const summary = await data(gx.api, `/projects/${gx.projectId}/overview/summary?date_from=${from}&date_to=${today}`);
    // 28 of 28 answers against 14 of 28.
    expect(summary.changes.own_brand.visibility).toBe('up');
    expect(summary.changes.prompts).toEqual([{ prompt_id: gx.promptIds[0], content: 'best note app', direction: 'up', value: 100, previous: 0, p_value: expect.any(Number) }]);
    expect(summary.changes.prompts[0].p_value).toBeLessThan(0.05);
    expect(summary.changes.competitors).toEqual([{ competitor_id: rival, name: 'Notewell', direction: 'up', value: 50, previous: 0, p_value: expect.any(Number) }]);
    expect(summary.changes.sources).toEqual([{ domain: 'reviews.example', direction: 'up', value: 50, previous: 0, p_value: expect.any(Number) }]);
  });
});

describe('GET /team/credits', () => {
  it('credits left, a day of tracking (prompts × engines × samples), the days it buys and the reset', async () => {
    const credits = await data(fx.api, '/team/credits');
    // fixtureProject: skip_trial, 2 active prompts, the five engines, 1 sample.
    expect(credits).toMatchObject({
      plan: 'skip_trial',
      credits_included: 10,
      credits_per_day: 10,
      projects: [{ project_id: fx.projectId, name: expect.any(String), active_prompts: 2, engines: 5, samples_per_run: 1, credits_per_day: 10 }],
    });
    expect(credits.credits_left).toBe(10 - credits.credits_used);
    expect(credits.days_of_tracking_left).toBe(Math.floor(credits.credits_left / 10));
    const now = new Date();
    expect(credits.resets_at).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
    expect(credits.enough_until_reset).toBe(credits.days_of_tracking_left >= credits.days_to_reset);

    const fresh = await createAccount(t.app);
    const none = await data(client(t.app, fresh.key), '/team/credits');
    expect(none).toMatchObject({ credits_per_day: 0, days_of_tracking_left: null, enough_until_reset: true, projects: [] });
    expect((await client(t.app).get('/team/credits')).statusCode).toBe(401);
  });
});
