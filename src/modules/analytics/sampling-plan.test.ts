// GET /projects/{id}/sampling-plan: per prompt, the interval so far and the answers, samples
// and credits a chosen margin needs, against answers stored through the real write path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, data, fixtureProject, OWN, type FixtureProject, type Named } from '../../../test/analytics-fixture.js';
import { startTestApp, type TestApp } from '../../../test/helpers.js';
import { trialsForMargin, wilson } from '../../lib/statistics.js';
import { CONTRACT_PROVIDERS } from '../../ports/providers/types.js';
import { storeAnswers } from '../answers/store-answers.js';

let t: TestApp;
let f: FixtureProject;
const DAYS = ['2025-03-01', '2025-03-02'];
const WINDOW = `date_from=${DAYS[0]}&date_to=${DAYS[1]}`;

beforeAll(async () => {
  t = await startTestApp({ role: 'api', rateLimitWindowMs: 100 });
  f = await fixtureProject(t, { brand: 'Acme', url: 'https://acme.com', prompts: ['Best CRM?', 'Cheapest CRM?'] });
  // The first prompt: 2 days × 5 engines × 4 samples = 40 answers, the brand named in 10.
  let i = 0;
  const answers = DAYS.flatMap((day) =>
    CONTRACT_PROVIDERS.flatMap((provider) =>
      [1, 2, 3, 4].map((sample) => {
        const named: Named = i++ % 4 === 0 ? { [OWN]: [1, 1, 70] } : {};
        return { ...answerOf({ prompt: f.promptIds[0], provider, day, named }, 'acme.com'), sample };
      }),
    ),
  );
  await t.runtime.ctx.store.tx((tx) => storeAnswers(tx, f.projectId, answers));
});
afterAll(async () => t?.stop());

const plan = (query: string) => data(f.api, `/projects/${f.projectId}/sampling-plan?${query}`);

describe('GET /sampling-plan', () => {
  it("states each prompt's interval and what a ±5 point interval needs", async () => {
    const [first, second] = await plan(WINDOW);
    const ci = wilson(10, 40)!;
    const needed = trialsForMargin(0.25, 5);
    expect(first).toEqual({
      prompt_id: f.promptIds[0],
      content: 'Best CRM?',
      responses: 40,
      visibility: 25,
      visibility_ci: ci,
      half_width: Math.round(((ci[1] - ci[0]) / 2) * 100) / 100,
      samples_needed: needed,
      credits_needed: needed - 40,
      samples_per_run_needed: Math.ceil(needed / (2 * 5)),
    });
    // unmeasured: no interval, and the widest proportion (0.5) to plan for
    expect(second).toMatchObject({ responses: 0, visibility: null, visibility_ci: null, half_width: null, samples_needed: 381, credits_needed: 381 });
  });

  it('follows the margin and the engines asked for', async () => {
    const [wide] = await plan(`${WINDOW}&margin=20`);
    expect(wide.samples_needed).toBe(trialsForMargin(0.25, 20));
    expect(wide.credits_needed).toBe(0); // 40 answers already give ±20 points
    const [chatgpt] = await plan(`${WINDOW}&providers=chatgpt`);
    expect(chatgpt.responses).toBe(8);
    expect(chatgpt.samples_per_run_needed).toBe(Math.ceil(chatgpt.samples_needed / 2));
  });

  it('a margin outside (0, 50] is a 400', async () => {
    for (const margin of ['0', '-1', '50.5', 'abc']) {
      const res = await f.api.get(`/projects/${f.projectId}/sampling-plan?margin=${margin}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/margin must be a number greater than 0 and at most 50/);
    }
    expect((await f.api.get(`/projects/${f.projectId}/sampling-plan?margin=50`)).statusCode).toBe(200);
  });

  it('another team cannot read it', async () => {
    const other = await fixtureProject(t, { brand: 'Other', url: 'https://other.example', prompts: [] });
    expect((await other.api.get(`/projects/${f.projectId}/sampling-plan`)).statusCode).toBe(403);
  });
});
