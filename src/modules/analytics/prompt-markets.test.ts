// The per-prompt charts (GET /prompts/{id}/analytics) and chats of a prompt answered in two
// markets, in a project without market totals: a day and provider with answers in both
// markets is read from two rows of prompt_daily, summed by promptProviderDays
// (rollups/prompt-reads.ts), and then from the '*' rows once the project keeps totals. The
// chats' page is read from the day of its last answer on (promptChats), found among each
// provider's latest answers of the market asked for. Hand-made answers through the real
// write path (storeSpecs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers.js';
import { data, fixtureProject, OWN, storeSpecs, type AnswerSpec, type FixtureProject } from '../../../test/analytics-fixture.js';
import { keepMarketTotals } from '../rollups/market-totals.js';
import * as metrics from './metrics.js';

let t: TestApp;
let f: FixtureProject;
let P: string;
let OTHER: string;

const DAYS = ['2025-05-01', '2025-05-02', '2025-05-03', '2025-05-04', '2025-05-05', '2025-05-06'];
const [D1, D2, D3, D4, D5, D6] = DAYS;
const W = `date_from=${D1}&date_to=${D6}`;
const named = (position: number, sentiment: number) => ({ [OWN]: [position, 1, sentiment] as [number, number, number] });

// P, by day (y(position, sentiment): the own brand named):
//   chatgpt US-en: every day, y(1,80) on D1 D3 D5, not named on D2 D4 D6
//   chatgpt DE-de: D1 y(2,40), D2 n, D3 y(3,60)
//   perplexity US-en: D2 y(2,70)
//   claude DE-de: D5 n
// OTHER (another prompt of the project): chatgpt US-en D6 y(1,10), to be left out of P's reads.
const SPECS = (): AnswerSpec[] => [
  ...DAYS.map((day, i): AnswerSpec => ({ prompt: P, provider: 'chatgpt', day, ...(i % 2 === 0 ? { named: named(1, 80) } : {}) })),
  { prompt: P, provider: 'chatgpt', day: D1, market: 'DE-de', named: named(2, 40) },
  { prompt: P, provider: 'chatgpt', day: D2, market: 'DE-de' },
  { prompt: P, provider: 'chatgpt', day: D3, market: 'DE-de', named: named(3, 60) },
  { prompt: P, provider: 'perplexity', day: D2, named: named(2, 70) },
  { prompt: P, provider: 'claude', day: D5, market: 'DE-de' },
  { prompt: OTHER, provider: 'chatgpt', day: D6, named: named(1, 10) },
];

beforeAll(async () => {
  t = await startTestApp({ role: 'api', rateLimitWindowMs: 100 });
  f = await fixtureProject(t, { brand: 'Acme', url: 'https://acme.com', prompts: ['Best CRM for startups?', 'Best CRM for agencies?'] });
  [P, OTHER] = f.promptIds;
  await storeSpecs(t, f.projectId, SPECS(), 'acme.com');
});
afterAll(async () => t?.stop());

/** The sums of a day and provider: its answers' (mentioned: [position, sentiment]; null: not named). */
function sumsOf(answers: Array<[number, number] | null>) {
  const mentions = answers.filter((a): a is [number, number] => a !== null);
  return {
    responses: answers.length,
    mentioned: mentions.length,
    positionSum: mentions.reduce((s, [p]) => s + p, 0),
    sentimentSum: mentions.reduce((s, [, v]) => s + v, 0),
    positionSq: mentions.reduce((s, [p]) => s + p * p, 0),
    sentimentSq: mentions.reduce((s, [, v]) => s + v * v, 0),
  };
}

/** The three charts of a window, from each day's answers per provider (providers in the order given). */
function charts(days: Record<string, Record<string, Array<[number, number] | null>>>) {
  const out = { visibility_chart: {} as Record<string, unknown[]>, position_chart: {} as Record<string, unknown[]>, sentiment_chart: {} as Record<string, unknown[]> };
  for (const day of DAYS) {
    out.visibility_chart[day] = [];
    out.position_chart[day] = [];
    out.sentiment_chart[day] = [];
    for (const [provider, answers] of Object.entries(days[day] ?? {})) {
      const s = sumsOf(answers);
      out.visibility_chart[day].push({ provider, value: metrics.visibility(s), n: s.responses, ci: metrics.visibilityCi(s) });
      if (s.mentioned) {
        out.position_chart[day].push({ provider, value: metrics.position(s), n: s.mentioned, ci: metrics.positionCi(s) });
        out.sentiment_chart[day].push({ provider, value: metrics.sentiment(s), n: s.mentioned, ci: metrics.sentimentCi(s) });
      }
    }
  }
  return out;
}

const y = (position: number, sentiment: number): [number, number] => [position, sentiment];

// Every market: a day's points by provider name, a provider's markets summed.
const ALL_MARKETS = charts({
  [D1]: { chatgpt: [y(1, 80), y(2, 40)] },
  [D2]: { chatgpt: [null, null], perplexity: [y(2, 70)] },
  [D3]: { chatgpt: [y(1, 80), y(3, 60)] },
  [D4]: { chatgpt: [null] },
  [D5]: { chatgpt: [y(1, 80)], claude: [null] },
  [D6]: { chatgpt: [null] },
});
const DE = charts({
  [D1]: { chatgpt: [y(2, 40)] },
  [D2]: { chatgpt: [null] },
  [D3]: { chatgpt: [y(3, 60)] },
  [D5]: { claude: [null] },
});

const analytics = (q: string) => data(f.api, `/projects/${f.projectId}/prompts/${P}/analytics?${q}`);
const chatIds = async (q: string) => (await data(f.api, `/projects/${f.projectId}/prompts/${P}/chats?${q}`)).items.map((c: { id: string }) => c.id) as string[];

describe('GET /prompts/{id}/analytics of a prompt in two markets', () => {
  it('sums a day and provider over its markets; every market: 11 answers', async () => {
    const d = await analytics(W);
    // sentiment over the 6 mentioning answers: (80 + 40 + 70 + 80 + 60 + 80) / 6 = 68.33
    expect(d).toMatchObject({ prompt_id: P, volume: 11, sentiment: 68 });
    expect({ visibility_chart: d.visibility_chart, position_chart: d.position_chart, sentiment_chart: d.sentiment_chart }).toEqual(ALL_MARKETS);
    // a day's chatgpt point rests on both markets' answers
    expect(d.visibility_chart[D1]).toEqual([{ provider: 'chatgpt', value: 100, n: 2, ci: metrics.visibilityCi({ responses: 2, mentioned: 2 }) }]);
    expect(d.position_chart[D3]).toEqual([{ provider: 'chatgpt', value: 2, n: 2, ci: expect.any(Array) }]);
  });

  it('market=DE-de: that market only', async () => {
    const d = await analytics(`${W}&market=DE-de`);
    expect(d).toMatchObject({ volume: 4, sentiment: 50 });
    expect({ visibility_chart: d.visibility_chart, position_chart: d.position_chart, sentiment_chart: d.sentiment_chart }).toEqual(DE);
  });

  it("a day's points are in the order of the providers' names, whatever the order asked", async () => {
    const asked = await analytics(`${W}&providers=perplexity,claude,chatgpt`);
    expect(asked.visibility_chart).toEqual(ALL_MARKETS.visibility_chart);
    expect(asked.visibility_chart[D5].map((p: { provider: string }) => p.provider)).toEqual(['chatgpt', 'claude']);
    const two = await analytics(`${W}&providers=perplexity,chatgpt`);
    expect(two.visibility_chart[D2].map((p: { provider: string }) => p.provider)).toEqual(['chatgpt', 'perplexity']);
    expect(two.visibility_chart[D5].map((p: { provider: string }) => p.provider)).toEqual(['chatgpt']);
    expect(two.volume).toBe(10);
  });

  it('a window reaching past the answers: its own days, empty where nothing was collected', async () => {
    const d = await analytics(`date_from=2025-04-29&date_to=${D2}`);
    expect(Object.keys(d.visibility_chart)).toEqual(['2025-04-29', '2025-04-30', D1, D2]);
    expect(d.visibility_chart['2025-04-29']).toEqual([]);
    expect(d.visibility_chart[D2]).toEqual(ALL_MARKETS.visibility_chart[D2]);
    expect(d.volume).toBe(5);
  });

  it('a provider without answers in the window: empty charts, no volume', async () => {
    const d = await analytics(`${W}&providers=gemini`);
    expect(d).toMatchObject({ volume: 0, sentiment: null, sentiment_ci: null });
    for (const day of DAYS) expect(d.visibility_chart[day]).toEqual([]);
  });
});

describe('GET /prompts/{id}/chats of a prompt in two markets', () => {
  it('pages of every size partition the list, every market or one, a provider filter or none', async () => {
    for (const q of ['', '&market=DE-de', '&market=US-en', '&providers=claude,chatgpt', '&market=DE-de&providers=chatgpt']) {
      const all = await chatIds(`${W}${q}`);
      expect(all.length, q).toBeGreaterThan(2);
      for (let size = 1; size <= all.length + 1; size++) {
        const pages: string[] = [];
        for (let n = 1; n <= Math.ceil(all.length / size) + 1; n++) pages.push(...(await chatIds(`${W}${q}&page=${n}&page_size=${size}`)));
        expect(pages, `page_size ${size}${q}`).toEqual(all);
      }
    }
    expect(await chatIds(W)).toHaveLength(11);
    expect(await chatIds(`${W}&market=DE-de`)).toHaveLength(4);
  });
});

describe('once the project keeps market totals', () => {
  it("the same charts, every market read from the '*' rows", async () => {
    await t.runtime.ctx.store.tx((tx) => keepMarketTotals(tx, f.projectId));
    const { rows } = await t.runtime.ctx.store.query<{ n: number }>(`select count(*)::int as n from prompt_daily where prompt_id = $1 and market = '*'`, [P]);
    expect(rows[0].n).toBeGreaterThan(0);
    const d = await analytics(W);
    expect(d).toMatchObject({ volume: 11, sentiment: 68 });
    expect({ visibility_chart: d.visibility_chart, position_chart: d.position_chart, sentiment_chart: d.sentiment_chart }).toEqual(ALL_MARKETS);
    const de = await analytics(`${W}&market=DE-de`);
    expect({ visibility_chart: de.visibility_chart, position_chart: de.position_chart, sentiment_chart: de.sentiment_chart }).toEqual(DE);
  });
});
