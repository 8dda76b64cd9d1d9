import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProvider } from '../../test/fakes/index.js';
import { FAKE_LLM_KEY, startFakeChat, type ChatRequest, type FakeChat } from '../../test/fakes/openai-chat.js';
import { client, createAccount, startTestApp, type TestApp } from '../../test/helpers.js';
import { expectConsistentRollups } from '../../test/rollup-invariants.js';
import { createAnalyzer } from '../analysis/index.js';
import { BAND_SCORE } from '../analysis/model.js';
import { bandOf } from '../analysis/themes.js';
import type { Band } from '../analysis/types.js';
import { loadBrandSpecs } from '../modules/projects/brands.js';
import { loadProjectWithPlan } from '../modules/projects/project-row.js';
import { createAnalysisModel } from '../ports/analysis-model/index.js';
import { collectAnswers } from './collect.js';
import { reanalyseProject } from './reanalyse.js';

// ANALYSIS_MODEL end to end: answers collected from the ChatGPT fake are judged by the model
// (the Chat Completions fake, scripted: it cannot judge), stored with the judgement, shown in
// the chats, kept when the model fails, and reused by a re-analysis.

const OWN = '00000000-0000-0000-0000-000000000000';
const LABEL = 'openai-compatible:gpt-4.1-mini';

let t: TestApp;
let chatgpt: FakeProvider;
let model: FakeChat;
/** The band the scripted model gives each brand name; evidence: the brand's own sentence of the fake answer. */
let bands: Record<string, Band> = {};
const EVIDENCE: Record<string, string> = {
  Pipedrive: 'Pipedrive is built around visual deal pipelines',
  HubSpot: 'HubSpot offers a free CRM with email tracking',
  Reddit: 'Smaller teams on Reddit often recommend starting with a free plan',
};
const askedNames = (req: ChatRequest): string[] => {
  const user = req.body.messages[1].content as string;
  return JSON.parse(user.slice(user.indexOf('{'), user.indexOf('\n\nReply with JSON'))).brands.map((b: { name: string }) => b.name);
};
const opposite = (score: number): Band => (bandOf(score) === 'positive' ? 'negative' : 'positive');

beforeAll(async () => {
  chatgpt = await startFakeProvider('chatgpt');
  model = await startFakeChat();
  t = await startTestApp({ role: 'api' }, { ...chatgpt.env, ANALYSIS_MODEL: LABEL, ANALYSIS_BASE_URL: model.baseUrl, ANALYSIS_API_KEY: FAKE_LLM_KEY });
});
afterAll(async () => {
  await t?.stop();
  await Promise.all([chatgpt?.close(), model?.close()]);
});
const scripted = (req: ChatRequest) => ({ brands: askedNames(req).map((name) => ({ name, band: bands[name], evidence: EVIDENCE[name] })) });
beforeEach(() => {
  model.behave({ content: scripted });
  model.requests.length = 0;
});

async function project() {
  const acct = await createAccount(t.app);
  const { store } = t.runtime.ctx;
  const p = await store.query<{ id: string }>(
    `insert into projects (team_id, name, brand_name, website_url, domain, status) values ($1, 'Pipedrive', 'Pipedrive', 'https://pipedrive.com/', 'pipedrive.com', 'completed') returning id`,
    [acct.teamId],
  );
  const projectId = p.rows[0].id;
  const prompt = await store.query<{ id: string }>(
    `insert into prompts (project_id, team_id, content, content_key) values ($1, $2, 'best crm for a small team', 'best crm for a small team') returning id`,
    [projectId, acct.teamId],
  );
  const api = client(t.app, acct.key);
  const added = await api.post(`/projects/${projectId}/competitors`, { competitors: [{ name: 'HubSpot', website: 'hubspot.com' }] });
  const hub = added.json().data.competitors[0].competitorId as string;
  return { api, projectId, promptId: prompt.rows[0].id, hub };
}

const stored = (projectId: string) =>
  t.runtime.ctx.store.query<{ day: string; sentiment: number; model_judgement: { by: string; bands: Record<string, Band>; tokens: object } | null }>(
    `select to_char(day, 'YYYY-MM-DD') as day, sentiment, model_judgement from responses where project_id = $1 order by day`,
    [projectId],
  );

describe('ANALYSIS_MODEL in collection and re-analysis', () => {
  it('is built from the environment', () => {
    expect(t.runtime.ctx.ports.analysisModel?.label).toBe(LABEL);
    // no waiting between retries in this file
    t.runtime.ctx.ports.analysisModel = createAnalysisModel(t.config.analysisModel!, { sleep: async () => {} });
  });

  it('stores the model\'s judgement with each answer, shows who judged in the chats, falls back to the lexicon on failures, and re-analysis reuses it', async () => {
    const { api, projectId, promptId, hub } = await project();
    const ctx = t.runtime.ctx;
    const facts = (await loadProjectWithPlan(ctx.store, projectId))!;
    // what the lexicon reads in the fake's answer: the scripted model says the opposite
    const answer = await ctx.ports.providers.chatgpt.ask({ prompt: 'best crm for a small team', day: '2031-03-01' });
    const lexicon = createAnalyzer(await loadBrandSpecs(ctx.store, facts))(answer.text, answer.references);
    bands = { Pipedrive: opposite(lexicon.brands[OWN].sentiment), HubSpot: opposite(lexicon.brands[hub].sentiment) };
    const key = (day: string) => ({ promptId, provider: 'chatgpt', day, sample: 1, market: 'US-en' });

    // 1. judged: the scripted bands replace the lexicon's
    expect(await collectAnswers(ctx, facts, [key('2031-03-01')], null)).toMatchObject({ stored: 1, failed: 0 });
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0].body.response_format.json_schema.name).toBe('brand_sentiments');
    expect(askedNames(model.requests[0]).sort()).toEqual(['HubSpot', 'Pipedrive']);
    let rows = (await stored(projectId)).rows;
    expect(rows[0].model_judgement).toEqual({ by: LABEL, bands: { [OWN]: bands.Pipedrive, [hub]: bands.HubSpot }, tokens: { input: 812, output: expect.any(Number) } });
    expect(rows[0].sentiment).toBe(BAND_SCORE[bands.Pipedrive]);

    // 2. the model fails (5xx through the retries, then prose): the answers are stored with the lexicon's figures
    model.behave({ content: scripted, replies: ['server_error', 'server_error', 'server_error', 'server_error', 'invalid_json'] });
    expect(await collectAnswers(ctx, facts, [key('2031-03-02')], null)).toMatchObject({ stored: 1, failed: 0 });
    expect(await collectAnswers(ctx, facts, [key('2031-03-03')], null)).toMatchObject({ stored: 1, failed: 0 });
    expect(model.requests).toHaveLength(1 + 4 + 1);
    rows = (await stored(projectId)).rows;
    expect(rows.map((r) => r.model_judgement)).toEqual([rows[0].model_judgement, null, null]);
    expect(rows.slice(1).map((r) => r.sentiment)).toEqual([lexicon.sentiment, lexicon.sentiment]);
    await expectConsistentRollups(ctx.store, projectId);

    const chats = (await api.get(`/projects/${projectId}/prompts/${promptId}/chats?date_from=2031-03-01&date_to=2031-03-03`)).json().data.items;
    const byDay = Object.fromEntries(chats.map((c: { date: string }) => [c.date.slice(0, 10), c]));
    expect(byDay['2031-03-01']).toMatchObject({ analyser: LABEL, sentiment: BAND_SCORE[bands.Pipedrive], sentiment_by_brands: { Pipedrive: BAND_SCORE[bands.Pipedrive], HubSpot: BAND_SCORE[bands.HubSpot] } });
    expect('analyser' in byDay['2031-03-02']).toBe(false);
    expect(byDay['2031-03-02'].sentiment_by_brands).toEqual({ Pipedrive: lexicon.brands[OWN].sentiment, HubSpot: lexicon.brands[hub].sentiment });
    const feed = (await api.get(`/projects/${projectId}/chats?date_from=2031-03-01&date_to=2031-03-03`)).json().data.items;
    expect(feed.map((c: { analyser?: string }) => c.analyser ?? 'lexicon').sort()).toEqual(['lexicon', 'lexicon', LABEL]);

    // 3. a competitor added: the re-analysis asks the model about it in the judged answer only,
    //    keeps the stored bands, and leaves the lexicon's answers to the lexicon
    const reddit = (await api.post(`/projects/${projectId}/competitors`, { competitors: [{ name: 'Reddit', website: 'reddit.com' }] })).json().data.competitors[0].competitorId;
    bands.Reddit = 'negative';
    model.requests.length = 0;
    expect(await reanalyseProject(ctx, projectId)).toBe(3);
    expect(model.requests.map(askedNames)).toEqual([['Reddit']]);
    rows = (await stored(projectId)).rows;
    expect(rows[0].model_judgement?.bands).toEqual({ [OWN]: bands.Pipedrive, [hub]: bands.HubSpot, [reddit]: 'negative' });
    expect(rows[0].model_judgement?.tokens).toEqual({ input: 2 * 812, output: expect.any(Number) });
    expect(rows[0].sentiment).toBe(BAND_SCORE[bands.Pipedrive]);
    expect(rows.slice(1).map((r) => r.model_judgement)).toEqual([null, null]);
    await expectConsistentRollups(ctx.store, projectId);
    const competitors = (await api.get(`/projects/${projectId}/competitors?date_from=2031-03-01&date_to=2031-03-03`)).json().data;

    // 4. without the model, a re-analysis asks nothing and keeps every figure (the stored judgements)
    const port = ctx.ports.analysisModel;
    ctx.ports.analysisModel = null;
    try {
      model.requests.length = 0;
      expect(await reanalyseProject(ctx, projectId)).toBe(3);
      expect(model.requests).toHaveLength(0);
      expect((await stored(projectId)).rows).toEqual(rows);
      expect((await api.get(`/projects/${projectId}/competitors?date_from=2031-03-01&date_to=2031-03-03`)).json().data).toEqual(competitors);
    } finally {
      ctx.ports.analysisModel = port;
    }
  });
});
