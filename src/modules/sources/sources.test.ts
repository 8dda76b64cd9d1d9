// Sources endpoints at their limits (20 top domains, 10 chart series, page bounds) on a
// one-prompt fixture of 26 cited domains, worked out by hand; and, on the same project,
// the cross-check that a one-prompt project shows the same figures on every endpoint.
// The main fixture (every analytics endpoint, opportunities, provider filters, empty
// project, window errors) is in src/modules/analytics/analytics.test.ts.
const ORIGINAL_TZ = process.env.TZ;
process.env.TZ = 'America/St_Johns'; // UTC-3:30: any local-time date would show

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, ZERO_UUID, type TestApp } from '../../../test/helpers.js';
import { data, fixtureProject, icons, OWN, storeSpecs, type AnswerSpec, type Cite, type FixtureProject } from '../../../test/analytics-fixture.js';
import { CHART_DOMAINS, OPPORTUNITY_THRESHOLD, sourceId, TOP_DOMAINS } from './service.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: 'api', rateLimitWindowMs: 100 });
});
afterAll(async () => {
  await t?.stop();
  if (ORIGINAL_TZ === undefined) delete process.env.TZ;
  else process.env.TZ = ORIGINAL_TZ;
});

// ---------------------------------------------------------------------------------------
// Brand Beta (beta.io), competitor Gamma (gamma.app), one prompt Q.
// Window 2025-03-10 .. 2025-03-12 (E1..E3); E2 has no answer.
//
//  R1 E1 chatgpt            Beta[1,1,70] Gamma[2,1,50]   200 citations: srcNN.com cited COUNTS[NN-1] times
//                                                        (distinct URLs), category (NN-1) % 6
//  R4 E1 google_ai_overview Beta[1,2,55]                 -
//  R2 E3 perplexity         Gamma[1,2,80]                beta.io/ (own, corporate), src01.com/extra
//  R3 E3 chatgpt            Gamma[1,1,60] Beta[2,1,40]   -
//
// COUNTS sum to 200, with ties across the 10th/11th (src10, src11: 7) and the 20th/21st
// (src20, src21: 2) places, broken by domain name.
// Totals: src01 44 + 1 = 45, srcNN COUNTS[NN-1] otherwise, beta.io 1: 26 domains, 202 citations.
// ---------------------------------------------------------------------------------------
const E1 = '2025-03-10';
const E2 = '2025-03-11';
const E3 = '2025-03-12';
const W = `date_from=${E1}&date_to=${E3}`;
const COUNTS = [44, 18, 16, 14, 12, 11, 10, 9, 8, 7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 1, 1];
const dom = (i: number) => `src${String(i).padStart(2, '0')}.com`;

let f: FixtureProject;
let Q: string;
let GM: string;

beforeAll(async () => {
  f = await fixtureProject(t, { brand: 'Beta', url: 'https://beta.io', prompts: ['Which analytics tool should I pick?'], competitors: [{ name: 'Gamma', website: 'gamma.app' }] });
  [Q] = f.promptIds;
  GM = f.competitorIds.Gamma;
  // the 200 citations of R1, written most-cited-last so that no order comes for free
  const r1: Cite[] = [];
  for (let i = 25; i >= 1; i--) {
    for (let k = 1; k <= COUNTS[i - 1]; k++) r1.push({ url: `https://${dom(i)}/page-${k}`, domain: dom(i), category: (i - 1) % 6, urlType: 1 });
  }
  expect(r1).toHaveLength(200);
  const specs: AnswerSpec[] = [
    { prompt: Q, provider: 'chatgpt', day: E1, named: { [OWN]: [1, 1, 70], [GM]: [2, 1, 50] }, cites: r1 },
    { prompt: Q, provider: 'google_ai_overview', day: E1, named: { [OWN]: [1, 2, 55] } },
    { prompt: Q, provider: 'perplexity', day: E3, named: { [GM]: [1, 2, 80] }, cites: [{ url: 'https://beta.io/', domain: 'beta.io', category: 0, urlType: 0 }, { url: 'https://src01.com/extra', domain: 'src01.com', category: 0, urlType: 1 }] },
    { prompt: Q, provider: 'chatgpt', day: E3, named: { [GM]: [1, 1, 60], [OWN]: [2, 1, 40] } },
  ];
  await storeSpecs(t, f.projectId, specs, 'beta.io', { 'beta.io': OWN, 'gamma.app': GM });
});

const get = (path: string, query = W) => data(f.api, `/projects/${f.projectId}${path}${query ? `?${query}` : ''}`);
const src = (domain: string, category: number, reference_count: number) => ({ source_id: sourceId(domain), domain, category, reference_count });

/** All 26 domains, most cited first, ties by name (beta.io sorts before src22..src25). */
const ALL = () => [
  src('src01.com', 0, 45),
  ...Array.from({ length: 20 }, (_, j) => src(dom(j + 2), (j + 1) % 6, COUNTS[j + 1])), // src02 .. src21
  src('beta.io', 0, 1),
  ...[22, 23, 24, 25].map((i) => src(dom(i), (i - 1) % 6, 1)),
];

describe('GET /sources: pages', () => {
  it('the whole list by reference_count, ties by domain', async () => {
    const all = ALL();
    expect(all).toHaveLength(26);
    expect(all.map((s) => s.reference_count)).toEqual([45, 18, 16, 14, 12, 11, 10, 9, 8, 7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 1, 1, 1]);
    expect(await get('/sources')).toEqual(all); // default page_size 50
  });

  it('pages of 10 until an empty page; page_size 1 and 100', async () => {
    const all = ALL();
    const page = (n: number, size: number) => get('/sources', `${W}&page=${n}&page_size=${size}`);
    expect(await page(1, 10)).toEqual(all.slice(0, 10));
    expect(await page(2, 10)).toEqual(all.slice(10, 20));
    expect(await page(3, 10)).toEqual(all.slice(20));
    expect(await page(4, 10)).toEqual([]);
    expect(await page(1, 100)).toEqual(all);
    expect(await page(2, 100)).toEqual([]);
    expect(await page(26, 1)).toEqual([all[25]]);
    expect(await page(27, 1)).toEqual([]);
    expect(await page(2, 50)).toEqual([]);
    expect(await page(1000, 100)).toEqual([]);
  });

  it.each(['page_size=0', 'page_size=101', 'page_size=1000', 'page_size=', 'page=0', 'page=', 'page=two', 'page_size=10.5'])('%s is a 400', async (q) => {
    const res = await f.api.get(`/projects/${f.projectId}/sources?${W}&${q}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/^page(_size)? must be an integer/);
  });

  it('a domain has the same source_id in every project; projects never see each other’s citations', async () => {
    const other = await fixtureProject(t, { brand: 'Delta', url: 'https://delta.dev', prompts: ['Delta question?'] });
    await storeSpecs(t, other.projectId, [{ prompt: other.promptIds[0], provider: 'claude', day: E1, cites: [{ url: 'https://src01.com/delta', domain: 'src01.com', category: 0, urlType: null }] }], 'delta.dev');
    const theirs = await data(other.api, `/projects/${other.projectId}/sources?${W}`);
    expect(theirs).toEqual([src('src01.com', 0, 1)]);
    expect(theirs[0].source_id).toBe((await get('/sources'))[0].source_id);
    expect((await get('/sources/analytics')).stats.total_citations).toBe(202);
  });
});

describe('GET /sources/analytics at its limits', () => {
  it('stats, category breakdown, 10 chart series, 20 top domains, no opportunity', async () => {
    // categories of 202 citations:
    //   corporate     src01 45 + src07 10 + src13 6 + src19 3 + src25 1 + beta.io 1 = 66 -> 32.67
    //   editorial     src02 18 + src08 9 + src14 5 + src20 2 = 34 -> 16.83
    //   institutional src03 16 + src09 8 + src15 5 + src21 2 = 31 -> 15.35
    //   reference     src04 14 + src10 7 + src16 4 + src22 1 = 26 -> 12.87
    //   ugc           src05 12 + src11 7 + src17 4 + src23 1 = 24 -> 11.88
    //   other         src06 11 + src12 6 + src18 3 + src24 1 = 21 -> 10.4
    // chart: the 10 most cited of the window, src01..src10 (src10 beats src11, both 7, by name);
    //   E1 has 200 citations, so a share is count / 2; E2 none -> null; E3 has 2 (beta.io, src01) ->
    //   src01 50, the others 0. beta.io has a 50 % share on E3 but is not among the 10.
    // top_domains: the first 20 of the list (src20 beats src21, both 2, by name).
    // opportunities: R2 is the only answer without Beta, and cites src01 once: none reaches 3.
    const d = await get('/sources/analytics');
    expect(d.stats).toEqual({ total_sources: 26, total_citations: 202 });
    expect(d.category_breakdown).toEqual({ corporate: 32.67, editorial: 16.83, institutional: 15.35, reference: 12.87, ugc: 11.88, other: 10.4 });
    expect(Object.values(d.category_breakdown as Record<string, number>).reduce((a, b) => a + b, 0)).toBeCloseTo(100, 5);
    expect(CHART_DOMAINS).toBe(10);
    expect(d.performance_chart).toEqual({
      dates: [E1, E2, E3],
      series: [
        { domain: 'src01.com', values: [22, null, 50] },
        { domain: 'src02.com', values: [9, null, 0] },
        { domain: 'src03.com', values: [8, null, 0] },
        { domain: 'src04.com', values: [7, null, 0] },
        { domain: 'src05.com', values: [6, null, 0] },
        { domain: 'src06.com', values: [5.5, null, 0] },
        { domain: 'src07.com', values: [5, null, 0] },
        { domain: 'src08.com', values: [4.5, null, 0] },
        { domain: 'src09.com', values: [4, null, 0] },
        { domain: 'src10.com', values: [3.5, null, 0] },
      ],
    });
    expect(TOP_DOMAINS).toBe(20);
    expect(d.top_domains).toEqual(ALL().slice(0, 20));
    expect(d.top_domains.at(-1).domain).toBe('src20.com');
    expect(d.opportunities).toEqual([]);
    expect(OPPORTUNITY_THRESHOLD).toBe(3);
  });

  it('one day only: the chart of that day', async () => {
    const d = await get('/sources/analytics', `date_from=${E3}&date_to=${E3}`);
    expect(d.stats).toEqual({ total_sources: 2, total_citations: 2 });
    expect(d.category_breakdown).toEqual({ corporate: 100, editorial: 0, institutional: 0, reference: 0, ugc: 0, other: 0 });
    expect(d.performance_chart).toEqual({ dates: [E3], series: [{ domain: 'beta.io', values: [50] }, { domain: 'src01.com', values: [50] }] });
    expect(d.top_domains).toEqual([src('beta.io', 0, 1), src('src01.com', 0, 1)]);
  });
});

describe('a one-prompt project: the same figures on every endpoint', () => {
  // Q: 4 responses (R1 R4 R2 R3); Beta named in R1 R4 R3 -> 75 %; positions (1+1+2)/3 = 1.33;
  //    sentiments (70+55+40)/3 = 55; cvr: R2 cites beta.io -> 1/4 = 25 (cited without being named)
  // Gamma: R1(2,1,50) R2(1,2,80) R3(1,1,60) -> 75 %, position 4/3 = 1.33, sentiment 190/3 = 63.33,
  //    mention_count 1+2+1 = 4, days E1 E3
  // Beta's mention_count 1+2+1 = 4, days E1 E3
  it('prompt, overview and competitors agree', async () => {
    const prompt = (await get('/prompts')).prompts[0];
    expect(prompt).toMatchObject({ id: Q, visibility: 75, sentiment: 55, position: 1.33, volume: 4, cvr: 25, trend: null });
    const overview = (await get('/overview')).items[0];
    expect(overview).toMatchObject({ prompt_id: Q, visibility: 75, sentiment: 55, position: 1.33, cvr: 25, volume: null });
    expect(overview.competitors_mentioned).toEqual([{ competitor_id: GM, name: 'Gamma', mention_count: 4, icon_url: icons('gamma.app')[0], icon_urls: icons('gamma.app') }]);
    const comps = (await get('/competitors')).active_competitors;
    // Extension fields (R 4.2.2: prop.test(3, 4) -> 30.06 .. 95.44; t.test of positions 1 1 2 and
    // 2 1 1 -> -0.10 .. 2.77, cut to 1; sentiments 70 55 40 -> 17.74 .. 92.26, 50 80 60 -> 25.39 ..
    // 101.28, cut to 100); share of voice 3 of the 3 + 3 mentions -> 50, prop.test(3, 6) -> 18.76 .. 81.24.
    const ext = { responses: 4, visibility_ci: [30.06, 95.44], position_ci: [1, 2.77], share_of_voice: 50, share_of_voice_ci: [18.76, 81.24] };
    expect(comps.map((c: any) => [c.competitor_id, c.metrics])).toEqual([
      [ZERO_UUID, { visibility: 75, sentiment: 55, position: 1.33, mention_count: 4, days_with_data: 2, period: `${E1} to ${E3}`, ...ext, sentiment_ci: [17.74, 92.26] }],
      [GM, { visibility: 75, sentiment: 63.33, position: 1.33, mention_count: 4, days_with_data: 2, period: `${E1} to ${E3}`, ...ext, sentiment_ci: [25.39, 100] }],
    ]);
    // the same responses and intervals on the prompt and the overview item
    for (const x of [prompt, overview]) {
      expect(x).toMatchObject({ responses: 4, visibility_ci: [30.06, 95.44], position_ci: [1, 2.77], sentiment_ci: [17.74, 92.26] });
    }
    // the own brand's competitor figures are the prompt's figures
    expect(comps[0].metrics.visibility).toBe(prompt.visibility);
    expect(comps[0].metrics.position).toBe(prompt.position);
    expect(comps[0].metrics.sentiment).toBe(overview.sentiment);
    expect(Math.round(comps[0].metrics.sentiment)).toBe(prompt.sentiment);
    const analytics = await get(`/prompts/${Q}/analytics`);
    expect(analytics).toMatchObject({ volume: 4, sentiment: 55, sentiment_ci: [17.74, 92.26] });
  });

  it('the daily series and charts', async () => {
    // Beta:  E1 R1(1,70) R4(1,55) of 2 -> 100, 1, 62.5; E2 null; E3 R3(2,40) of 2 -> 50, 2, 40
    // Gamma: E1 R1(2,50) of 2 -> 50, 2, 50; E3 R2(1,80) R3(1,60) -> 100, 1, 70
    // (2 × 100 + 2 × 50) / 4 = 75 = the window's visibility
    const v = await get('/visibility');
    expect(v.dates).toEqual([E1, E2, E3]);
    expect(v.series.map((s: any) => [s.name, s.visibility, s.position, s.sentiment])).toEqual([
      ['Beta', [100, null, 50], [1, null, 2], [62.5, null, 40]],
      ['Gamma', [50, null, 100], [2, null, 1], [50, null, 70]],
    ]);
    const a = await get(`/prompts/${Q}/analytics`);
    // a point rests on one answer: 1 of 1 (Wilson 20.65 .. 100) or 0 of 1 (0 .. 79.35); one mention, no mean interval
    const v1 = (provider: string, value: 0 | 100) => ({ provider, value, n: 1, ci: value ? [20.65, 100] : [0, 79.35] });
    const m = (provider: string, value: number) => ({ provider, value, n: 1, ci: null });
    expect(a.visibility_chart).toEqual({ [E1]: [v1('chatgpt', 100), v1('google_ai_overview', 100)], [E2]: [], [E3]: [v1('chatgpt', 100), v1('perplexity', 0)] });
    expect(a.position_chart).toEqual({ [E1]: [m('chatgpt', 1), m('google_ai_overview', 1)], [E2]: [], [E3]: [m('chatgpt', 2)] });
    expect(a.sentiment_chart).toEqual({ [E1]: [m('chatgpt', 70), m('google_ai_overview', 55)], [E2]: [], [E3]: [m('chatgpt', 40)] });
  });

  it('per-prompt domains: all 26, in the order of the sources list; figures of the first and the own domain', async () => {
    // src01: R1 44 + R2 1 = 45 citations in 2 of 4 responses -> avg 22.5, 50 %, mentioned (R1)
    // src02: 18 in R1 -> avg 18, 25 %; beta.io: R2 only -> 1, 25 %, not mentioned, Gamma named
    const items = (await get(`/prompts/${Q}/domains`)).items;
    expect(items.map((i: any) => i.domain)).toEqual(ALL().map((s) => s.domain));
    expect(items.map((i: any) => i.citation_count)).toEqual(ALL().map((s) => s.reference_count));
    const pick = (i: any) => [i.domain, i.domain_type, i.citation_count, i.avg_citations, i.used_percentage, i.mentioned, i.brands_appeared.map((b: any) => b.name).sort()];
    expect(pick(items[0])).toEqual(['src01.com', 0, 45, 22.5, 50, true, ['Beta', 'Gamma']]);
    expect(pick(items[1])).toEqual(['src02.com', 1, 18, 18, 25, true, ['Beta', 'Gamma']]);
    expect(pick(items.find((i: any) => i.domain === 'beta.io'))).toEqual(['beta.io', 0, 1, 1, 25, false, ['Gamma']]);
    const urls = (await get(`/prompts/${Q}/urls`)).items;
    expect(urls).toHaveLength(202);
    expect(urls.every((u: any) => u.mentioned_count === 1)).toBe(true);
    expect(urls[0]).toMatchObject({ url: 'https://beta.io/', url_type: 0, url_type_name: 'homepage', first_seen: `${E3}T00:00:00.000Z` });
  });
});
