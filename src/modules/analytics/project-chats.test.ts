// GET /projects/{id}/chats (extension): the project's answers across its prompts, with the
// answers feed's filters (engine, prompt, topic, brand named or not, dates) and paging.
// Hand-made analysed answers through the real write path; PGlite and PostgreSQL alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, startTestApp, ZERO_UUID, type TestApp } from '../../../test/helpers.js';
import { data, fixtureProject, OWN, storeSpecs, type AnswerSpec, type FixtureProject } from '../../../test/analytics-fixture.js';

let t: TestApp;
let f: FixtureProject;
let P1: string, P2: string, R: string, otherTopic: string;
const D1 = '2025-03-01';
const D2 = '2025-03-02';
const W = `date_from=${D1}&date_to=${D2}`;

// Labels by text: A* answer P1 (topic 1), B* answer P2 (moved to a second topic).
//  A1 D1 chatgpt     Acme + Rival    A2 D1 perplexity  Rival only    A3 D2 chatgpt  none
//  B1 D1 chatgpt     Acme only       B2 D2 perplexity  Acme + Rival
beforeAll(async () => {
  t = await startTestApp({ role: 'api', rateLimitWindowMs: 100 });
  f = await fixtureProject(t, { brand: 'Acme', url: 'https://acme.com', prompts: ['Best CRM?', 'Acme vs Rival?'], competitors: [{ name: 'Rival', website: 'rival.com' }] });
  [P1, P2] = f.promptIds;
  R = f.competitorIds.Rival;
  const topic = await f.api.post(`/projects/${f.projectId}/topics`, { name: 'Pricing' });
  otherTopic = topic.json().data.topic_id;
  expect((await f.api.patch(`/projects/${f.projectId}/prompts/${P2}`, { topicId: otherTopic })).statusCode).toBe(200);
  const spec = (label: string, prompt: string, provider: AnswerSpec['provider'], day: string, named: AnswerSpec['named']): AnswerSpec => ({
    prompt,
    provider,
    day,
    named,
    text: `${label}: **Acme** and Rival compared.`,
    cites: label === 'A1' ? [{ url: 'https://acme.com/pricing', domain: 'acme.com', category: 0, urlType: 4, title: 'Acme pricing' }] : [],
  });
  await storeSpecs(
    t,
    f.projectId,
    [
      spec('A1', P1, 'chatgpt', D1, { [OWN]: [1, 1, 80], [R]: [2, 1, 50] }),
      spec('A2', P1, 'perplexity', D1, { [R]: [1, 1, 50] }),
      spec('A3', P1, 'chatgpt', D2, {}),
      spec('B1', P2, 'chatgpt', D1, { [OWN]: [1, 1, 70] }),
      spec('B2', P2, 'perplexity', D2, { [OWN]: [2, 1, 60], [R]: [1, 2, 40] }),
    ],
    'acme.com',
  );
});
afterAll(async () => t?.stop());

const labels = (d: any) => d.items.map((c: any) => c.full_content.slice(0, 2)).sort();
const feed = (q = '') => data(f.api, `/projects/${f.projectId}/chats?${W}${q}`);

describe('GET /projects/{id}/chats', () => {
  it('every answer of the project in the window, newest day first, with its prompt and topic', async () => {
    const d = await feed();
    expect(d.items).toHaveLength(5);
    expect(d.items.slice(0, 2).map((c: any) => c.date.slice(0, 10))).toEqual([D2, D2]);
    expect(labels(d)).toEqual(['A1', 'A2', 'A3', 'B1', 'B2']);
    expect(d).toMatchObject({ page: 1, page_size: 50, has_more: false });
    const a1 = d.items.find((c: any) => c.full_content.startsWith('A1'));
    expect(a1).toMatchObject({
      prompt_id: P1,
      prompt_content: 'Best CRM?',
      topic_id: f.topicId,
      topic_name: 'Acme topic',
      platform: 'chatgpt',
      mentioned: true,
      position: 1,
      brands_mentioned: { Acme: { position: 1, count: 1 }, Rival: { position: 2, count: 1 } },
      references: [{ title: 'Acme pricing', link: 'https://acme.com/pricing', snippet: 'Snippet 1', reference_index: 1 }],
    });
  });

  it('filters by engine, prompt, topic and date', async () => {
    expect(labels(await feed('&providers=perplexity'))).toEqual(['A2', 'B2']);
    expect(labels(await feed(`&prompt_id=${P2}`))).toEqual(['B1', 'B2']);
    expect(labels(await feed(`&topic_id=${otherTopic}`))).toEqual(['B1', 'B2']);
    expect(labels(await feed(`&topic_id=${f.topicId}&providers=chatgpt`))).toEqual(['A1', 'A3']);
    expect(labels(await data(f.api, `/projects/${f.projectId}/chats?date_from=${D2}&date_to=${D2}`))).toEqual(['A3', 'B2']);
  });

  it('filters by a brand named or not named (own brand by the all-zero id)', async () => {
    expect(labels(await feed(`&brand_id=${R}`))).toEqual(['A1', 'A2', 'B2']);
    expect(labels(await feed(`&brand_id=${R}&brand_named=false`))).toEqual(['A3', 'B1']);
    expect(labels(await feed(`&brand_id=${ZERO_UUID}`))).toEqual(['A1', 'B1', 'B2']);
    expect(labels(await feed(`&brand_id=${ZERO_UUID}&brand_named=false&providers=chatgpt`))).toEqual(['A3']);
  });

  it('pages without overlap, saying whether more follow', async () => {
    const first = await feed('&page_size=2');
    const second = await feed('&page_size=2&page=2');
    const third = await feed('&page_size=2&page=3');
    expect([first.has_more, second.has_more, third.has_more]).toEqual([true, true, false]);
    const ids = [...first.items, ...second.items, ...third.items].map((c: any) => c.id);
    expect(new Set(ids).size).toBe(5);
    expect(ids).toEqual((await feed()).items.map((c: any) => c.id));
  });

  it('400 with a detail on bad filters', async () => {
    for (const [q, detail] of [
      ['brand_named=maybe', "brand_named must be 'true' or 'false'"],
      ['prompt_id=nope', 'prompt_id must be a UUID'],
      ['page_size=0', 'page_size must be an integer from 1 to 100'],
      ['providers=altavista', 'altavista'],
      ['colour=red', 'colour'],
    ]) {
      const res = await f.api.get(`/projects/${f.projectId}/chats?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().detail).toContain(detail);
    }
  });

  it("404 for a prompt, topic or brand that is not the project's; another team's project is refused", async () => {
    const other = await fixtureProject(t, { brand: 'Zed', url: 'https://zed.io', prompts: ['Zed?'] });
    for (const q of [`prompt_id=${other.promptIds[0]}`, `topic_id=${other.topicId}`, `brand_id=${crypto.randomUUID()}`]) {
      const res = await f.api.get(`/projects/${f.projectId}/chats?${q}`);
      expect(res.statusCode, q).toBe(404);
      expect(res.json().detail).toMatch(/not found/);
    }
    const stranger = await createAccount(t.app);
    const res = await t.app.inject({ method: 'GET', url: `/v1/projects/${f.projectId}/chats`, headers: { 'x-api-key': stranger.key } });
    expect([403, 404]).toContain(res.statusCode);
    expect((await other.api.get(`/projects/${f.projectId}/chats`)).statusCode).toBe(403);
  });
});
