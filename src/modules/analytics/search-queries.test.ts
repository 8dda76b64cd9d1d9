// The searches behind each answer (chats' search_queries, the prompt's search-queries read)
// and the surface filter, through HTTP against answers stored through the real write path
// with the engines' recorded bodies as their raw bodies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, data, fixtureProject, type AnswerSpec, type FixtureProject } from '../../../test/analytics-fixture.js';
import { recording } from '../../../test/fixtures/providers/index.js';
import { startTestApp, type TestApp } from '../../../test/helpers.js';
import { storeAnswers } from '../answers/store-answers.js';

let t: TestApp;
let f: FixtureProject;
const DAY1 = '2025-03-01';
const DAY2 = '2025-03-02';
const WINDOW = `date_from=${DAY1}&date_to=${DAY2}`;

const RAW = {
  chatgpt: recording('chatgpt/openai-web-search-tool.1.json'),
  claude: recording('claude/anthropic-web-search-tool.1.json'),
  gemini: recording('gemini/google-search-docs-example.json'),
  perplexity: recording('perplexity/perplexity-citations.json'),
  google_ai_overview: recording('google_ai_overview/serpapi-tutorials-google-coffee.json'),
};

beforeAll(async () => {
  t = await startTestApp({ role: 'api', rateLimitWindowMs: 100 });
  f = await fixtureProject(t, { brand: 'Acme', url: 'https://acme.com', prompts: ['Best CRM?', 'Cheapest CRM?'] });
  const [p1] = f.promptIds;
  const answers = [DAY1, DAY2].flatMap((day) =>
    (Object.keys(RAW) as Array<keyof typeof RAW>).map((provider) => {
      const spec: AnswerSpec = { prompt: p1, provider, day };
      const answer = answerOf(spec, 'acme.com');
      return { ...answer, answer: { ...answer.answer, raw: RAW[provider] } };
    }),
  );
  // A second chatgpt body on day 2 with a query the recording shares, and one of its own.
  const extra = answerOf({ prompt: p1, provider: 'chatgpt', day: DAY2 }, 'acme.com');
  const raw = { output: [{ type: 'web_search_call', action: { type: 'search', query: 'Vercel AI SDK next version features', queries: ['ai sdk roadmap'] } }] };
  await t.runtime.ctx.store.tx((tx) => storeAnswers(tx, f.projectId, [...answers, { ...extra, sample: 2, answer: { ...extra.answer, raw } }]));
});
afterAll(async () => t?.stop());

const url = (path: string, query = WINDOW) => `/projects/${f.projectId}${path}?${query}`;

describe('chats carry their searches and surface', () => {
  it('each chat lists the searches its engine ran, read from its body, and how it was obtained', async () => {
    const { items } = await data(f.api, url(`/prompts/${f.promptIds[0]}/chats`, `${WINDOW}&page_size=100`));
    expect(items).toHaveLength(11);
    const of = (platform: string) => items.filter((c: any) => c.platform === platform && c.date.startsWith(DAY1))[0];
    expect(of('chatgpt').search_queries).toEqual(['Vercel AI SDK next version features']);
    expect(of('claude').search_queries).toEqual(['tech news today September 26 2024', '"September 26 2024" tech news breaking']);
    expect(of('gemini').search_queries).toEqual(['UEFA Euro 2024 winner', 'who won euro 2024']);
    expect(of('perplexity').search_queries).toEqual([]);
    expect(of('chatgpt').surface).toBe('api_search');
    expect(of('google_ai_overview').surface).toBe('serp');
  });
});

describe('GET /prompts/{id}/search-queries', () => {
  it('counts the answers that ran each search, with the engines that did, most run first', async () => {
    const rows = await data(f.api, url(`/prompts/${f.promptIds[0]}/search-queries`));
    expect(rows[0]).toEqual({ query: 'Vercel AI SDK next version features', count: 3, providers: ['chatgpt'] });
    expect(rows).toContainEqual({ query: 'ai sdk roadmap', count: 1, providers: ['chatgpt'] });
    expect(rows).toContainEqual({ query: 'who won euro 2024', count: 2, providers: ['gemini'] });
    expect(rows.map((r: any) => r.count)).toEqual([...rows.map((r: any) => r.count)].sort((a, b) => b - a));
    expect(rows).toHaveLength(6);
  });

  it('follows the window and the provider filter', async () => {
    const day1 = await data(f.api, url(`/prompts/${f.promptIds[0]}/search-queries`, `date_from=${DAY1}&date_to=${DAY1}&providers=chatgpt,claude`));
    expect(day1.map((r: any) => [r.query, r.count])).toEqual([
      ['"September 26 2024" tech news breaking', 1],
      ['Vercel AI SDK next version features', 1],
      ['tech news today September 26 2024', 1],
    ]);
    expect(await data(f.api, url(`/prompts/${f.promptIds[1]}/search-queries`))).toEqual([]);
  });

  it('404 for a prompt of another project, 400 for a bad window', async () => {
    expect((await f.api.get(url(`/prompts/${crypto.randomUUID()}/search-queries`))).statusCode).toBe(404);
    const res = await f.api.get(url(`/prompts/${f.promptIds[0]}/search-queries`, 'date_from=2025-13-01'));
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/date_from/);
  });
});

describe('the surface filter', () => {
  it('keeps only the engines answering through the surfaces named', async () => {
    const serp = await data(f.api, url(`/prompts/${f.promptIds[0]}/chats`, `${WINDOW}&surface=serp`));
    expect(new Set(serp.items.map((c: any) => c.platform))).toEqual(new Set(['google_ai_overview']));
    const both = await data(f.api, url(`/prompts/${f.promptIds[0]}/chats`, `${WINDOW}&surface=api_search&providers=chatgpt,google_ai_overview`));
    expect(new Set(both.items.map((c: any) => c.platform))).toEqual(new Set(['chatgpt']));
  });

  it('a surface no engine answers through reads as unmeasured, not as an error', async () => {
    const chats = await data(f.api, url(`/prompts/${f.promptIds[0]}/chats`, `${WINDOW}&surface=ui`));
    expect(chats.items).toEqual([]);
    const overview = await data(f.api, url('/overview', `${WINDOW}&surface=ui`));
    // the same as an engine that gave no answer in the window
    const silent = await data(f.api, url('/overview', `${WINDOW}&providers=copilot`));
    expect(overview).toEqual(silent);
    expect(overview.items.map((p: any) => p.volume)).toEqual([null, null]);
    const visibility = await f.api.get(url('/visibility', `${WINDOW}&surface=ui`));
    expect(visibility.statusCode).toBe(200);
  });

  it('an unknown surface is a 400 naming the known ones', async () => {
    const res = await f.api.get(url('/overview', `${WINDOW}&surface=app`));
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('Unknown surface: app. Known surfaces: api, api_search, serp, ui');
  });
});
