// The days an engine changed model: counted into engine_model_daily as answers are stored,
// read back through GET /model-changes, the overview summary and MCP's list_model_changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, data, fixtureProject, type FixtureProject } from '../../../test/analytics-fixture.js';
import { startTestApp, type TestApp } from '../../../test/helpers.js';
import type { ProviderName } from '../../ports/providers/types.js';
import { storeAnswers } from '../answers/store-answers.js';

let t: TestApp;
let f: FixtureProject;

/** An answer of `provider` on `day` by `model`, for prompt number `prompt` (0 or 1), sample `sample`. */
const answer = (prompt: number, provider: ProviderName, day: string, model: string, sample = 1) => {
  const stored = answerOf({ prompt: f.promptIds[prompt], provider, day }, 'acme.com');
  return { ...stored, sample, answer: { ...stored.answer, model } };
};

beforeAll(async () => {
  t = await startTestApp({ role: 'api', rateLimitWindowMs: 100 });
  f = await fixtureProject(t, { brand: 'Acme', url: 'https://acme.com', prompts: ['Best CRM?', 'Cheapest CRM?'] });
  await t.runtime.ctx.store.tx((tx) =>
    storeAnswers(tx, f.projectId, [
      // chatgpt: gpt-4o until 03-03, gpt-5 from 03-04 (03-04 mixed, gpt-5 behind most answers)
      answer(0, 'chatgpt', '2025-03-01', 'gpt-4o'),
      answer(0, 'chatgpt', '2025-03-03', 'gpt-4o'),
      answer(0, 'chatgpt', '2025-03-04', 'gpt-5'),
      answer(0, 'chatgpt', '2025-03-04', 'gpt-5', 2),
      answer(1, 'chatgpt', '2025-03-04', 'gpt-4o'),
      answer(0, 'chatgpt', '2025-03-06', 'gpt-5'),
      // claude: one model throughout; gemini: a change on 03-06, its only answer of the second prompt
      answer(0, 'claude', '2025-03-01', 'claude-sonnet-4'),
      answer(0, 'claude', '2025-03-06', 'claude-sonnet-4'),
      answer(0, 'gemini', '2025-03-02', 'gemini-2.0-flash'),
      answer(1, 'gemini', '2025-03-06', 'gemini-2.5-flash'),
    ]),
  );
});
afterAll(async () => t?.stop());

const changes = (query: string) => data(f.api, `/projects/${f.projectId}/model-changes?${query}`);

describe('GET /projects/{id}/model-changes', () => {
  it("lists the days an engine's model of the day differs from its previous day with answers, oldest first", async () => {
    expect(await changes('date_from=2025-03-01&date_to=2025-03-06')).toEqual([
      { provider: 'chatgpt', day: '2025-03-04', from_model: 'gpt-4o', to_model: 'gpt-5' },
      { provider: 'gemini', day: '2025-03-06', from_model: 'gemini-2.0-flash', to_model: 'gemini-2.5-flash' },
    ]);
  });

  it('compares the first day of the window with the last day with answers before it', async () => {
    expect(await changes('date_from=2025-03-04&date_to=2025-03-06')).toEqual([
      { provider: 'chatgpt', day: '2025-03-04', from_model: 'gpt-4o', to_model: 'gpt-5' },
      { provider: 'gemini', day: '2025-03-06', from_model: 'gemini-2.0-flash', to_model: 'gemini-2.5-flash' },
    ]);
    expect(await changes('date_from=2025-03-05&date_to=2025-03-05')).toEqual([]);
  });

  it('follows the providers filter', async () => {
    expect(await changes('date_from=2025-03-01&date_to=2025-03-06&providers=gemini,claude')).toEqual([
      { provider: 'gemini', day: '2025-03-06', from_model: 'gemini-2.0-flash', to_model: 'gemini-2.5-flash' },
    ]);
  });

  it('is part of the overview summary', async () => {
    const summary = await data(f.api, `/projects/${f.projectId}/overview/summary?date_from=2025-03-01&date_to=2025-03-06`);
    expect(summary.model_changes.map((c: { provider: string; day: string }) => `${c.provider} ${c.day}`)).toEqual(['chatgpt 2025-03-04', 'gemini 2025-03-06']);
  });

  it("a deleted prompt's answers no longer count: gemini's only 2.5 answer goes with it", async () => {
    const res = await f.api.delete(`/projects/${f.projectId}/prompts/${f.promptIds[1]}`);
    expect(res.statusCode).toBe(200);
    expect(await changes('date_from=2025-03-01&date_to=2025-03-06')).toEqual([{ provider: 'chatgpt', day: '2025-03-04', from_model: 'gpt-4o', to_model: 'gpt-5' }]);
    const { rows } = await t.runtime.ctx.store.query<{ n: number }>(`select count(*)::int as n from engine_model_daily where project_id = $1 and model = 'gemini-2.5-flash'`, [f.projectId]);
    expect(rows[0].n).toBe(0);
  });

  it('answers 404 for a project of another team and 400 for a bad window', async () => {
    expect((await f.api.get(`/projects/00000000-0000-4000-8000-000000000001/model-changes`)).statusCode).toBe(404);
    const bad = await f.api.get(`/projects/${f.projectId}/model-changes?date_from=yesterday`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toBeTruthy();
  });
});
