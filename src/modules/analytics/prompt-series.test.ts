// GET /projects/{id}/prompts/series (extension): every prompt's daily visibility over the
// window, for the dashboard's sparklines. Hand-made answers through the real write path;
// every figure below is worked out by hand, and each provider's series is checked against
// the prompt analytics endpoint's chart for the same prompt and window.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, errorBody, startTestApp, client, type TestApp } from '../../../test/helpers.js';
import { data, fixtureProject, OWN, storeSpecs, type AnswerSpec, type FixtureProject } from '../../../test/analytics-fixture.js';

let t: TestApp;
let f: FixtureProject;
let P1: string, P2: string, P3: string;

const D0 = '2025-03-31';
const D1 = '2025-04-01';
const D2 = '2025-04-02';
const D3 = '2025-04-03';
const W = `date_from=${D1}&date_to=${D3}`;
const yes = { [OWN]: [1, 1, 60] as [number, number, number] };

// In W (y = the own brand is named):
//   P1: D1 chatgpt y, perplexity n, claude y;  D2 chatgpt n;  D3 none
//   P2: D1 perplexity y;  D3 chatgpt y, claude n
//   P3: never answered
// Before W: P1 D0 chatgpt y (outside the window: counted nowhere).
beforeAll(async () => {
  t = await startTestApp({ role: 'api', rateLimitWindowMs: 100 });
  f = await fixtureProject(t, { brand: 'Acme', url: 'https://acme.com', prompts: ['Best CRM?', 'Acme vs Rival', 'CRM for agencies?'] });
  [P1, P2, P3] = f.promptIds;
  const specs: AnswerSpec[] = [
    { prompt: P1, provider: 'chatgpt', day: D1, named: yes },
    { prompt: P1, provider: 'perplexity', day: D1 },
    { prompt: P1, provider: 'claude', day: D1, named: yes },
    { prompt: P1, provider: 'chatgpt', day: D2 },
    { prompt: P2, provider: 'perplexity', day: D1, named: yes },
    { prompt: P2, provider: 'chatgpt', day: D3, named: yes },
    { prompt: P2, provider: 'claude', day: D3 },
    { prompt: P1, provider: 'chatgpt', day: D0, named: yes },
  ];
  await storeSpecs(t, f.projectId, specs, 'acme.com');
});
afterAll(async () => t?.stop());

const series = (q: string) => data(f.api, `/projects/${f.projectId}/prompts/series?${q}`);
const of = (d: any, id: string) => d.prompts.find((p: any) => p.prompt_id === id);

describe('GET /projects/{project_id}/prompts/series', () => {
  it('gives every prompt one point per day, over all providers', async () => {
    const d = await series(W);
    expect(d.project_id).toBe(f.projectId);
    expect(d.dates).toEqual([D1, D2, D3]);
    // by creation, as the prompt list
    expect(d.prompts.map((p: any) => p.prompt_id)).toEqual([P1, P2, P3]);
    expect(of(d, P1)).toEqual({ prompt_id: P1, visibility: [66.67, 0, null], responses: [3, 1, 0] });
    expect(of(d, P2)).toEqual({ prompt_id: P2, visibility: [100, null, 50], responses: [1, 0, 2] });
    expect(of(d, P3)).toEqual({ prompt_id: P3, visibility: [null, null, null], responses: [0, 0, 0] });
  });

  it('sums the providers asked for', async () => {
    const d = await series(`${W}&providers=chatgpt,claude`);
    expect(of(d, P1)).toEqual({ prompt_id: P1, visibility: [100, 0, null], responses: [2, 1, 0] });
    expect(of(d, P2)).toEqual({ prompt_id: P2, visibility: [null, null, 50], responses: [0, 0, 2] });
    const p = await series(`${W}&providers=perplexity`);
    expect(of(p, P1).visibility).toEqual([0, null, null]);
    expect(of(p, P2).visibility).toEqual([100, null, null]);
  });

  it('agrees with the prompt analytics chart, provider by provider and day by day', async () => {
    for (const prompt of [P1, P2]) {
      const chart = (await data(f.api, `/projects/${f.projectId}/prompts/${prompt}/analytics?${W}`)).visibility_chart;
      for (const provider of ['chatgpt', 'perplexity', 'claude']) {
        const s = of(await series(`${W}&providers=${provider}`), prompt);
        [D1, D2, D3].forEach((day, i) => {
          const point = chart[day].find((x: any) => x.provider === provider);
          expect(s.visibility[i]).toBe(point ? point.value : null);
          expect(s.responses[i]).toBe(point ? point.n : 0);
        });
      }
    }
  });

  it('defaults to the last 7 days ending today', async () => {
    const d = await series('');
    expect(d.dates).toHaveLength(7);
    expect(d.dates[6]).toBe(new Date().toISOString().slice(0, 10));
    expect(of(d, P1).responses).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it('refuses a bad window or provider with a 400, and another team or no key', async () => {
    const bad = await f.api.get(`/projects/${f.projectId}/prompts/series?providers=bard`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual(errorBody(expect.stringMatching(/^Unknown provider: bard/)));
    expect((await f.api.get(`/projects/${f.projectId}/prompts/series?date_from=2025-04-05&date_to=2025-04-01`)).statusCode).toBe(400);
    expect((await f.api.get(`/projects/${f.projectId}/prompts/series?days=3`)).statusCode).toBe(400);
    const other = client(t.app, (await createAccount(t.app)).key);
    expect((await other.get(`/projects/${f.projectId}/prompts/series?${W}`)).statusCode).toBe(403);
    expect((await client(t.app).get(`/projects/${f.projectId}/prompts/series`)).statusCode).toBe(401);
    expect((await f.api.get(`/projects/00000000-0000-4000-8000-000000000000/prompts/series`)).statusCode).toBe(404);
  });

  it('leaves the single-prompt route alone', async () => {
    expect((await data(f.api, `/projects/${f.projectId}/prompts/${P1}?${W}`)).id).toBe(P1);
  });
});
