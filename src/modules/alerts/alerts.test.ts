import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureProject, OWN, storeSpecs, type AnswerSpec, type FixtureProject } from '../../../test/analytics-fixture.js';
import { createAccount, errorBody, startTestApp, client, ZERO_UUID, type TestApp } from '../../../test/helpers.js';
import { addDays } from '../analytics/window.js';
import { evaluateProjectAlerts } from './evaluate.js';

// Alert rules through HTTP on the suite's store, evaluated as a collection run's job does,
// on hand-made answers whose mention rate changes by a known amount: a drop from 80 % to
// 20 % of 28 answers a window is significant (z ≈ 4.5), 50 % to 43 % is inside the noise,
// and a window without answers is unmeasured. Neither of the last two may fire.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

const PROVIDERS = ['chatgpt', 'perplexity'] as const;

/** Answers of `days` days from `from`: 2 prompts × 2 providers a day, the first `mentioned` of them naming the own brand. */
function windowSpecs(f: FixtureProject, from: string, days: number, mentioned: number, competitor?: string, sentiment = (_i: number) => 60): AnswerSpec[] {
  const specs: AnswerSpec[] = [];
  for (let d = 0; d < days; d++)
    for (const prompt of f.promptIds)
      for (const provider of PROVIDERS) {
        const named: Record<string, [number, number, number]> = {};
        if (specs.length < mentioned) named[OWN] = [1, 1, sentiment(specs.length)];
        if (competitor) named[competitor] = [2, 1, 50];
        specs.push({ prompt, provider, day: addDays(from, d), named });
      }
  return specs;
}

async function project() {
  const f = await fixtureProject(t, {
    brand: 'Acme',
    url: 'https://acme.com',
    prompts: ['Best CRM for a small team?', 'Which CRM is easiest?'],
    competitors: [{ name: 'Rival', website: 'https://rival.com' }],
  });
  return f;
}

const evaluate = (f: FixtureProject, day: string, runId: string | null = null) => evaluateProjectAlerts(t.runtime.ctx, { projectId: f.projectId, day, runId });

async function events(f: FixtureProject) {
  const res = await f.api.get(`/projects/${f.projectId}/alerts/events`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Array<Record<string, any>>;
}

async function rule(f: FixtureProject, body: Record<string, unknown>) {
  const res = await f.api.post(`/projects/${f.projectId}/alerts`, { name: 'Rule', channels: [], ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Record<string, any>;
}

// Two windows of 7 days: D-13..D-7 and D-6..D.
const D = '2026-10-20';
const PREV = addDays(D, -13);
const CUR = addDays(D, -6);

describe('alert rules CRUD', () => {
  it('creates, reads, lists, changes and deletes a rule', async () => {
    const f = await project();
    const created = await rule(f, { name: 'Visibility drop', metric: 'visibility', condition: 'significant_drop', channels: [{ type: 'webhook' }] });
    expect(created).toMatchObject({ name: 'Visibility drop', metric: 'visibility', condition: 'significant_drop', threshold: null, window_days: 7, channels: [{ type: 'webhook' }], is_active: true });
    const got = await f.api.get(`/projects/${f.projectId}/alerts/${created.alert_id}`);
    expect(got.json().data).toEqual(created);
    expect((await f.api.get(`/projects/${f.projectId}/alerts`)).json().data).toHaveLength(1);
    const patched = await f.api.patch(`/projects/${f.projectId}/alerts/${created.alert_id}`, { condition: 'below', threshold: 30 });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data).toMatchObject({ condition: 'below', threshold: 30 });
    const del = await f.api.delete(`/projects/${f.projectId}/alerts/${created.alert_id}`);
    expect(del.json().data).toEqual({ alert_id: created.alert_id, message: 'Alert deleted' });
    expect((await f.api.get(`/projects/${f.projectId}/alerts/${created.alert_id}`)).statusCode).toBe(404);
  });

  it('refuses bad rules with a 400 and a detail', async () => {
    const f = await project();
    const bad = async (body: Record<string, unknown>, detail: RegExp) => {
      const res = await f.api.post(`/projects/${f.projectId}/alerts`, { name: 'x', channels: [], ...body });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual(errorBody(expect.stringMatching(detail)));
    };
    await bad({ metric: 'clicks', condition: 'above', threshold: 1 }, /metric must be one of/);
    await bad({ metric: 'visibility', condition: 'below' }, /needs a threshold/);
    await bad({ metric: 'visibility' }, /condition is required/);
    await bad({ metric: 'visibility', condition: 'above', threshold: 1, channels: [{ type: 'slack', url: 'http://hooks.slack.com/x' }] }, /HTTPS/);
    await bad({ metric: 'visibility', condition: 'above', threshold: 1, channels: [{ type: 'slack', url: 'https://127.0.0.1/x' }] }, /public address/);
    await bad({ metric: 'visibility', condition: 'above', threshold: 1, channels: [{ type: 'email', to: ['not-an-address'] }] }, /e-mail/);
    await bad({ metric: 'visibility', condition: 'above', threshold: 1, brand_id: crypto.randomUUID() }, /not a competitor/);
    await bad({ metric: 'share_of_voice', condition: 'above', threshold: 1, prompt_ids: [f.promptIds[0]] }, /prompt_ids/);
    await bad({ metric: 'new_competitor', condition: 'significant_drop' }, /condition above/);
  });

  it('keeps other teams out and viewers from writing', async () => {
    const f = await project();
    const created = await rule(f, { metric: 'visibility', condition: 'above', threshold: 10 });
    const other = client(t.app, (await createAccount(t.app)).key);
    expect((await other.get(`/projects/${f.projectId}/alerts`)).statusCode).toBe(403);
    expect((await other.delete(`/projects/${f.projectId}/alerts/${created.alert_id}`)).statusCode).toBe(403);
    expect((await f.api.get(`/projects/${f.projectId}/alerts/${ZERO_UUID}`)).statusCode).toBe(404);
  });
});

describe('evaluation after a run', () => {
  it('fires once on a significant drop, on the run that sees it, with value, previous, p-value and window', async () => {
    const f = await project();
    const r = await rule(f, { name: 'Drop', metric: 'visibility', condition: 'significant_drop' });
    await storeSpecs(t, f.projectId, windowSpecs(f, PREV, 7, 22), 'acme.com'); // 22 of 28: 78.57 %
    // the run of D-7: its window is the 80 % one, the window before has no answers: unmeasured
    expect(await evaluate(f, addDays(D, -7))).toMatchObject({ evaluated: 1, fired: 0, unmeasured: 1 });
    await storeSpecs(t, f.projectId, windowSpecs(f, CUR, 7, 6), 'acme.com'); // 6 of 28: 21.43 %
    expect(await evaluate(f, D, crypto.randomUUID())).toMatchObject({ fired: 1 });
    const [e] = await events(f);
    expect(e).toMatchObject({
      alert_id: r.alert_id,
      metric: 'visibility',
      condition: 'significant_drop',
      value: 21.43,
      previous: 78.57,
      window: { start_date: CUR, end_date: D, previous_start_date: PREV, previous_end_date: addDays(D, -7), responses: 28, previous_responses: 28 },
      deliveries: [],
    });
    // two-proportion z = -4.28: p ≈ 1.9e-5
    expect(e.p_value).toBeGreaterThan(1e-6);
    expect(e.p_value).toBeLessThan(1e-4);
    // the condition still holds on the next runs: no second event
    expect(await evaluate(f, D, crypto.randomUUID())).toMatchObject({ fired: 0 });
    expect(await evaluate(f, D)).toMatchObject({ fired: 0 });
    expect(await events(f)).toHaveLength(1);
  });

  it('stays silent on a change inside the noise', async () => {
    const f = await project();
    await rule(f, { metric: 'visibility', condition: 'significant_change' });
    await storeSpecs(t, f.projectId, [...windowSpecs(f, PREV, 7, 14), ...windowSpecs(f, CUR, 7, 12)], 'acme.com'); // 50 % → 42.86 %
    expect(await evaluate(f, D)).toMatchObject({ evaluated: 1, fired: 0, unmeasured: 0 });
    expect(await events(f)).toEqual([]);
  });

  it('stays silent on a window without answers, for significance and thresholds alike', async () => {
    const f = await project();
    await rule(f, { metric: 'visibility', condition: 'significant_drop' });
    await rule(f, { metric: 'visibility', condition: 'below', threshold: 50 });
    await storeSpecs(t, f.projectId, windowSpecs(f, PREV, 7, 22), 'acme.com');
    // the window D-6..D has no answer: 0 % would be a drop and below 50, but nothing was measured
    expect(await evaluate(f, D)).toMatchObject({ evaluated: 2, fired: 0, unmeasured: 2 });
    expect(await events(f)).toEqual([]);
  });

  it('fires a threshold rule whose condition already holds at its first evaluation, then again only after it stopped holding', async () => {
    const f = await project();
    await rule(f, { metric: 'visibility', condition: 'below', threshold: 50, window_days: 1 });
    const day = '2026-09-01';
    const spec = (d: string, mentioned: number) => windowSpecs(f, d, 1, mentioned);
    await storeSpecs(t, f.projectId, [...spec(day, 1), ...spec(addDays(day, 1), 1), ...spec(addDays(day, 2), 4), ...spec(addDays(day, 3), 0)], 'acme.com');
    expect((await evaluate(f, day)).fired).toBe(1); // 25 %: below 50 at the first evaluation
    expect((await evaluate(f, addDays(day, 1))).fired).toBe(0); // still below: not repeated
    expect((await evaluate(f, addDays(day, 2))).fired).toBe(0); // 100 %: no longer holds
    expect((await evaluate(f, addDays(day, 3))).fired).toBe(1); // 0 %: a new change
    const list = await events(f);
    expect(list.map((e) => e.value)).toEqual([0, 25]); // newest first
    expect(list[0].p_value ?? null).toBeNull();
  });

  it('tests sentiment with Welch’s t-test: a drop of 40 points fires, the same mean does not', async () => {
    const f = await project();
    const drop = await rule(f, { metric: 'sentiment', condition: 'significant_drop' });
    await rule(f, { metric: 'position', condition: 'significant_change' });
    await storeSpecs(t, f.projectId, [...windowSpecs(f, PREV, 7, 20, undefined, (i) => 70 + (i % 2) * 10), ...windowSpecs(f, CUR, 7, 20, undefined, (i) => 30 + (i % 2) * 10)], 'acme.com');
    expect(await evaluate(f, D)).toMatchObject({ evaluated: 2, fired: 1 });
    const [e] = await events(f);
    expect(e).toMatchObject({ alert_id: drop.alert_id, metric: 'sentiment', value: 35, previous: 75 });
    expect(e.p_value).toBeLessThan(0.001);
  });

  it('tests a competitor’s visibility and share of voice on the rollups', async () => {
    const f = await project();
    const rival = f.competitorIds.Rival;
    const sov = await rule(f, { metric: 'share_of_voice', condition: 'significant_rise', brand_id: rival });
    const vis = await rule(f, { metric: 'visibility', condition: 'above', threshold: 99, brand_id: rival });
    await storeSpecs(t, f.projectId, [...windowSpecs(f, PREV, 7, 28), ...windowSpecs(f, CUR, 7, 4, rival)], 'acme.com', { 'rival.com': rival });
    expect(await evaluate(f, D)).toMatchObject({ evaluated: 2, fired: 2 });
    const list = await events(f);
    const bySov = list.find((e) => e.alert_id === sov.alert_id)!;
    // Rival: 0 of 28 brand mentions before, 28 of 32 now
    expect(bySov).toMatchObject({ metric: 'share_of_voice', value: 87.5, previous: 0 });
    expect(list.find((e) => e.alert_id === vis.alert_id)).toMatchObject({ value: 100 });
  });

  it('tells of a newly cited domain once', async () => {
    const f = await project();
    await rule(f, { metric: 'new_cited_domain' });
    const cite = (domain: string) => ({ url: `https://${domain}/page`, domain, category: 1, urlType: null });
    const specs = windowSpecs(f, CUR, 7, 10).map((s, i) => (i < 3 ? { ...s, cites: [cite('news.example.net')] } : s));
    await storeSpecs(t, f.projectId, [{ ...windowSpecs(f, PREV, 1, 0)[0], cites: [cite('old.example.net')] }, ...specs], 'acme.com');
    expect((await evaluate(f, D)).fired).toBe(1);
    expect((await evaluate(f, D)).fired).toBe(0);
    const [e] = await events(f);
    expect(e).toMatchObject({ metric: 'new_cited_domain', condition: 'above', value: 1, names: ['news.example.net'] });
  });

  it('tells of a newly named competitor once', async () => {
    const f = await project();
    await rule(f, { metric: 'new_competitor' });
    // Attio in three answers of the window (recurring: a suggestion); Nimble in one (not
    // recurring); Rival is tracked. Pipedrive recurs only before the window: never counted.
    const named = (text: string) => (s: AnswerSpec) => ({ ...s, text });
    const specs = windowSpecs(f, CUR, 7, 10).map((s, i) =>
      i < 3 ? named('- **Attio**: modern.\n- **Rival**: solid.')(s) : i === 3 ? named('Nothing stands out. **Nimble** is one option.')(s) : s,
    );
    const before = windowSpecs(f, PREV, 1, 0).map(named('- **Pipedrive**: visual pipelines.'));
    await storeSpecs(t, f.projectId, [...before, ...specs], 'acme.com');
    expect((await evaluate(f, D)).fired).toBe(1);
    expect((await evaluate(f, D)).fired).toBe(0);
    const list = await events(f);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ metric: 'new_competitor', condition: 'above', value: 1, names: ['Attio'] });
  });
});
