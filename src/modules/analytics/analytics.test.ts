// Analytics endpoints against a fixture project whose every figure was worked out by hand.
//
// The answers are written through the real write path (storeAnswers: responses, citations
// and every daily rollup, provider '*' rows summing all providers) with hand-made Analysis
// objects, so the expected figures depend only on the definitions of docs/analytics.md,
// not on the text analyser. The same checks run on PGlite and on PostgreSQL
// (TEST_STORE=postgres).
//
// The process runs in a time zone far from UTC: every date must still be a UTC date.
const ORIGINAL_TZ = process.env.TZ;
process.env.TZ = 'Pacific/Honolulu';

import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_MAX } from '../../analysis/preview.js';
import { utcDay } from '../../lib/time.js';
import { sourceId } from '../sources/service.js';
import { startTestApp, ZERO_UUID, type TestApp, errorBody } from '../../../test/helpers.js';
import {
  brandInfo,
  data,
  fixtureProject,
  icons,
  MODELS,
  OWN,
  referencesOf,
  storeSpecs,
  textOf,
  type AnswerSpec,
  type Cite,
  type FixtureProject,
} from '../../../test/analytics-fixture.js';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { PLAIN_JSON_ROUTES } from '../../http/serializer.js';
import * as projectSchemas from '../projects/schema.js';
import * as promptSchemas from '../prompts/schema.js';
import * as sourceSchemas from '../sources/schema.js';
import * as metrics from './metrics.js';
import * as schemas from './schema.js';
import { resolveWindow } from './window.js';
import { PROVIDER_SURFACE, type ProviderName } from '../../ports/providers/types.js';
import { expectConsistentRollups } from '../../../test/rollup-invariants.js';

let t: TestApp;
beforeAll(async () => {
  // role 'api': no workers, so neither the bootstrap nor the re-analysis queued by adding
  // competitors touches the hand-made answers; a short rate-limit window for the many requests.
  t = await startTestApp({ role: 'api', rateLimitWindowMs: 100 });
});
afterAll(async () => {
  await t?.stop();
  if (ORIGINAL_TZ === undefined) delete process.env.TZ;
  else process.env.TZ = ORIGINAL_TZ;
});

// ---------------------------------------------------------------------------------------
// The fixture
//
// Brand Acme (acme.com), competitors Rival (rival.com), Other (other.io) and Ghost
// (ghost.dev, never named). Prompts, created in this order:
//   P1 active, P2 active, P3 active then changed to suggested, P4 active and never answered.
// Window W = 2025-03-01 .. 2025-03-04 (D1..D4); D3 has no answer at all.
// The window before it (for trends) = 2025-02-25 .. 2025-02-28.
//
// Answers in W (named: brand -> [position, count, sentiment]; O = own brand Acme, R = Rival,
// X = Other; "m" = the own brand is mentioned; own = cites acme.com):
//
//  id  day prompt provider    m  named                          citations (domain, category)
//  A1  D1  P1     chatgpt     y  O[1,2,80] R[2,1,40]            acme.com/pricing (acme,0), en.wikipedia.org/wiki/CRM (wikipedia,3)  own
//  A2  D1  P1     perplexity  n  R[1,3,70]                      reddit.com/r/crm/1 (reddit,4), rival.com/ (rival,0)
//  A3  D1  P1     google      y  R[1,1,50] O[2,1,60]            en.wikipedia.org/wiki/CRM
//  A4  D2  P1     chatgpt     y  O[1,1,90]                      acme.com/, acme.com/pricing                                         own
//  A5  D2  P1     perplexity  n  X[1,2,30]                      reddit.com/r/crm/2, techcrunch.com/crm-2025 (techcrunch,1)
//  A6  D4  P1     chatgpt     n  -                              reddit.com/r/crm/1
//  A7  D4  P1     perplexity  y  R[1,1,50] X[2,1,50] O[3,1,45]  g2.com/categories/crm (g2,5)
//  A8  D4  P1     google      n  R[1,2,65]                      reddit.com/r/crm/3, techcrunch.com/crm-2025
//  B1  D1  P2     chatgpt     y  O[1,3,70] R[2,2,55]            acme.com/vs/rival, rival.com/pricing                                own
//  B2  D2  P2     chatgpt     n  R[1,1,60]                      rival.com/pricing
//  B3  D2  P2     google      y  R[1,1,50] O[2,1,50]            -
//  B4  D4  P2     perplexity  y  O[1,1,35]                      nist.gov/crm-guide (nist,2), acme.com/vs/rival                      own
//  S1  D2  P3     chatgpt     y  O[1,1,60] X[2,1,40]            -
//
// Previous window:
//  PA 02-27 P1 chatgpt n -;  PB 02-28 P1 chatgpt n R[1,1,50];  PC 02-28 P1 perplexity y R[1,1,50] O[2,1,40]
//  PD 02-27 P2 chatgpt y O[1,1,70];  PE 02-28 P2 google y O[1,1,80];  PF 02-26 P3 chatgpt y O[1,1,60]
// ---------------------------------------------------------------------------------------

const D1 = '2025-03-01';
const D2 = '2025-03-02';
const D3 = '2025-03-03';
const D4 = '2025-03-04';
const DAYS = [D1, D2, D3, D4];
const W = `date_from=${D1}&date_to=${D4}`;
const PERIOD = `${D1} to ${D4}`;

const C = {
  acmePricing: { url: 'https://acme.com/pricing', domain: 'acme.com', category: 0, urlType: 4 },
  acmeHome: { url: 'https://acme.com/', domain: 'acme.com', category: 0, urlType: 0 },
  acmeVs: { url: 'https://acme.com/vs/rival', domain: 'acme.com', category: 0, urlType: 3 },
  wiki: { url: 'https://en.wikipedia.org/wiki/CRM', domain: 'wikipedia.org', category: 3, urlType: null },
  reddit1: { url: 'https://reddit.com/r/crm/1', domain: 'reddit.com', category: 4, urlType: 6 },
  reddit2: { url: 'https://reddit.com/r/crm/2', domain: 'reddit.com', category: 4, urlType: 6 },
  reddit3: { url: 'https://reddit.com/r/crm/3', domain: 'reddit.com', category: 4, urlType: 6 },
  rivalHome: { url: 'https://rival.com/', domain: 'rival.com', category: 0, urlType: 0 },
  rivalPricing: { url: 'https://rival.com/pricing', domain: 'rival.com', category: 0, urlType: 4 },
  tc: { url: 'https://techcrunch.com/crm-2025', domain: 'techcrunch.com', category: 1, urlType: 1 },
  g2: { url: 'https://g2.com/categories/crm', domain: 'g2.com', category: 5, urlType: 2 },
  nist: { url: 'https://nist.gov/crm-guide', domain: 'nist.gov', category: 2, urlType: null },
} satisfies Record<string, Cite>;

const LONG_FIRST_SENTENCE =
  'Rival, Other and Acme are all solid customer relationship management platforms for small and mid-sized teams that want pipelines, reporting, automation and integrations without a long setup. Pick by budget.';

let f: FixtureProject;
let P1: string, P2: string, P3: string, P4: string;
let R: string, X: string, G: string;
/** Answer specs by label, for the chat checks. */
const S: Record<string, AnswerSpec> = {};

const PROMPTS = ['What is the best CRM for startups?', 'Acme vs Rival pricing comparison', 'Which CRM do agencies use?', 'How do I migrate CRM data?'];

beforeAll(async () => {
  f = await fixtureProject(t, {
    brand: 'Acme',
    url: 'https://acme.com',
    prompts: PROMPTS,
    competitors: [
      { name: 'Rival', website: 'rival.com' },
      { name: 'Other', website: 'other.io' },
      { name: 'Ghost', website: 'ghost.dev' },
    ],
  });
  [P1, P2, P3, P4] = f.promptIds;
  ({ Rival: R, Other: X, Ghost: G } = f.competitorIds);
  const patched = await f.api.patch(`/projects/${f.projectId}/prompts/${P3}`, { promptType: 'Suggested' });
  expect(patched.statusCode).toBe(200);

  const a = (label: string, s: AnswerSpec) => (S[label] = s);
  const specs = [
    a('A1', { prompt: P1, provider: 'chatgpt', day: D1, named: { [OWN]: [1, 2, 80], [R]: [2, 1, 40] }, cites: [{ ...C.acmePricing, title: 'Acme pricing' }, C.wiki], text: 'Acme is the best CRM for startups. Rival is cheaper.' }),
    a('A2', { prompt: P1, provider: 'perplexity', day: D1, named: { [R]: [1, 3, 70] }, cites: [C.reddit1, C.rivalHome] }),
    a('A3', { prompt: P1, provider: 'google_ai_overview', day: D1, named: { [R]: [1, 1, 50], [OWN]: [2, 1, 60] }, cites: [C.wiki] }),
    a('A4', { prompt: P1, provider: 'chatgpt', day: D2, named: { [OWN]: [1, 1, 90] }, cites: [C.acmeHome, { ...C.acmePricing, title: 'Acme pricing 2025' }] }),
    a('A5', { prompt: P1, provider: 'perplexity', day: D2, named: { [X]: [1, 2, 30] }, cites: [C.reddit2, C.tc] }),
    a('A6', { prompt: P1, provider: 'chatgpt', day: D4, named: {}, cites: [C.reddit1] }),
    a('A7', { prompt: P1, provider: 'perplexity', day: D4, named: { [R]: [1, 1, 50], [X]: [2, 1, 50], [OWN]: [3, 1, 45] }, cites: [C.g2], text: LONG_FIRST_SENTENCE }),
    a('A8', { prompt: P1, provider: 'google_ai_overview', day: D4, named: { [R]: [1, 2, 65] }, cites: [C.reddit3, C.tc] }),
    a('B1', { prompt: P2, provider: 'chatgpt', day: D1, named: { [OWN]: [1, 3, 70], [R]: [2, 2, 55] }, cites: [C.acmeVs, C.rivalPricing] }),
    a('B2', { prompt: P2, provider: 'chatgpt', day: D2, named: { [R]: [1, 1, 60] }, cites: [C.rivalPricing] }),
    a('B3', { prompt: P2, provider: 'google_ai_overview', day: D2, named: { [R]: [1, 1, 50], [OWN]: [2, 1, 50] } }),
    a('B4', { prompt: P2, provider: 'perplexity', day: D4, named: { [OWN]: [1, 1, 35] }, cites: [C.nist, C.acmeVs] }),
    a('S1', { prompt: P3, provider: 'chatgpt', day: D2, named: { [OWN]: [1, 1, 60], [X]: [2, 1, 40] } }),
    // the window before W
    a('PA', { prompt: P1, provider: 'chatgpt', day: '2025-02-27', named: {} }),
    a('PB', { prompt: P1, provider: 'chatgpt', day: '2025-02-28', named: { [R]: [1, 1, 50] } }),
    a('PC', { prompt: P1, provider: 'perplexity', day: '2025-02-28', named: { [R]: [1, 1, 50], [OWN]: [2, 1, 40] } }),
    a('PD', { prompt: P2, provider: 'chatgpt', day: '2025-02-27', named: { [OWN]: [1, 1, 70] } }),
    a('PE', { prompt: P2, provider: 'google_ai_overview', day: '2025-02-28', named: { [OWN]: [1, 1, 80] } }),
    a('PF', { prompt: P3, provider: 'chatgpt', day: '2025-02-26', named: { [OWN]: [1, 1, 60] } }),
  ];
  await storeSpecs(t, f.projectId, specs, 'acme.com', { 'acme.com': OWN, 'rival.com': R });
});

const url = (path: string, query = W) => `/projects/${f.projectId}${path}${query ? `?${query}` : ''}`;
const get = (path: string, query = W) => data(f.api, url(path, query));

const NAMES = () => ({ [OWN]: 'Acme', [R]: 'Rival', [X]: 'Other', [G]: 'Ghost' }) as Record<string, string>;
const DOMAINS = () => ({ [OWN]: 'acme.com', [R]: 'rival.com', [X]: 'other.io', [G]: 'ghost.dev' }) as Record<string, string>;
const info = (id: string) => brandInfo(NAMES()[id], DOMAINS()[id]);
const byName = <T extends { name: string }>(xs: T[]) => [...xs].sort((a, b) => a.name.localeCompare(b.name));

// ---------------------------------------------------------------------------------------
describe('prompts list and get: window metrics (docs/analytics.md)', () => {
  // P1 in W: 8 responses (A1..A8); mentioned A1 A3 A4 A7 = 4 -> visibility 4/8 = 50.
  //   position (1+2+1+3)/4 = 1.75; sentiment (80+60+90+45)/4 = 68.75 -> integer 69;
  //   cvr: A1, A4 cite acme.com -> 2/8 = 25; volume 8.
  //   previous window: PA n, PB n, PC y -> 1/3 = 33.33; +16.67 points, but on 8 and 3 answers:
  //   pooled 5/11, z = (0.5 - 0.3333) / sqrt(5/11 * 6/11 * (1/8 + 1/3)) = 0.49 -> stable.
  // P2 in W: B1..B4 = 4; mentioned B1 B3 B4 -> 75; position (1+2+1)/3 = 1.33;
  //   sentiment (70+50+35)/3 = 51.67 -> 52; cvr B1, B4 -> 2/4 = 50;
  //   previous PD y, PE y -> 100; -25 points: pooled 5/6, z = -0.25 / sqrt(5/36 * (1/4 + 1/2)) = -0.77 -> stable.
  // P3 (suggested; the list shows every type): S1 -> 100, position 1, sentiment 60, cvr 0,
  //   volume 1; previous PF y -> 100; both 100 % (pooled 1, no variance) -> stable.
  // P4: no response -> every figure null, volume 0 (nothing collected), trend null.
  const ALL = () => [
    { id: P1, prompt_type: 'active', visibility: 50, sentiment: 69, position: 1.75, volume: 8, cvr: 25, trend: 'stable' },
    { id: P2, prompt_type: 'active', visibility: 75, sentiment: 52, position: 1.33, volume: 4, cvr: 50, trend: 'stable' },
    { id: P3, prompt_type: 'suggested', visibility: 100, sentiment: 60, position: 1, volume: 1, cvr: 0, trend: 'stable' },
    { id: P4, prompt_type: 'active', visibility: null, sentiment: null, position: null, volume: 0, cvr: null, trend: null },
  ];
  const pick = (p: any) => ({ id: p.id, prompt_type: p.prompt_type, visibility: p.visibility, sentiment: p.sentiment, position: p.position, volume: p.volume, cvr: p.cvr, trend: p.trend });

  it('every figure of every prompt, by creation date', async () => {
    const d = await get('/prompts');
    expect(d.project_id).toBe(f.projectId);
    expect(d.total).toBe(4);
    expect(d.prompts.map((p: any) => p.content)).toEqual(PROMPTS);
    expect(d.prompts.map(pick)).toEqual(ALL());
    for (const p of d.prompts) expect(p.topic_id).toBe(f.topicId);
  });

  it('get returns the same figures as the list', async () => {
    const list = (await get('/prompts')).prompts;
    for (const p of list) expect(await get(`/prompts/${p.id}`)).toEqual(p);
  });

  it('providers=chatgpt: the figures and trends of the chatgpt answers only', async () => {
    // P1: A1 y, A4 y, A6 n -> 66.67; position 1; sentiment (80+90)/2 = 85; cvr A1, A4 -> 66.67;
    //     previous chatgpt PA n, PB n -> 0: z = 0.6667 / sqrt(0.4 * 0.6 * (1/3 + 1/2)) = 1.49 -> stable.
    // P2: B1 y, B2 n -> 50; position 1; sentiment 70; cvr B1 -> 50; previous PD y -> 100 -> stable.
    // P3: S1 -> 100; previous PF -> 100 -> stable.
    const d = await get('/prompts', `${W}&providers=chatgpt`);
    expect(d.prompts.map(pick)).toEqual([
      { id: P1, prompt_type: 'active', visibility: 66.67, sentiment: 85, position: 1, volume: 3, cvr: 66.67, trend: 'stable' },
      { id: P2, prompt_type: 'active', visibility: 50, sentiment: 70, position: 1, volume: 2, cvr: 50, trend: 'stable' },
      { id: P3, prompt_type: 'suggested', visibility: 100, sentiment: 60, position: 1, volume: 1, cvr: 0, trend: 'stable' },
      ALL()[3],
    ]);
  });

  it('providers=perplexity,google_ai_overview: 60 points down, yet stable on 5 and 1 answers', async () => {
    // P1: A2 n, A3 y(2,60), A5 n, A7 y(3,45), A8 n -> 2/5 = 40; position 2.5; sentiment 52.5 -> 53;
    //     cvr 0; previous PC y -> 100: z = -0.6 / sqrt(0.25 * (1/5 + 1)) = -1.10 -> stable.
    // P2: B3 y(2,50), B4 y(1,35) -> 100; position 1.5; sentiment 42.5 -> 43; cvr B4 -> 50;
    //     previous PE y -> 100 -> stable.
    // P3: no perplexity or google answer in either window -> no data.
    const d = await get('/prompts', `${W}&providers=perplexity,google_ai_overview`);
    expect(d.prompts.map(pick)).toEqual([
      { id: P1, prompt_type: 'active', visibility: 40, sentiment: 53, position: 2.5, volume: 5, cvr: 0, trend: 'stable' },
      { id: P2, prompt_type: 'active', visibility: 100, sentiment: 43, position: 1.5, volume: 2, cvr: 50, trend: 'stable' },
      { id: P3, prompt_type: 'suggested', visibility: null, sentiment: null, position: null, volume: 0, cvr: null, trend: null },
      ALL()[3],
    ]);
  });

  it('windows of whole weeks (weekly rollups) plus edge days, for the figures and the trend', async () => {
    // 2025-03-03 (Mon) .. 2025-03-09 (Sun): one whole week; the window before, 02-24 .. 03-02, another.
    // P1 now: A6 n, A7 y(3,45), A8 n -> 33.33, 45, 3, volume 3, cvr 0;
    //   before: PA n, PB n, PC y, A1 y, A2 n, A3 y, A4 y, A5 n -> 4/8 = 50; 1/3 against 4/8 -> stable.
    // P2 now: B4 y(1,35) own -> 100, 35, 1, 1, 100; before: PD y, PE y, B1 y, B2 n, B3 y -> 80; 1/1 against 4/5 -> stable.
    // P3: nothing now -> no figures, no trend.
    const d = await get('/prompts', 'date_from=2025-03-03&date_to=2025-03-09');
    expect(d.prompts.map(pick)).toEqual([
      { id: P1, prompt_type: 'active', visibility: 33.33, sentiment: 45, position: 3, volume: 3, cvr: 0, trend: 'stable' },
      { id: P2, prompt_type: 'active', visibility: 100, sentiment: 35, position: 1, volume: 1, cvr: 100, trend: 'stable' },
      { id: P3, prompt_type: 'suggested', visibility: null, sentiment: null, position: null, volume: 0, cvr: null, trend: null },
      ALL()[3],
    ]);
    // 2025-02-24 (Mon) .. 2025-03-04 (Tue): the week of 02-24 and the days 03-03, 03-04; nothing before.
    // P1: PA PB PC A1..A8 = 11; mentioned PC A1 A3 A4 A7 = 5 -> 45.45; position (2+1+2+1+3)/5 = 1.8;
    //   sentiment (40+80+60+90+45)/5 = 63; cvr A1, A4 -> 2/11 = 18.18.
    // P2: PD PE B1..B4 = 6; mentioned PD PE B1 B3 B4 -> 83.33; position (1+1+1+2+1)/5 = 1.2;
    //   sentiment (70+80+70+50+35)/5 = 61; cvr B1, B4 -> 33.33.
    // P3: PF y(1,60), S1 y(1,60) -> 100, 60, 1, volume 2, cvr 0.
    // and 02-01 .. 03-04 (February whole, from prompt_monthly) holds the same answers
    for (const window of ['date_from=2025-02-24&date_to=2025-03-04', 'date_from=2025-02-01&date_to=2025-03-04']) {
      const e = await get('/prompts', window);
      expect(e.prompts.map(pick)).toEqual([
        { id: P1, prompt_type: 'active', visibility: 45.45, sentiment: 63, position: 1.8, volume: 11, cvr: 18.18, trend: null },
        { id: P2, prompt_type: 'active', visibility: 83.33, sentiment: 61, position: 1.2, volume: 6, cvr: 33.33, trend: null },
        { id: P3, prompt_type: 'suggested', visibility: 100, sentiment: 60, position: 1, volume: 2, cvr: 0, trend: null },
        ALL()[3],
      ]);
    }
  });

  // The intervals below are R 4.2.2's: prop.test(x, n, correct = FALSE)$conf.int * 100 and
  // t.test(values)$conf.int, rounded to 2 decimals; a t interval is cut to the scale of its
  // mean (position from 1, sentiment 0..100).
  const unc = (p: any) => ({ id: p.id, responses: p.responses, visibility_ci: p.visibility_ci, position_ci: p.position_ci, sentiment_ci: p.sentiment_ci });
  const UNC = () => [
    // P1: 4 of 8; positions 1 2 1 3 (t: -> 0.23 .. 3.27); sentiments 80 60 90 45 (t: 36.68 .. 100.82)
    { id: P1, responses: 8, visibility_ci: [21.52, 78.48], position_ci: [1, 3.27], sentiment_ci: [36.68, 100] },
    // P2: 3 of 4; positions 1 2 1 (t: -0.10 .. 2.77); sentiments 70 50 35
    { id: P2, responses: 4, visibility_ci: [30.06, 95.44], position_ci: [1, 2.77], sentiment_ci: [8.05, 95.29] },
    // P3: 1 of 1; one mentioning response: no mean interval
    { id: P3, responses: 1, visibility_ci: [20.65, 100], position_ci: null, sentiment_ci: null },
    { id: P4, responses: 0, visibility_ci: null, position_ci: null, sentiment_ci: null },
  ];

  it('responses and 95% intervals of every figure (extension fields)', async () => {
    const d = await get('/prompts');
    expect(d.prompts.map(unc)).toEqual(UNC());
    for (const p of UNC()) expect(unc(await get(`/prompts/${p.id}`))).toEqual(p);
    // chatgpt: P1 A1 y(1,80) A4 y(1,90) A6 n -> 2 of 3, positions 1 1 (no spread), sentiments 80 90
    // (t: 21.47 .. 148.53); P2 B1 y B2 n -> 1 of 2, one mention; P3 S1 -> 1 of 1.
    const c = await get('/prompts', `${W}&providers=chatgpt`);
    expect(c.prompts.map(unc)).toEqual([
      { id: P1, responses: 3, visibility_ci: [20.77, 93.85], position_ci: [1, 1], sentiment_ci: [21.47, 100] },
      { id: P2, responses: 2, visibility_ci: [9.45, 90.55], position_ci: null, sentiment_ci: null },
      UNC()[2],
      UNC()[3],
    ]);
  });

  it('a day without any answer: no figures, and no trend although the day before has data', async () => {
    const d = await get('/prompts', `date_from=${D3}&date_to=${D3}`);
    for (const p of d.prompts) {
      expect(pick(p)).toEqual({ id: p.id, prompt_type: p.prompt_type, visibility: null, sentiment: null, position: null, volume: 0, cvr: null, trend: null });
      expect(unc(p)).toEqual({ id: p.id, responses: 0, visibility_ci: null, position_ci: null, sentiment_ci: null });
    }
  });
});

// ---------------------------------------------------------------------------------------
describe('GET /prompts/{id}/analytics: charts per day and provider', () => {
  // Each provider answers a prompt once a day: a visibility point is 1 of 1 (Wilson [20.65, 100])
  // or 0 of 1 ([0, 79.35]); a position or sentiment point rests on 1 mention (no interval).
  const vis = (provider: string, value: 0 | 100) => ({ provider, value, n: 1, ci: value === 100 ? [20.65, 100] : [0, 79.35] });
  const metric = (provider: string, value: number) => ({ provider, value, n: 1, ci: null });

  it('P1: every day of the window is a key; one value per provider with data', async () => {
    // Each provider answers a prompt once a day, so a day's visibility per provider is 0 or 100.
    // D1: chatgpt A1 y(1,80), google A3 y(2,60), perplexity A2 n
    // D2: chatgpt A4 y(1,90), perplexity A5 n
    // D3: nothing
    // D4: chatgpt A6 n, google A8 n, perplexity A7 y(3,45)
    // volume 8, sentiment 68.75 -> 69 (integer)
    const d = await get(`/prompts/${P1}/analytics`);
    expect(d).toEqual({
      prompt_id: P1,
      prompt_content: PROMPTS[0],
      volume: 8,
      sentiment: 69,
      sentiment_ci: [36.68, 100], // R: t.test(c(80, 60, 90, 45)) -> 36.68 .. 100.82, cut to 100
      visibility_chart: {
        [D1]: [vis('chatgpt', 100), vis('google_ai_overview', 100), vis('perplexity', 0)],
        [D2]: [vis('chatgpt', 100), vis('perplexity', 0)],
        [D3]: [],
        [D4]: [vis('chatgpt', 0), vis('google_ai_overview', 0), vis('perplexity', 100)],
      },
      position_chart: {
        [D1]: [metric('chatgpt', 1), metric('google_ai_overview', 2)],
        [D2]: [metric('chatgpt', 1)],
        [D3]: [],
        [D4]: [metric('perplexity', 3)],
      },
      sentiment_chart: {
        [D1]: [metric('chatgpt', 80), metric('google_ai_overview', 60)],
        [D2]: [metric('chatgpt', 90)],
        [D3]: [],
        [D4]: [metric('perplexity', 45)],
      },
    });
    expect(Object.keys(d.visibility_chart)).toEqual(DAYS);
  });

  it('P2', async () => {
    // D1 chatgpt B1 y(1,70); D2 chatgpt B2 n, google B3 y(2,50); D4 perplexity B4 y(1,35)
    // volume 4; sentiment (70+50+35)/3 = 51.67 -> 52
    const d = await get(`/prompts/${P2}/analytics`);
    expect(d).toMatchObject({ prompt_id: P2, volume: 4, sentiment: 52, sentiment_ci: [8.05, 95.29] });
    expect(d.visibility_chart).toEqual({
      [D1]: [vis('chatgpt', 100)],
      [D2]: [vis('chatgpt', 0), vis('google_ai_overview', 100)],
      [D3]: [],
      [D4]: [vis('perplexity', 100)],
    });
    expect(d.position_chart).toEqual({ [D1]: [metric('chatgpt', 1)], [D2]: [metric('google_ai_overview', 2)], [D3]: [], [D4]: [metric('perplexity', 1)] });
    expect(d.sentiment_chart).toEqual({ [D1]: [metric('chatgpt', 70)], [D2]: [metric('google_ai_overview', 50)], [D3]: [], [D4]: [metric('perplexity', 35)] });
  });

  it('providers=perplexity: only perplexity values; volume and sentiment of its answers', async () => {
    // A2 n (D1), A5 n (D2), A7 y(3,45) (D4): volume 3, sentiment 45
    const d = await get(`/prompts/${P1}/analytics`, `${W}&providers=perplexity`);
    expect(d).toMatchObject({ volume: 3, sentiment: 45, sentiment_ci: null });
    expect(d.visibility_chart).toEqual({ [D1]: [vis('perplexity', 0)], [D2]: [vis('perplexity', 0)], [D3]: [], [D4]: [vis('perplexity', 100)] });
    expect(d.position_chart).toEqual({ [D1]: [], [D2]: [], [D3]: [], [D4]: [metric('perplexity', 3)] });
    expect(d.sentiment_chart).toEqual({ [D1]: [], [D2]: [], [D3]: [], [D4]: [metric('perplexity', 45)] });
  });

  it('a prompt of another project is 404, an unknown prompt 404', async () => {
    const other = await fixtureProject(t, { brand: 'Zed', url: 'https://zed.dev', prompts: ['Zed question one?'] });
    const res = await f.api.get(`/projects/${f.projectId}/prompts/${other.promptIds[0]}/analytics?${W}`);
    expect(res.statusCode).toBe(404);
    expect((await f.api.get(`/projects/${f.projectId}/prompts/${crypto.randomUUID()}/chats`)).statusCode).toBe(404);
    // and the other team cannot read this project at all
    expect((await other.api.get(`/projects/${f.projectId}/prompts/${P1}/analytics`)).statusCode).toBe(403);
  });
});

// ---------------------------------------------------------------------------------------
describe('GET /prompts/{id}/chats', () => {
  const PROMPT_OF = () => ({ [P1]: PROMPTS[0], [P2]: PROMPTS[1], [P3]: PROMPTS[2] }) as Record<string, string>;

  /** The ChatItem of an answer spec (the named brands sorted by position). */
  function chatOf(label: string) {
    const s = S[label];
    const named = Object.entries(s.named ?? {}).sort((a, b) => a[1][0] - b[1][0]);
    const own = s.named?.[OWN];
    return {
      id: expect.any(String),
      date: `${s.day}T00:00:00.000Z`,
      mentioned: !!own,
      position: own ? own[0] : null,
      all_mentions: named.map(([id]) => info(id)),
      chat_preview: expect.any(String),
      platform: s.provider,
      sample: 1,
      model: MODELS[s.provider],
      full_content: textOf(s),
      prompt_content: PROMPT_OF()[s.prompt],
      references: referencesOf(s),
      brands_mentioned: Object.fromEntries(named.map(([id, [position, count]]) => [NAMES()[id], { position, count }])),
      sentiment: own ? own[2] : null,
      sentiment_by_brands: Object.fromEntries(named.map(([id, [, , sentiment]]) => [NAMES()[id], sentiment])),
      // the fixture's answers carry no provider body: no searches to read
      search_queries: [],
      surface: PROVIDER_SURFACE[s.provider],
      market: s.market ?? 'US-en',
    };
  }

  // Newest day first; within a day (same collection time) by provider name.
  const ORDER = ['A6', 'A8', 'A7', 'A4', 'A5', 'A1', 'A3', 'A2'];

  it('every answer of the window, newest first, every field', async () => {
    const d = await get(`/prompts/${P1}/chats`);
    expect(d.items).toEqual(ORDER.map(chatOf));
    expect(new Set(d.items.map((c: any) => c.id)).size).toBe(8);
  });

  it('a chat in full: A1', async () => {
    const d = await get(`/prompts/${P1}/chats`, `date_from=${D1}&date_to=${D1}&providers=chatgpt`);
    expect(d.items).toEqual([
      {
        id: expect.any(String),
        date: '2025-03-01T00:00:00.000Z',
        mentioned: true,
        position: 1,
        all_mentions: [brandInfo('Acme', 'acme.com'), brandInfo('Rival', 'rival.com')],
        chat_preview: 'Acme is the best CRM for startups.',
        platform: 'chatgpt',
        sample: 1,
        model: 'gpt-4o-2024-08-06',
        full_content: 'Acme is the best CRM for startups. Rival is cheaper.',
        prompt_content: 'What is the best CRM for startups?',
        references: [
          { title: 'Acme pricing', link: 'https://acme.com/pricing', snippet: 'Snippet 1', reference_index: 1 },
          { title: 'Title of https://en.wikipedia.org/wiki/CRM', link: 'https://en.wikipedia.org/wiki/CRM', snippet: 'Snippet 2', reference_index: 2 },
        ],
        brands_mentioned: { Acme: { position: 1, count: 2 }, Rival: { position: 2, count: 1 } },
        sentiment: 80,
        sentiment_by_brands: { Acme: 80, Rival: 40 },
        search_queries: [],
        surface: 'api_search',
        market: 'US-en',
      },
    ]);
  });

  it('an answer naming no tracked brand: not mentioned, no position or sentiment, empty maps', async () => {
    const d = await get(`/prompts/${P1}/chats`, `date_from=${D4}&date_to=${D4}&providers=chatgpt`);
    expect(d.items).toHaveLength(1);
    expect(d.items[0]).toMatchObject({ mentioned: false, position: null, sentiment: null, all_mentions: [], brands_mentioned: {}, sentiment_by_brands: {} });
  });

  it('chat_preview: the first sentence, at most 150 characters', async () => {
    const d = await get(`/prompts/${P1}/chats`);
    for (const c of d.items) {
      expect([...c.chat_preview].length).toBeLessThanOrEqual(PREVIEW_MAX);
      expect(c.chat_preview.length).toBeGreaterThan(0);
    }
    const a7 = d.items[2];
    expect(a7.full_content).toBe(LONG_FIRST_SENTENCE);
    expect(LONG_FIRST_SENTENCE.indexOf('.')).toBeGreaterThan(PREVIEW_MAX);
    expect([...a7.chat_preview].length).toBeLessThanOrEqual(150);
    expect(a7.chat_preview.endsWith('\u2026')).toBe(true);
    expect(LONG_FIRST_SENTENCE.startsWith(a7.chat_preview.slice(0, -1))).toBe(true);
    expect(d.items[0].chat_preview).toBe(`Answer from chatgpt on ${D4}.`);
  });

  it('page and page_size: consecutive pages partition the list; past the end is empty', async () => {
    const page = async (n: number, size: number) => (await get(`/prompts/${P1}/chats`, `${W}&page=${n}&page_size=${size}`)).items.map((c: any) => c.id);
    const all = (await get(`/prompts/${P1}/chats`)).items.map((c: any) => c.id);
    expect(await page(1, 3)).toEqual(all.slice(0, 3));
    expect(await page(2, 3)).toEqual(all.slice(3, 6));
    expect(await page(3, 3)).toEqual(all.slice(6));
    expect(await page(4, 3)).toEqual([]);
    expect(await page(1, 1)).toEqual(all.slice(0, 1));
    expect(await page(1, 100)).toEqual(all);
    expect(await page(2, 100)).toEqual([]);
  });

  it('pages of every size partition the list, a page ending inside a day or on its last answer (the query reads from its last day on)', async () => {
    for (const providers of ['', '&providers=chatgpt,google_ai_overview']) {
      const all = (await get(`/prompts/${P1}/chats`, `${W}${providers}`)).items.map((c: any) => c.id);
      expect(all.length).toBeGreaterThan(2);
      for (let size = 1; size <= all.length + 1; size++) {
        const pages: string[] = [];
        for (let n = 1; n <= Math.ceil(all.length / size) + 1; n++) {
          pages.push(...(await get(`/prompts/${P1}/chats`, `${W}${providers}&page=${n}&page_size=${size}`)).items.map((c: any) => c.id));
        }
        expect(pages, `page_size ${size}${providers}`).toEqual(all);
      }
    }
  });

  it.each(['page=0', 'page=-1', 'page=1.5', 'page=x', 'page_size=0', 'page_size=101', 'page_size=-5', 'page_size=2.5', 'page_size=abc'])(
    '%s is a 400',
    async (q) => {
      const res = await f.api.get(url(`/prompts/${P1}/chats`, `${W}&${q}`));
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/^page(_size)? must be an integer/);
    },
  );

  it('the provider filter applies', async () => {
    const d = await get(`/prompts/${P1}/chats`, `${W}&providers=google_ai_overview`);
    expect(d.items).toEqual(['A8', 'A3'].map(chatOf));
  });
});

// ---------------------------------------------------------------------------------------
describe('GET /prompts/{id}/domains (docs/analytics.md DomainItem)', () => {
  const item = (domain: string, domain_type: number, citation_count: number, avg_citations: number, used_percentage: number, mentioned: boolean, brands: string[]) => ({
    domain,
    domain_type,
    citation_count,
    avg_citations,
    used_percentage,
    mentioned,
    brands_appeared: brands,
    favicon_url: icons(domain)[0],
    favicon_urls: icons(domain),
  });
  const norm = (items: any[]) => items.map((i) => ({ ...i, brands_appeared: byName(i.brands_appeared).map((b: any) => b.name) }));

  it('P1: citations, citations per citing response, share of the 8 responses, mentioned, brands; most cited first', async () => {
    // reddit.com      A2 A5 A6 A8 (4 URLs-in-answers)   4 citations / 4 responses = 1;   4/8 = 50 %;  none mentions Acme
    //                 brands named in them: A2 R, A5 X, A6 -, A8 R -> Other, Rival
    // acme.com        A1 (pricing), A4 (/, pricing)    3 / 2 = 1.5;  2/8 = 25 %;  mentioned (A1); A1 O R, A4 O
    // techcrunch.com  A5, A8                           2 / 2 = 1;    25 %;  not mentioned; A5 X, A8 R
    // wikipedia.org   A1, A3                           2 / 2 = 1;    25 %;  mentioned; O R
    // g2.com          A7                               1;  12.5 %;  mentioned; R X O
    // rival.com       A2                               1;  12.5 %;  not mentioned; R
    // ties by domain name
    const d = await get(`/prompts/${P1}/domains`);
    expect(norm(d.items)).toEqual([
      item('reddit.com', 4, 4, 1, 50, false, ['Other', 'Rival']),
      item('acme.com', 0, 3, 1.5, 25, true, ['Acme', 'Rival']),
      item('techcrunch.com', 1, 2, 1, 25, false, ['Other', 'Rival']),
      item('wikipedia.org', 3, 2, 1, 25, true, ['Acme', 'Rival']),
      item('g2.com', 5, 1, 1, 12.5, true, ['Acme', 'Other', 'Rival']),
      item('rival.com', 0, 1, 1, 12.5, false, ['Rival']),
    ]);
    // brands_appeared are BrandInfo
    expect(byName(d.items[0].brands_appeared)).toEqual([info(X), info(R)]);
  });

  it('P2', async () => {
    // 4 responses. acme.com B1, B4 -> 2, 1, 50 %, mentioned, O R; rival.com B1, B2 -> 2, 1, 50 %, mentioned (B1), O R;
    // nist.gov B4 -> 1, 1, 25 %, mentioned, O
    const d = await get(`/prompts/${P2}/domains`);
    expect(norm(d.items)).toEqual([
      item('acme.com', 0, 2, 1, 50, true, ['Acme', 'Rival']),
      item('rival.com', 0, 2, 1, 50, true, ['Acme', 'Rival']),
      item('nist.gov', 2, 1, 1, 25, true, ['Acme']),
    ]);
  });

  it('providers=chatgpt: shares of the 3 chatgpt responses', async () => {
    // A1, A4, A6. acme.com A1 A4 -> 3 / 2 = 1.5, 2/3 = 66.67 %; reddit.com A6 -> 1, 33.33 %, not mentioned, no brand;
    // wikipedia.org A1 -> 1, 33.33 %
    const d = await get(`/prompts/${P1}/domains`, `${W}&providers=chatgpt`);
    expect(norm(d.items)).toEqual([
      item('acme.com', 0, 3, 1.5, 66.67, true, ['Acme', 'Rival']),
      item('reddit.com', 4, 1, 1, 33.33, false, []),
      item('wikipedia.org', 3, 1, 1, 33.33, true, ['Acme', 'Rival']),
    ]);
  });
});

// ---------------------------------------------------------------------------------------
describe('GET /prompts/{id}/urls (docs/analytics.md UrlItem)', () => {
  const item = (url: string, title: string, domain: string, url_type: number | null, url_type_name: string, mentioned_count: number, brands: string[], first: string, last: string) => ({
    url,
    title,
    domain,
    url_type,
    url_type_name,
    mentioned_count,
    brands_appear: brands,
    first_seen: `${first}T00:00:00.000Z`,
    last_seen: `${last}T00:00:00.000Z`,
  });
  const norm = (items: any[]) => items.map((i) => ({ ...i, brands_appear: byName(i.brands_appear).map((b: any) => b.name) }));
  const T = (u: string) => `Title of ${u}`;

  it('P1: responses citing each URL, first and last day, latest title, unknown type; most cited first', async () => {
    // acme.com/pricing  A1 (D1, "Acme pricing"), A4 (D2, "Acme pricing 2025") -> 2, D1..D2, latest title, product
    // wikipedia         A1, A3 (D1) -> 2, D1..D1, url_type null -> 'unknown'
    // reddit /1         A2 (D1), A6 (D4) -> 2, D1..D4, forum_thread; brands A2 R, A6 -
    // techcrunch        A5 (D2), A8 (D4) -> 2, D2..D4, article; A5 X, A8 R
    // then one each: acme.com/ (A4, homepage), g2 (A7, listicle), reddit /2 (A5), reddit /3 (A8), rival.com/ (A2)
    const d = await get(`/prompts/${P1}/urls`);
    expect(norm(d.items)).toEqual([
      item(C.acmePricing.url, 'Acme pricing 2025', 'acme.com', 4, 'product', 2, ['Acme', 'Rival'], D1, D2),
      item(C.wiki.url, T(C.wiki.url), 'wikipedia.org', null, 'unknown', 2, ['Acme', 'Rival'], D1, D1),
      item(C.reddit1.url, T(C.reddit1.url), 'reddit.com', 6, 'forum_thread', 2, ['Rival'], D1, D4),
      item(C.tc.url, T(C.tc.url), 'techcrunch.com', 1, 'article', 2, ['Other', 'Rival'], D2, D4),
      item(C.acmeHome.url, T(C.acmeHome.url), 'acme.com', 0, 'homepage', 1, ['Acme'], D2, D2),
      item(C.g2.url, T(C.g2.url), 'g2.com', 2, 'listicle', 1, ['Acme', 'Other', 'Rival'], D4, D4),
      item(C.reddit2.url, T(C.reddit2.url), 'reddit.com', 6, 'forum_thread', 1, ['Other'], D2, D2),
      item(C.reddit3.url, T(C.reddit3.url), 'reddit.com', 6, 'forum_thread', 1, ['Rival'], D4, D4),
      item(C.rivalHome.url, T(C.rivalHome.url), 'rival.com', 0, 'homepage', 1, ['Rival'], D1, D1),
    ]);
  });

  it('P2', async () => {
    const d = await get(`/prompts/${P2}/urls`);
    expect(norm(d.items)).toEqual([
      item(C.acmeVs.url, T(C.acmeVs.url), 'acme.com', 3, 'comparison', 2, ['Acme', 'Rival'], D1, D4),
      item(C.rivalPricing.url, T(C.rivalPricing.url), 'rival.com', 4, 'product', 2, ['Acme', 'Rival'], D1, D2),
      item(C.nist.url, T(C.nist.url), 'nist.gov', null, 'unknown', 1, ['Acme'], D4, D4),
    ]);
  });

  it('the window narrows first_seen and last_seen', async () => {
    const d = await get(`/prompts/${P1}/urls`, `date_from=${D2}&date_to=${D4}`);
    const reddit1 = d.items.find((i: any) => i.url === C.reddit1.url);
    expect(reddit1).toMatchObject({ mentioned_count: 1, first_seen: `${D4}T00:00:00.000Z`, last_seen: `${D4}T00:00:00.000Z` });
    expect(d.items.find((i: any) => i.url === C.wiki.url)).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------
describe('GET /competitors: brand metrics of the window', () => {
  const m = (visibility: number, sentiment: number | null, position: number | null, mention_count: number, days_with_data: number, period = PERIOD) => ({
    visibility,
    sentiment,
    position,
    mention_count,
    days_with_data,
    period,
  });
  type Ci = [number, number] | null;
  /** The extension fields (intervals from R 4.2.2, as in the prompts tests). */
  const u = (responses: number, visibility_ci: Ci, position_ci: Ci, sentiment_ci: Ci, share_of_voice: number, share_of_voice_ci: Ci) => ({
    responses,
    visibility_ci,
    position_ci,
    sentiment_ci,
    share_of_voice,
    share_of_voice_ci,
  });
  const ext = (c: any) => u(c.responses, c.visibility_ci, c.position_ci, c.sentiment_ci, c.share_of_voice, c.share_of_voice_ci);

  it('all providers: 13 responses in W (A1..A8, B1..B4, S1)', async () => {
    // Acme:  named in A1 A3 A4 A7 B1 B3 B4 S1 = 8 -> 8/13 = 61.54; counts 2+1+1+1+3+1+1+1 = 11;
    //        positions 1+2+1+3+1+2+1+1 = 12 -> 1.5; sentiments 80+60+90+45+70+50+35+60 = 490 -> 61.25;
    //        days D1 D2 D4 = 3
    // Rival: A1 A2 A3 A7 A8 B1 B2 B3 = 8 -> 61.54; counts 1+3+1+1+2+2+1+1 = 12; positions 2+1+1+1+1+2+1+1 = 10
    //        -> 1.25; sentiments 40+70+50+50+65+55+60+50 = 440 -> 55; days 3
    // Other: A5 A7 S1 = 3 -> 3/13 = 23.08; counts 2+1+1 = 4; positions 1+2+2 = 5 -> 1.67; sentiments
    //        30+50+40 = 120 -> 40; days D2 D4 = 2
    // Ghost: never named -> 0 %, no position or sentiment, 0 mentions, 0 days
    const d = await get('/competitors');
    expect(d.total_active).toBe(4);
    expect(d.active_competitors.map((c: any) => [c.competitor_id, c.name, c.is_own_brand, c.website])).toEqual([
      [ZERO_UUID, 'Acme', true, 'https://acme.com'],
      [R, 'Rival', false, 'https://rival.com'],
      [X, 'Other', false, 'https://other.io'],
      [G, 'Ghost', false, 'https://ghost.dev'],
    ]);
    expect(d.active_competitors.map((c: any) => c.metrics)).toEqual([
      m(61.54, 61.25, 1.5, 11, 3),
      m(61.54, 55, 1.25, 12, 3),
      m(23.08, 40, 1.67, 4, 2),
      m(0, null, null, 0, 0),
    ].map((x, i) => ({ ...x, ...ext(d.active_competitors[i].metrics) })));
    // Intervals: visibility over the 13 responses; position and sentiment over the mentioning
    // ones (t.test, cut to the scale: Acme positions 0.87 .. 2.13 -> 1 .. 2.13); share of voice
    // over the 8 + 8 + 3 = 19 mentions of tracked brands: 42.11, 42.11, 15.79, 0.
    expect(d.active_competitors.map((c: any) => ext(c.metrics))).toEqual([
      u(13, [35.52, 82.29], [1, 2.13], [45.97, 76.53], 42.11, [23.14, 63.72]),
      u(13, [35.52, 82.29], [1, 1.64], [46.94, 63.06], 42.11, [23.14, 63.72]),
      u(13, [8.18, 50.26], [1, 3.1], [15.16, 64.84], 15.79, [5.52, 37.57]),
      u(13, [0, 22.81], null, null, 0, [0, 16.82]),
    ]);
  });

  it('providers=chatgpt: 6 responses (A1 A4 A6 B1 B2 S1)', async () => {
    // Acme:  A1 A4 B1 S1 -> 4/6 = 66.67; counts 2+1+3+1 = 7; positions all 1; sentiments (80+90+70+60)/4 = 75; D1 D2
    // Rival: A1(2,40) B1(2,55) B2(1,60) -> 50; 1+2+1 = 4; 5/3 = 1.67; 155/3 = 51.67; D1 D2
    // Other: S1(2,40) -> 16.67; 1; 2; 40; D2
    const d = await get('/competitors', `${W}&providers=chatgpt`);
    expect(d.active_competitors.map((c: any) => c.metrics)).toEqual([
      m(66.67, 75, 1, 7, 2),
      m(50, 51.67, 1.67, 4, 2),
      m(16.67, 40, 2, 1, 1),
      m(0, null, null, 0, 0),
    ].map((x, i) => ({ ...x, ...ext(d.active_competitors[i].metrics) })));
    // 6 responses; mentions 4 + 3 + 1 = 8: shares 50, 37.5, 12.5, 0.
    // Acme positions all 1 (no spread), sentiments 80 90 70 60; Rival positions 2 2 1, sentiments 40 55 60.
    expect(d.active_competitors.map((c: any) => ext(c.metrics))).toEqual([
      u(6, [30, 90.32], [1, 1], [54.46, 95.54], 50, [21.52, 78.48]),
      u(6, [18.76, 81.24], [1, 3.1], [25.81, 77.52], 37.5, [13.68, 69.43]),
      u(6, [3.01, 56.35], null, null, 12.5, [2.24, 47.09]),
      u(6, [0, 39.03], null, null, 0, [0, 32.44]),
    ]);
  });

  it('a window without data: visibility 0, no position or sentiment, period of that window', async () => {
    const d = await get('/competitors', `date_from=${D3}&date_to=${D3}`);
    for (const c of d.active_competitors) expect(c.metrics).toEqual({ ...m(0, null, null, 0, 0, `${D3} to ${D3}`), ...u(0, null, null, null, 0, null) });
  });
});

// ---------------------------------------------------------------------------------------
describe('GET /overview', () => {
  const pick = (i: any) => ({
    prompt_id: i.prompt_id,
    visibility: i.visibility,
    sentiment: i.sentiment,
    position: i.position,
    cvr: i.cvr,
    volume: i.volume,
    competitors_mentioned: i.competitors_mentioned.map((c: any) => [c.name, c.mention_count]),
  });

  it('active prompts (default): figures, competitors by mentions, zeros without data', async () => {
    // P1: 50, sentiment 68.75 (float here), position 1.75, cvr 25;
    //     Rival counts A1 1 + A2 3 + A3 1 + A7 1 + A8 2 = 8, Other A5 2 + A7 1 = 3
    // P2: 75, 51.67, 1.33, cvr 50; Rival B1 2 + B2 1 + B3 1 = 4
    // P4: no answer -> 0, 0, 0, cvr null, none named
    // volume: estimated search demand, null (no keyword-volume source configured)
    const d = await get('/overview');
    expect(d.items.map(pick)).toEqual([
      { prompt_id: P1, visibility: 50, sentiment: 68.75, position: 1.75, cvr: 25, volume: null, competitors_mentioned: [['Rival', 8], ['Other', 3]] },
      { prompt_id: P2, visibility: 75, sentiment: 51.67, position: 1.33, cvr: 50, volume: null, competitors_mentioned: [['Rival', 4]] },
      { prompt_id: P4, visibility: 0, sentiment: 0, position: 0, cvr: null, volume: null, competitors_mentioned: [] },
    ]);
    const prompts = (await get('/prompts')).prompts;
    const first = d.items[0];
    expect(first).toEqual({
      prompt_id: P1,
      content: PROMPTS[0],
      prompt_type: 'active',
      created_at: prompts[0].created_at,
      topic_id: f.topicId,
      topic_name: 'Acme topic',
      visibility: 50,
      sentiment: 68.75,
      position: 1.75,
      volume: null,
      intent: prompts[0].intent,
      cvr: 25,
      // the same responses and intervals as the prompts list (R values there)
      responses: 8,
      visibility_ci: [21.52, 78.48],
      position_ci: [1, 3.27],
      sentiment_ci: [36.68, 100],
      competitors_mentioned: [
        { competitor_id: R, name: 'Rival', mention_count: 8, icon_url: icons('rival.com')[0], icon_urls: icons('rival.com') },
        { competitor_id: X, name: 'Other', mention_count: 3, icon_url: icons('other.io')[0], icon_urls: icons('other.io') },
      ],
    });
  });

  it('windows read as whole weeks and months, added and subtracted, give the figures of their days', async () => {
    // 2025-02-24 (Mon) .. 2025-03-04 (Tue): the week of 02-24 from prompt_weekly, 03-03 and 03-04 daily.
    // P1: 45.45, 63, 1.8, cvr 18.18 (as in the prompts list);
    //     Rival PB 1 + PC 1 + A1 1 + A2 3 + A3 1 + A7 1 + A8 2 = 10, Other A5 2 + A7 1 = 3.
    // P2: 83.33, 61, 1.2, cvr 33.33; Rival B1 2 + B2 1 + B3 1 = 4.
    // 02-01 .. 03-04 holds the same answers (none before 02-26): February from prompt_monthly.
    for (const window of ['date_from=2025-02-24&date_to=2025-03-04', 'date_from=2025-02-01&date_to=2025-03-04']) {
      const d = await get('/overview', window);
      expect(d.items.map(pick)).toEqual([
        { prompt_id: P1, visibility: 45.45, sentiment: 63, position: 1.8, cvr: 18.18, volume: null, competitors_mentioned: [['Rival', 10], ['Other', 3]] },
        { prompt_id: P2, visibility: 83.33, sentiment: 61, position: 1.2, cvr: 33.33, volume: null, competitors_mentioned: [['Rival', 4]] },
        { prompt_id: P4, visibility: 0, sentiment: 0, position: 0, cvr: null, volume: null, competitors_mentioned: [] },
      ]);
    }
    // 03-02 .. 03-31 is read as March less 03-01 (D1), whose answers must drop out:
    // P1: A4 y(1,90) own, A5 n, A6 n, A7 y(3,45), A8 n -> 40, 67.5, 2, cvr 20;
    //     Rival A7 1 + A8 2 = 3, Other A5 2 + A7 1 = 3 (same count: by name).
    // P2: B2 n, B3 y(2,50), B4 y(1,35) own -> 66.67, 42.5, 1.5, cvr 33.33; Rival B2 1 + B3 1 = 2.
    const march = await get('/overview', 'date_from=2025-03-02&date_to=2025-03-31');
    expect(march.items.map(pick)).toEqual([
      { prompt_id: P1, visibility: 40, sentiment: 67.5, position: 2, cvr: 20, volume: null, competitors_mentioned: [['Other', 3], ['Rival', 3]] },
      { prompt_id: P2, visibility: 66.67, sentiment: 42.5, position: 1.5, cvr: 33.33, volume: null, competitors_mentioned: [['Rival', 2]] },
      { prompt_id: P4, visibility: 0, sentiment: 0, position: 0, cvr: null, volume: null, competitors_mentioned: [] },
    ]);
    // the week's '*' rows agree with the sum of its per-provider rows
    const week = await get('/overview', 'date_from=2025-02-24&date_to=2025-03-02');
    const days = await get('/overview', 'date_from=2025-02-24&date_to=2025-03-02&providers=chatgpt,perplexity,google_ai_overview,gemini,claude');
    expect(week.items.map(pick)).toEqual(days.items.map(pick));
  });

  it('prompt_type=suggested: the suggested prompts only', async () => {
    // P3: S1 -> 100, 60, 1, cvr 0; Other named once
    const d = await get('/overview', `${W}&prompt_type=suggested`);
    expect(d.items.map(pick)).toEqual([
      { prompt_id: P3, visibility: 100, sentiment: 60, position: 1, cvr: 0, volume: null, competitors_mentioned: [['Other', 1]] },
    ]);
    expect(d.items[0].prompt_type).toBe('suggested');
  });

  it('providers=perplexity', async () => {
    // P1: A2 n, A5 n, A7 y(3,45) -> 33.33, 45, 3, cvr 0; Rival A2 3 + A7 1 = 4, Other A5 2 + A7 1 = 3
    // P2: B4 y(1,35), cites acme.com -> 100, 35, 1, cvr 100
    const d = await get('/overview', `${W}&providers=perplexity`);
    expect(d.items.map(pick)).toEqual([
      { prompt_id: P1, visibility: 33.33, sentiment: 45, position: 3, cvr: 0, volume: null, competitors_mentioned: [['Rival', 4], ['Other', 3]] },
      { prompt_id: P2, visibility: 100, sentiment: 35, position: 1, cvr: 100, volume: null, competitors_mentioned: [] },
      { prompt_id: P4, visibility: 0, sentiment: 0, position: 0, cvr: null, volume: null, competitors_mentioned: [] },
    ]);
  });

  it('competitors with as many mentions are sorted by name', async () => {
    // D4 perplexity: A7 names Rival once and Other once
    const d = await get('/overview', `date_from=${D4}&date_to=${D4}&providers=perplexity`);
    expect(pick(d.items[0]).competitors_mentioned).toEqual([['Other', 1], ['Rival', 1]]);
  });

  it.each(['pending', 'inactive', 'Active', 'ACTIVE', '', 'all'])("prompt_type=%s is a 400", async (v) => {
    const res = await f.api.get(url('/overview', `${W}&prompt_type=${v}`));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(errorBody("prompt_type must be 'active' or 'suggested'"));
  });
});

// ---------------------------------------------------------------------------------------
describe('GET /visibility: daily series aligned to the window', () => {
  // A day's value follows the one definition of docs/analytics.md over all responses of that day
  // (all providers and prompts): "averaged" across providers means averaged over their
  // responses. Example, Acme on D2: chatgpt A4 y, B2 n, S1 y; google B3 y; perplexity A5 n
  // -> 3/5 = 60 (the mean of the per-provider percentages, (66.67+100+0)/3 = 55.56, would
  // weigh B3 alone as much as three chatgpt answers).
  //
  // Responses per day: D1 A1 A2 A3 B1 = 4; D2 A4 A5 B2 B3 S1 = 5; D3 none; D4 A6 A7 A8 B4 = 4.
  // Acme:  D1 A1(1,80) A3(2,60) B1(1,70) -> 75, 1.33, 70; D2 A4(1,90) B3(2,50) S1(1,60) -> 60, 1.33, 66.67;
  //        D4 A7(3,45) B4(1,35) -> 50, 2, 40
  // Rival: D1 A1(2,40) A2(1,70) A3(1,50) B1(2,55) -> 100, 1.5, 53.75; D2 B2(1,60) B3(1,50) -> 40, 1, 55;
  //        D4 A7(1,50) A8(1,65) -> 50, 1, 57.5
  // Other: D1 none of 4 -> 0, -, -; D2 A5(1,30) S1(2,40) -> 40, 1.5, 35; D4 A7(2,50) -> 25, 2, 50
  // Ghost: 0 on every day with responses
  // D3: null everywhere (no response that day), never 0.
  const N = null;

  const EXT = ['responses', 'visibility_ci', 'position_ci', 'sentiment_ci'];
  const base = (x: any) => Object.fromEntries(Object.entries(x).filter(([k]) => !EXT.includes(k)));
  const ext = (x: any) => [x.name, x.responses, x.visibility_ci, x.position_ci, x.sentiment_ci];

  it('all providers', async () => {
    const d = await get('/visibility');
    expect(d.dates).toEqual(DAYS);
    expect(d.period).toBe(PERIOD);
    // Extension fields: the day's responses, and per day the Wilson interval of visibility and
    // the t intervals of the means (R 4.2.2 values as in the prompts tests, cut to the scale):
    // e.g. Acme D4 positions 3 1 -> t -10.71 .. 14.71 -> 1 .. 14.71; sentiments 45 35 -> 0 .. 100.
    const R4 = [4, 5, 0, 4];
    expect(d.series.map(ext)).toEqual([
      ['Acme', R4, [[30.06, 95.44], [23.07, 88.24], N, [15, 85]], [[1, 2.77], [1, 2.77], N, [1, 14.71]], [[45.16, 94.84], [14.96, 100], N, [0, 100]]],
      ['Rival', R4, [[51.01, 100], [11.76, 76.93], N, [15, 85]], [[1, 2.42], [1, 1], N, [1, 1]], [[33.86, 73.64], [0, 100], N, [0, 100]]],
      ['Other', R4, [[0, 48.99], [11.76, 76.93], N, [4.56, 69.94]], [N, [1, 7.85], N, N], [N, [0, 98.53], N, N]],
      ['Ghost', R4, [[0, 48.99], [0, 43.45], N, [0, 48.99]], [N, N, N, N], [N, N, N, N]],
    ]);
    expect(d.series.map(base)).toEqual([
      { competitor_id: ZERO_UUID, name: 'Acme', website: 'https://acme.com', icon_url: icons('acme.com')[0], is_own_brand: true, visibility: [75, 60, N, 50], position: [1.33, 1.33, N, 2], sentiment: [70, 66.67, N, 40] },
      { competitor_id: R, name: 'Rival', website: 'https://rival.com', icon_url: icons('rival.com')[0], is_own_brand: false, visibility: [100, 40, N, 50], position: [1.5, 1, N, 1], sentiment: [53.75, 55, N, 57.5] },
      { competitor_id: X, name: 'Other', website: 'https://other.io', icon_url: icons('other.io')[0], is_own_brand: false, visibility: [0, 40, N, 25], position: [N, 1.5, N, 2], sentiment: [N, 35, N, 50] },
      { competitor_id: G, name: 'Ghost', website: 'https://ghost.dev', icon_url: icons('ghost.dev')[0], is_own_brand: false, visibility: [0, 0, N, 0], position: [N, N, N, N], sentiment: [N, N, N, N] },
    ]);
  });

  it('providers=chatgpt filters the rollup-based series too', async () => {
    // responses: D1 A1 B1 = 2; D2 A4 B2 S1 = 3; D4 A6 = 1
    // Acme:  D1 A1(1,80) B1(1,70) -> 100, 1, 75; D2 A4(1,90) S1(1,60) -> 66.67, 1, 75; D4 none of 1 -> 0
    // Rival: D1 A1(2,40) B1(2,55) -> 100, 2, 47.5; D2 B2(1,60) -> 33.33, 1, 60; D4 0
    // Other: D1 0; D2 S1(2,40) -> 33.33, 2, 40; D4 0
    const d = await get('/visibility', `${W}&providers=chatgpt`);
    expect(d.series.map((s: any) => [s.name, s.visibility, s.position, s.sentiment])).toEqual([
      ['Acme', [100, 66.67, N, 0], [1, 1, N, N], [75, 75, N, N]],
      ['Rival', [100, 33.33, N, 0], [2, 1, N, N], [47.5, 60, N, N]],
      ['Other', [0, 33.33, N, 0], [N, 2, N, N], [N, 40, N, N]],
      ['Ghost', [0, 0, N, 0], [N, N, N, N], [N, N, N, N]],
    ]);
  });

  it('a window ending after the data: the days without data are null', async () => {
    const d = await get('/visibility', `date_from=${D4}&date_to=2025-03-06`);
    expect(d.dates).toEqual([D4, '2025-03-05', '2025-03-06']);
    expect(d.series[0].visibility).toEqual([50, N, N]);
    expect(d.series[3].visibility).toEqual([0, N, N]);
  });
});

// ---------------------------------------------------------------------------------------
describe('GET /sources and /sources/analytics', () => {
  // Citations in W per domain (all providers):
  //   acme.com       A1 1, A4 2, B1 1, B4 1 = 5   corporate (0)  all in answers naming Acme
  //   reddit.com     A2, A5, A6, A8      = 4      ugc (4)        none names Acme -> opportunity (4 >= 3)
  //   rival.com      A2, B1, B2          = 3      corporate (0)  A2, B2 do not name Acme: 2 < 3, no opportunity
  //   techcrunch.com A5, A8              = 2      editorial (1)  both do not name Acme: exactly 2, no opportunity
  //   wikipedia.org  A1, A3              = 2      reference (3)
  //   g2.com         A7                  = 1      other (5)
  //   nist.gov       B4                  = 1      institutional (2)
  //   total 18 citations, 7 domains
  const src = (domain: string, category: number, reference_count: number) => ({ source_id: sourceId(domain), domain, category, reference_count });
  const ALL_SOURCES = [
    src('acme.com', 0, 5),
    src('reddit.com', 4, 4),
    src('rival.com', 0, 3),
    src('techcrunch.com', 1, 2),
    src('wikipedia.org', 3, 2),
    src('g2.com', 5, 1),
    src('nist.gov', 2, 1),
  ];

  it('sources: by reference_count, ties by domain; pages until an empty page', async () => {
    expect(await get('/sources')).toEqual(ALL_SOURCES);
    expect(await get('/sources', `${W}&page=1&page_size=3`)).toEqual(ALL_SOURCES.slice(0, 3));
    expect(await get('/sources', `${W}&page=2&page_size=3`)).toEqual(ALL_SOURCES.slice(3, 6));
    expect(await get('/sources', `${W}&page=3&page_size=3`)).toEqual(ALL_SOURCES.slice(6));
    expect(await get('/sources', `${W}&page=4&page_size=3`)).toEqual([]);
    expect(await get('/sources', `${W}&page=2`)).toEqual([]);
    expect(await get('/sources', `${W}&page_size=1`)).toEqual(ALL_SOURCES.slice(0, 1));
    expect(await get('/sources', `${W}&page_size=100`)).toEqual(ALL_SOURCES);
    for (const s of ALL_SOURCES) expect(s.source_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it.each(['page_size=0', 'page_size=101', 'page_size=-1', 'page_size=x', 'page=0', 'page=-2', 'page=1.5'])('sources %s is a 400', async (q) => {
    const res = await f.api.get(url('/sources', `${W}&${q}`));
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/^page(_size)? must be an integer/);
  });

  it('sources, providers=chatgpt: A1 acme wikipedia, A4 acme x2, A6 reddit, B1 acme rival, B2 rival', async () => {
    expect(await get('/sources', `${W}&providers=chatgpt`)).toEqual([src('acme.com', 0, 4), src('rival.com', 0, 2), src('reddit.com', 4, 1), src('wikipedia.org', 3, 1)]);
  });

  it('analytics: stats, categories, daily shares, top domains, opportunities', async () => {
    // categories of 18: corporate acme 5 + rival 3 = 8 -> 44.44; editorial 2 -> 11.11; institutional 1 -> 5.56;
    //   reference 2 -> 11.11; ugc 4 -> 22.22; other 1 -> 5.56
    // citations per day: D1 A1 2 + A2 2 + A3 1 + B1 2 = 7; D2 A4 2 + A5 2 + B2 1 = 5; D3 0; D4 A6 1 + A7 1 + A8 2 + B4 2 = 6
    //   acme       D1 A1 B1 2/7 = 28.57; D2 A4 2/5 = 40; D4 B4 1/6 = 16.67
    //   reddit     D1 A2 1/7 = 14.29;    D2 A5 1/5 = 20; D4 A6 A8 2/6 = 33.33
    //   rival      D1 A2 B1 2/7 = 28.57; D2 B2 1/5 = 20; D4 0
    //   techcrunch D1 0;                 D2 A5 1/5 = 20; D4 A8 1/6 = 16.67
    //   wikipedia  D1 A1 A3 2/7 = 28.57; D2 0;           D4 0
    //   g2         0; 0; D4 1/6 = 16.67.  nist 0; 0; D4 1/6 = 16.67
    //   D3: no citation that day -> null for every domain (never 0)
    const d = await get('/sources/analytics');
    const N = null;
    expect(d).toEqual({
      stats: { total_sources: 7, total_citations: 18 },
      category_breakdown: { corporate: 44.44, editorial: 11.11, institutional: 5.56, reference: 11.11, ugc: 22.22, other: 5.56 },
      performance_chart: {
        dates: DAYS,
        series: [
          { domain: 'acme.com', values: [28.57, 40, N, 16.67] },
          { domain: 'reddit.com', values: [14.29, 20, N, 33.33] },
          { domain: 'rival.com', values: [28.57, 20, N, 0] },
          { domain: 'techcrunch.com', values: [0, 20, N, 16.67] },
          { domain: 'wikipedia.org', values: [28.57, 0, N, 0] },
          { domain: 'g2.com', values: [0, 0, N, 16.67] },
          { domain: 'nist.gov', values: [0, 0, N, 16.67] },
        ],
      },
      top_domains: ALL_SOURCES,
      opportunities: [{ domain: 'reddit.com', citation_count: 4, category: 4, category_name: 'ugc' }],
    });
    const sum = Object.values(d.category_breakdown as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(100, 5);
  });

  it('analytics, providers=perplexity: the filter reaches every part, the opportunity included', async () => {
    // perplexity: A2 reddit rival; A5 reddit techcrunch; A7 g2; B4 nist acme -> 7 citations, 6 domains
    // reddit.com is cited twice there (A2, A5): under 3, no opportunity.
    // categories of 7: corporate (rival, acme) 2 -> 28.57; editorial 1 -> 14.29; institutional 1 -> 14.29;
    //   reference 0; ugc 2 -> 28.57; other 1 -> 14.29. Each is its own share rounded to 2 decimals, so
    //   they add up to 100.01 here (never more than 0.03 away from 100).
    // per day: D1 A2 2; D2 A5 2; D3 0; D4 A7 1 + B4 2 = 3
    const d = await get('/sources/analytics', `${W}&providers=perplexity`);
    const N = null;
    expect(d.stats).toEqual({ total_sources: 6, total_citations: 7 });
    expect(d.category_breakdown).toEqual({ corporate: 28.57, editorial: 14.29, institutional: 14.29, reference: 0, ugc: 28.57, other: 14.29 });
    const sum = Object.values(d.category_breakdown as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(Math.abs(sum - 100)).toBeLessThanOrEqual(0.03 + 1e-9);
    expect(d.performance_chart).toEqual({
      dates: DAYS,
      series: [
        { domain: 'reddit.com', values: [50, 50, N, 0] },
        { domain: 'acme.com', values: [0, 0, N, 33.33] },
        { domain: 'g2.com', values: [0, 0, N, 33.33] },
        { domain: 'nist.gov', values: [0, 0, N, 33.33] },
        { domain: 'rival.com', values: [50, 0, N, 0] },
        { domain: 'techcrunch.com', values: [0, 50, N, 0] },
      ],
    });
    expect(d.top_domains).toEqual([src('reddit.com', 4, 2), src('acme.com', 0, 1), src('g2.com', 5, 1), src('nist.gov', 2, 1), src('rival.com', 0, 1), src('techcrunch.com', 1, 1)]);
    expect(d.opportunities).toEqual([]);
  });

  it('analytics for a window without citations: zeros, null shares, no series', async () => {
    const d = await get('/sources/analytics', `date_from=${D3}&date_to=${D3}`);
    expect(d).toEqual({
      stats: { total_sources: 0, total_citations: 0 },
      category_breakdown: { corporate: 0, editorial: 0, institutional: 0, reference: 0, ugc: 0, other: 0 },
      performance_chart: { dates: [D3], series: [] },
      top_domains: [],
      opportunities: [],
    });
    expect(await get('/sources', `date_from=${D3}&date_to=${D3}`)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------
describe('the same metric agrees across endpoints', () => {
  const QUERIES = [W, `${W}&providers=chatgpt`, `${W}&providers=perplexity,google_ai_overview`, `date_from=${D2}&date_to=${D4}`];

  it.each(QUERIES)('prompt list = prompt get = overview = prompt analytics = chats (%s)', async (q) => {
    const prompts = (await get('/prompts', q)).prompts;
    const overview = [...(await get('/overview', q)).items, ...(await get('/overview', `${q}&prompt_type=suggested`)).items];
    for (const p of prompts) {
      expect(await get(`/prompts/${p.id}`, q)).toEqual(p);
      const o = overview.find((i: any) => i.prompt_id === p.id);
      expect(o).toBeDefined();
      expect(o.visibility).toBe(p.visibility ?? 0);
      expect(o.position).toBe(p.position ?? 0);
      expect(o.cvr).toBe(p.cvr);
      expect(Math.round(o.sentiment)).toBe(p.sentiment ?? 0);
      const a = await get(`/prompts/${p.id}/analytics`, q);
      expect(a.volume).toBe(p.volume);
      expect(a.sentiment).toBe(p.sentiment);
      const chats = (await get(`/prompts/${p.id}/chats`, `${q}&page_size=100`)).items;
      expect(chats).toHaveLength(p.volume);
      const mentioned = chats.filter((c: any) => c.mentioned);
      expect(p.visibility).toBe(chats.length ? metrics.visibility({ responses: chats.length, mentioned: mentioned.length }) : null);
      const citesOwn = chats.filter((c: any) => c.references.some((r: any) => new URL(r.link).hostname === 'acme.com')).length;
      expect(p.cvr).toBe(chats.length ? metrics.cvr({ responses: chats.length, citesOwn }) : null);
      // each chart point is the visibility of the provider's chats that day
      for (const [day, points] of Object.entries(a.visibility_chart as Record<string, Array<{ provider: string; value: number }>>)) {
        const ofDay = chats.filter((c: any) => c.date.startsWith(day));
        expect(points.map((x) => x.provider).sort()).toEqual(ofDay.map((c: any) => c.platform).sort());
        for (const x of points) expect(x.value).toBe(ofDay.find((c: any) => c.platform === x.provider).mentioned ? 100 : 0);
      }
    }
  });

  it.each(QUERIES)('competitors = prompt volumes and overview mentions = visibility series (%s)', async (q) => {
    const prompts = (await get('/prompts', q)).prompts;
    const responses = prompts.reduce((s: number, p: any) => s + p.volume, 0);
    const mentioned = prompts.reduce((s: number, p: any) => s + (p.visibility === null ? 0 : Math.round((p.visibility * p.volume) / 100)), 0);
    const comps = (await get('/competitors', q)).active_competitors;
    const own = comps.find((c: any) => c.is_own_brand);
    expect(own.metrics.visibility).toBe(metrics.visibility({ responses, mentioned }) ?? 0);
    // competitors' mention counts = the sum of the overview's competitors_mentioned over both prompt types
    const overview = [...(await get('/overview', q)).items, ...(await get('/overview', `${q}&prompt_type=suggested`)).items];
    for (const c of comps.filter((x: any) => !x.is_own_brand)) {
      const sum = overview.flatMap((i: any) => i.competitors_mentioned).filter((m: any) => m.competitor_id === c.competitor_id).reduce((s: number, m: any) => s + m.mention_count, 0);
      expect(c.metrics.mention_count).toBe(sum);
    }
    // the daily series: each day's own-brand visibility = that day's chats naming Acme / that day's chats
    const series = await get('/visibility', q);
    const allChats = (await Promise.all(prompts.map((p: any) => get(`/prompts/${p.id}/chats`, `${q}&page_size=100`)))).flatMap((d: any) => d.items);
    series.dates.forEach((day: string, i: number) => {
      const ofDay = allChats.filter((c: any) => c.date.startsWith(day));
      const expected = ofDay.length ? metrics.visibility({ responses: ofDay.length, mentioned: ofDay.filter((c: any) => c.mentioned).length }) : null;
      expect(series.series[0].visibility[i]).toBe(expected);
      // and each brand's days_with_data = the days its series has a position
      // (a position exists exactly on the days the brand is named)
    });
    for (const [k, c] of comps.entries()) {
      expect(c.metrics.days_with_data).toBe(series.series[k].position.filter((x: number | null) => x !== null).length);
      expect(series.series[k].competitor_id).toBe(c.competitor_id);
    }
  });

  it.each(QUERIES)('sources = top domains = per-prompt domains = per-prompt URLs (%s)', async (q) => {
    const list = await get('/sources', `${q}&page_size=100`);
    const analytics = await get('/sources/analytics', q);
    const total = list.reduce((s: number, x: any) => s + x.reference_count, 0);
    expect(analytics.stats).toEqual({ total_sources: list.length, total_citations: total });
    expect(analytics.top_domains).toEqual(list.slice(0, 20));
    const prompts = (await get('/prompts', q)).prompts;
    const byDomain = new Map<string, number>();
    for (const p of prompts) {
      const domains = (await get(`/prompts/${p.id}/domains`, q)).items;
      const urls = (await get(`/prompts/${p.id}/urls`, q)).items;
      for (const d of domains) {
        byDomain.set(d.domain, (byDomain.get(d.domain) ?? 0) + d.citation_count);
        const ofDomain = urls.filter((u: any) => u.domain === d.domain).reduce((s: number, u: any) => s + u.mentioned_count, 0);
        expect(ofDomain).toBe(d.citation_count);
      }
    }
    expect(Object.fromEntries([...byDomain].sort())).toEqual(Object.fromEntries(list.map((x: any) => [x.domain, x.reference_count]).sort()));
    for (const o of analytics.opportunities) {
      expect(o.citation_count).toBeGreaterThanOrEqual(3);
      expect(o.citation_count).toBeLessThanOrEqual(list.find((x: any) => x.domain === o.domain).reference_count);
    }
  });
});

// ---------------------------------------------------------------------------------------
describe('an empty project: every endpoint answers 200 with empty, zero or null shapes', () => {
  const today = () => utcDay();

  it('before any prompt and after one prompt without answers', async () => {
    const e = await fixtureProject(t, { brand: 'Emptyco', url: 'https://emptyco.com', prompts: [] });
    const g = (path: string, q = '') => data(e.api, `/projects/${e.projectId}${path}${q ? `?${q}` : ''}`);
    const day0 = today();
    const period = (await g('/visibility')).period;
    if (today() !== day0) return; // midnight passed between the calls: nothing meaningful to check
    const dates = Array.from({ length: 7 }, (_, i) => new Date(Date.parse(`${day0}T00:00:00Z`) - (6 - i) * 86_400_000).toISOString().slice(0, 10));
    expect(period).toBe(`${dates[0]} to ${day0}`);

    expect(await g('/prompts')).toEqual({ project_id: e.projectId, total: 0, prompts: [] });
    expect(await g('/overview')).toEqual({ items: [] });
    expect(await g('/overview', 'prompt_type=suggested')).toEqual({ items: [] });
    const own = { competitor_id: ZERO_UUID, name: 'Emptyco', website: 'https://emptyco.com', icon_url: icons('emptyco.com')[0], is_own_brand: true };
    expect(await g('/visibility')).toEqual({
      dates,
      period,
      series: [
        {
          ...own,
          visibility: dates.map(() => null),
          sentiment: dates.map(() => null),
          position: dates.map(() => null),
          responses: dates.map(() => 0),
          visibility_ci: dates.map(() => null),
          position_ci: dates.map(() => null),
          sentiment_ci: dates.map(() => null),
        },
      ],
    });
    const comps = await g('/competitors');
    expect(comps.total_active).toBe(1);
    expect(comps.active_competitors[0]).toEqual({
      ...own,
      project_id: e.projectId,
      icon_urls: icons('emptyco.com'),
      state: 'active',
      aliases: [],
      metrics: { visibility: 0, sentiment: null, position: null, mention_count: 0, days_with_data: 0, period, responses: 0, visibility_ci: null, position_ci: null, sentiment_ci: null, share_of_voice: 0, share_of_voice_ci: null },
    });
    expect(await g('/sources')).toEqual([]);
    expect(await g('/sources/analytics')).toEqual({
      stats: { total_sources: 0, total_citations: 0 },
      category_breakdown: { corporate: 0, editorial: 0, institutional: 0, reference: 0, ugc: 0, other: 0 },
      performance_chart: { dates, series: [] },
      top_domains: [],
      opportunities: [],
    });

    // one prompt, never answered
    const res = await e.api.post(`/projects/${e.projectId}/prompts`, { prompts: ['Is Emptyco any good?'], topicId: e.topicId });
    expect(res.statusCode).toBe(200);
    const pid = res.json().data.prompts[0].id;
    const noData = { visibility: null, sentiment: null, position: null, volume: 0, cvr: null, trend: null, responses: 0, visibility_ci: null, position_ci: null, sentiment_ci: null };
    const list = await g('/prompts');
    expect(list.total).toBe(1);
    expect(list.prompts[0]).toMatchObject({ id: pid, ...noData });
    expect(await g(`/prompts/${pid}`)).toMatchObject(noData);
    const emptyChart = Object.fromEntries(dates.map((d) => [d, []]));
    expect(await g(`/prompts/${pid}/analytics`)).toEqual({
      prompt_id: pid,
      prompt_content: 'Is Emptyco any good?',
      volume: 0,
      sentiment: null,
      sentiment_ci: null,
      visibility_chart: emptyChart,
      position_chart: emptyChart,
      sentiment_chart: emptyChart,
    });
    expect(await g(`/prompts/${pid}/chats`)).toEqual({ items: [] });
    expect(await g(`/prompts/${pid}/domains`)).toEqual({ items: [] });
    expect(await g(`/prompts/${pid}/urls`)).toEqual({ items: [] });
    const ov = await g('/overview');
    expect(ov.items).toHaveLength(1);
    expect(ov.items[0]).toMatchObject({ prompt_id: pid, visibility: 0, sentiment: 0, position: 0, volume: null, cvr: null, competitors_mentioned: [], responses: 0, visibility_ci: null, position_ci: null, sentiment_ci: null });
    expect((await g('/visibility')).series[0].visibility).toEqual(dates.map(() => null));
  });
});

// ---------------------------------------------------------------------------------------
describe('the common window parameters', () => {
  const endpoints = () => [
    '/prompts',
    `/prompts/${P1}`,
    `/prompts/${P1}/analytics`,
    `/prompts/${P1}/chats`,
    `/prompts/${P1}/domains`,
    `/prompts/${P1}/urls`,
    '/competitors',
    '/overview',
    '/visibility',
    '/sources',
    '/sources/analytics',
  ];

  const BAD: Array<[string, RegExp]> = [
    ['date_from=2025-3-01', /^date_from must be a date in the form YYYY-MM-DD$/],
    ['date_from=03/01/2025', /^date_from must be a date in the form YYYY-MM-DD$/],
    ['date_from=yesterday', /^date_from must be a date in the form YYYY-MM-DD$/],
    ['date_to=2025-02-30', /^date_to must be a valid calendar date/],
    ['date_to=2025-13-01', /^date_to must be a valid calendar date/],
    ['date_to=2025-03-01T00:00:00Z', /^date_to must be a date in the form YYYY-MM-DD$/],
    ['date_from=', /^date_from must be a date/],
    [`date_from=${D4}&date_to=${D1}`, /^date_from must not be after date_to$/],
    ['duration_days=0', /^duration_days must be an integer from 1 to 365$/],
    ['duration_days=366', /^duration_days must be an integer from 1 to 365$/],
    ['duration_days=-7', /^duration_days must be an integer from 1 to 365$/],
    ['duration_days=1.5', /^duration_days must be an integer from 1 to 365$/],
    ['duration_days=week', /^duration_days must be an integer from 1 to 365$/],
    // out of range even when date_from/date_to override it
    [`duration_days=0&${W}`, /^duration_days must be an integer from 1 to 365$/],
    ['providers=bing', /^Unknown provider: bing\b/],
    ['providers=chatgpt,openai', /^Unknown provider: openai\b/],
    ['providers=', /^providers must name at least one provider$/],
    ['date_from=2024-01-01&date_to=2025-01-01', /at most 366 days/],
  ];

  it('every malformed window is a 400 with a detail, on every endpoint that takes window parameters', async () => {
    for (const path of endpoints()) {
      for (const [q, detail] of BAD) {
        const res = await f.api.get(url(path, q));
        expect(res.statusCode, `${path}?${q}`).toBe(400);
        expect(res.json().detail, `${path}?${q}`).toMatch(detail);
      }
    }
  });

  it('the extremes of the valid range answer 200 on every endpoint', async () => {
    const OK = ['duration_days=1', 'duration_days=365', 'date_from=2024-01-01&date_to=2024-12-31', `date_from=${D1}&date_to=${D1}`, 'providers=ChatGPT,%20perplexity', `date_to=${D4}`];
    for (const path of endpoints()) {
      for (const q of OK) {
        const res = await f.api.get(url(path, q));
        expect(res.statusCode, `${path}?${q}`).toBe(200);
      }
    }
  });

  it('date_from/date_to override duration_days; date_to alone ends a duration_days window; all UTC days', async () => {
    expect((await get('/visibility', `${W}&duration_days=30`)).dates).toEqual(DAYS);
    expect((await get('/visibility', `date_to=${D4}&duration_days=2`)).dates).toEqual([D3, D4]);
    // the default duration is 7 days
    const d = await get('/visibility', `date_to=${D4}`);
    expect(d.dates).toEqual(['2025-02-26', '2025-02-27', '2025-02-28', D1, D2, D3, D4]);
    expect(d.period).toBe(`2025-02-26 to ${D4}`);
    // a window across a month end and a leap day
    expect((await get('/visibility', 'date_from=2024-02-28&date_to=2024-03-01')).dates).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
  });

  it('the default window ends today (UTC); date_from alone runs to today', async () => {
    const day0 = utcDay();
    const d = await get('/visibility', '');
    const d3 = await get('/visibility', 'duration_days=3');
    const yesterday = new Date(Date.parse(`${day0}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const fromYesterday = await get('/visibility', `date_from=${yesterday}`);
    if (utcDay() !== day0) return; // midnight UTC passed during the test
    expect(d.dates).toHaveLength(7);
    expect(d.dates[6]).toBe(day0);
    expect(d3.dates).toHaveLength(3);
    expect(d3.dates[2]).toBe(day0);
    expect(fromYesterday.dates).toEqual([yesterday, day0]);
  });

  it('an answer stored for today (UTC) is in the default window of every endpoint', async () => {
    const p = await fixtureProject(t, { brand: 'Nowco', url: 'https://nowco.io', prompts: ['Is Nowco good today?'] });
    const day0 = utcDay();
    await storeSpecs(t, p.projectId, [{ prompt: p.promptIds[0], provider: 'claude', day: day0, named: { [OWN]: [1, 1, 75] }, cites: [{ url: 'https://nowco.io/', domain: 'nowco.io', category: 0, urlType: 0 }] }], 'nowco.io');
    const g = (path: string) => data(p.api, `/projects/${p.projectId}${path}`);
    if (utcDay() !== day0) return;
    expect((await g('/prompts')).prompts[0]).toMatchObject({ visibility: 100, sentiment: 75, position: 1, volume: 1, cvr: 100, trend: null });
    const v = await g('/visibility');
    expect(v.series[0].visibility).toEqual([null, null, null, null, null, null, 100]);
    const a = await g(`/prompts/${p.promptIds[0]}/analytics`);
    expect(a.visibility_chart[day0]).toEqual([{ provider: 'claude', value: 100, n: 1, ci: [20.65, 100] }]);
    const chats = (await g(`/prompts/${p.promptIds[0]}/chats`)).items;
    expect(chats).toHaveLength(1);
    // collected today: the chat keeps its collection time, a UTC timestamp on its day
    expect(chats[0].date.slice(0, 10)).toBe(day0);
    expect(chats[0].date).toMatch(/Z$/);
    expect((await g('/sources/analytics')).performance_chart.series).toEqual([{ domain: 'nowco.io', values: [null, null, null, null, null, null, 100] }]);
    expect((await g('/competitors')).active_competitors[0].metrics).toMatchObject({ visibility: 100, days_with_data: 1 });
    // yesterday's window does not contain it
    const yesterday = new Date(Date.parse(`${day0}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect((await data(p.api, `/projects/${p.projectId}/prompts?date_from=${yesterday}&date_to=${yesterday}`)).prompts[0].volume).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------
describe('window and metric definitions (unit)', () => {
  it('resolveWindow: default 7 days ending today, the window before, the period', () => {
    expect(resolveWindow({}, '2025-03-10')).toEqual({
      from: '2025-03-04',
      to: '2025-03-10',
      days: 7,
      prevFrom: '2025-02-25',
      prevTo: '2025-03-03',
      providers: null,
      market: null,
      period: '2025-03-04 to 2025-03-10',
    });
    expect(resolveWindow({ market: ' de-DE ' }, '2025-03-10').market).toBe('DE-de');
    expect(() => resolveWindow({ market: 'Germany' }, '2025-03-10')).toThrow('market must be a country code and a language code, such as US-en');
    expect(resolveWindow({ duration_days: 1 }, '2025-03-10')).toMatchObject({ from: '2025-03-10', to: '2025-03-10', days: 1, prevFrom: '2025-03-09', prevTo: '2025-03-09' });
    expect(resolveWindow({ date_from: '2025-02-27', date_to: '2025-03-01', duration_days: 30 }, '2025-06-01')).toMatchObject({ from: '2025-02-27', to: '2025-03-01', days: 3, prevFrom: '2025-02-24', prevTo: '2025-02-26' });
    expect(resolveWindow({ date_from: '2025-03-08' }, '2025-03-10')).toMatchObject({ from: '2025-03-08', to: '2025-03-10', days: 3 });
    expect(resolveWindow({ providers: ' ChatGPT ,perplexity,chatgpt' }, '2025-03-10').providers).toEqual(['chatgpt', 'perplexity']);
  });

  it('trend: up or down only when the windows differ at the 95% level (z-test); null unless both have responses', () => {
    const w = (mentioned: number, responses: number) => ({ mentioned, responses });
    // R: prop.test(c(52, 38), c(100, 100), correct = FALSE) gives p = 0.0466; with 51, p = 0.0644
    expect(metrics.trend(w(52, 100), w(38, 100))).toBe('up');
    expect(metrics.trend(w(51, 100), w(38, 100))).toBe('stable'); // 13 points, the old rule said up
    expect(metrics.trend(w(38, 100), w(52, 100))).toBe('down');
    expect(metrics.trend(w(38, 100), w(51, 100))).toBe('stable');
    expect(metrics.trend(w(5000, 10000), w(4700, 10000))).toBe('up'); // 3 points, the old rule said stable
    expect(metrics.trend(w(0, 5), w(0, 7))).toBe('stable');
    expect(metrics.trend(w(0, 0), w(3, 10))).toBeNull();
    expect(metrics.trend(w(3, 10), w(0, 0))).toBeNull();
  });

  it('the figures are null without their base, and rounded to 2 decimals', () => {
    expect(metrics.visibility({ responses: 0, mentioned: 0 })).toBeNull();
    expect(metrics.visibility({ responses: 3, mentioned: 1 })).toBe(33.33);
    expect(metrics.position({ mentioned: 0, positionSum: 0 })).toBeNull();
    expect(metrics.sentiment({ mentioned: 3, sentimentSum: 155 })).toBe(51.67);
    expect(metrics.sentimentInt({ mentioned: 2, sentimentSum: 105 })).toBe(53);
    expect(metrics.cvr({ responses: 0, citesOwn: 0 })).toBeNull();
    expect(metrics.share(0, 0)).toBe(0);
  });
});

describe('days_with_data over calendar buckets (project_weekly, project_monthly and edge days)', () => {
  // Window 2025-02-26 .. 2025-04-16: the days 02-26..28, the whole month of March, the days
  // 04-01..06, the whole week of Monday 04-07 and the days 04-14..16. Rival is named by
  // chatgpt and perplexity on the same day in each kind of bucket, so a day count summed
  // over providers would exceed the days on which either named it.
  const FROM = '2025-02-26';
  const TO = '2025-04-16';
  const named = (...providers: ProviderName[]) => providers;

  it('counts a day named by several providers once, in whole months, whole weeks and edge days, and after a prompt is deleted', async () => {
    const p = await fixtureProject(t, { brand: 'Bucketco', url: 'https://bucketco.io', prompts: ['Which CRM buckets best?', 'Which CRM buckets worst?'], competitors: [{ name: 'Rival', website: 'rival.com' }] });
    const R = p.competitorIds.Rival;
    const [P1, P2] = p.promptIds;
    const specs: AnswerSpec[] = [];
    const on = (prompt: string, day: string, providers: ProviderName[], who: Record<string, [number, number, number]>) => {
      for (const provider of providers) specs.push({ prompt, provider, day, named: who });
    };
    on(P1, '2025-02-25', named('chatgpt'), { [R]: [1, 1, 50] }); // before the window
    on(P1, '2025-02-27', named('chatgpt', 'perplexity'), { [R]: [1, 1, 50] }); // edge day
    on(P1, '2025-03-01', named('gemini'), { [OWN]: [1, 1, 60] }); // the month's first day (bit 0), own brand only
    on(P1, '2025-03-05', named('chatgpt', 'perplexity'), { [R]: [2, 2, 40], [OWN]: [1, 1, 70] }); // in the month
    on(P2, '2025-03-05', named('chatgpt'), { [R]: [1, 1, 60] }); // the same day, another prompt
    on(P1, '2025-03-06', named('chatgpt'), { [R]: [1, 1, 50] });
    on(P2, '2025-03-31', named('perplexity'), { [R]: [1, 3, 55] }); // the month's last day (bit 30), P2 only
    on(P1, '2025-04-08', named('chatgpt', 'perplexity'), { [R]: [1, 1, 50] }); // in the week
    on(P1, '2025-04-13', named('gemini'), { [R]: [1, 1, 50] }); // the week's Sunday (bit 6)
    on(P1, '2025-04-15', named('chatgpt', 'perplexity'), { [R]: [1, 1, 50], [OWN]: [2, 1, 50] }); // edge day
    on(P1, '2025-04-17', named('perplexity'), { [R]: [1, 1, 50] }); // after the window
    await storeSpecs(t, p.projectId, specs, 'bucketco.io');
    const g = async (q: string) => {
      const query = `date_from=${FROM}&date_to=${TO}${q}`;
      const comps = (await data(p.api, `/projects/${p.projectId}/competitors?${query}`)).active_competitors;
      const series = await data(p.api, `/projects/${p.projectId}/visibility?${query}`);
      // the days of each brand's series with a position: the days it was named, read day by day
      for (const [k, c] of comps.entries()) {
        expect(series.series[k].competitor_id).toBe(c.competitor_id);
        expect(c.metrics.days_with_data).toBe(series.series[k].position.filter((x: number | null) => x !== null).length);
      }
      const of = (id: string) => comps.find((c: any) => c.competitor_id === id).metrics;
      return { rival: of(R), own: of(ZERO_UUID) };
    };
    // chatgpt and perplexity: 02-27, 03-05, 03-06, 03-31, 04-08, 04-15 (summed per provider: 5 + 5 = 10)
    expect((await g('&providers=chatgpt,perplexity')).rival).toMatchObject({ days_with_data: 6, mention_count: 2 + 2 * 2 + 1 + 1 + 3 + 2 + 2 });
    expect((await g('&providers=chatgpt')).rival).toMatchObject({ days_with_data: 5, mention_count: 1 + 2 + 1 + 1 + 1 + 1 });
    expect((await g('&providers=perplexity')).rival).toMatchObject({ days_with_data: 5 });
    // every provider (the '*' rows): and the gemini Sunday of the week
    const all = await g('');
    expect(all.rival).toMatchObject({ days_with_data: 7, mention_count: 2 + 4 + 1 + 1 + 3 + 2 + 1 + 2 });
    expect(all.own).toMatchObject({ days_with_data: 3, mention_count: 1 + 2 + 2 });
    expect((await g('&providers=gemini,claude')).rival).toMatchObject({ days_with_data: 1 });
    // a window of whole buckets only: March (and the week of 04-07 without its edge days)
    expect((await data(p.api, `/projects/${p.projectId}/competitors?date_from=2025-03-01&date_to=2025-04-13&providers=chatgpt,perplexity`)).active_competitors[1].metrics).toMatchObject({ days_with_data: 4 });

    // P2 deleted: 03-31 was named by its answer only and leaves the month's days; 03-05 stays (P1)
    expect((await p.api.delete(`/projects/${p.projectId}/prompts/${P2}`)).statusCode).toBe(200);
    expect((await g('&providers=chatgpt,perplexity')).rival).toMatchObject({ days_with_data: 5, mention_count: 2 + 4 + 1 + 2 + 2 });
    expect((await g('')).rival).toMatchObject({ days_with_data: 6 });
    await expectConsistentRollups(t.runtime.ctx.store, p.projectId);
  });
});

describe('the routes serialized without zod (src/http/serializer.ts)', () => {
  // Each such route's body, as sent, must be zod's serialization of the same answer byte
  // for byte: the shape and the key order of the contract, nothing more (zod drops extra keys).
  const SCHEMAS: Record<string, import('zod').ZodType> = {
    '/v1/projects/:project_id': projectSchemas.ProjectEnvelope,
    '/v1/projects/:project_id/overview': schemas.Overview,
    '/v1/projects/:project_id/visibility': schemas.Visibility,
    '/v1/projects/:project_id/sources/analytics': sourceSchemas.SourcesAnalytics,
    '/v1/projects/:project_id/prompts': promptSchemas.PromptListEnvelope,
    '/v1/projects/:project_id/prompts/:prompt_id': promptSchemas.PromptEnvelope,
    '/v1/projects/:project_id/prompts/:prompt_id/analytics': schemas.PromptAnalytics,
    '/v1/projects/:project_id/prompts/:prompt_id/chats': schemas.Chats,
    '/v1/projects/:project_id/prompts/:prompt_id/domains': schemas.Domains,
    '/v1/projects/:project_id/prompts/:prompt_id/urls': schemas.Urls,
  };

  it('lists registered GET routes only, each with its schema here', () => {
    const gets = new Set(t.app.routeTable.filter((r) => r.method === 'GET').map((r) => r.url));
    for (const url of PLAIN_JSON_ROUTES) {
      expect(gets.has(url), url).toBe(true);
      expect(SCHEMAS[url], url).toBeDefined();
    }
  });

  it.each([[W], [`${W}&providers=chatgpt`], [`${W}&providers=perplexity,google_ai_overview`], [`date_from=${D2}&date_to=2025-03-20`], [`${W}&prompt_type=suggested`]])(
    '%s: the body is zod\'s serialization of it',
    async (q) => {
      for (const url of PLAIN_JSON_ROUTES) {
        if (q.includes('prompt_type') && !url.endsWith('/overview')) continue;
        const path = url.replace(':project_id', f.projectId).replace(':prompt_id', P1);
        const res = await f.api.get(`${path}?${q}`);
        expect(res.statusCode, `${path} ${res.body}`).toBe(200);
        const zod = (serializerCompiler as any)({ schema: SCHEMAS[url], method: 'GET', url });
        expect(res.body, path).toBe(zod(JSON.parse(res.body)));
      }
    },
  );

  it('the bytes written a part at a time are compressed like any body: br and gzip inflate to them', async () => {
    for (const url of PLAIN_JSON_ROUTES) {
      const path = `${url.replace(':project_id', f.projectId).replace(':prompt_id', P1)}?${W}`;
      const plain = await f.api.get(path);
      expect(plain.statusCode, path).toBe(200);
      expect(plain.headers['content-length'], path).toBe(String(plain.rawPayload.length));
      for (const [encoding, inflate] of [['br', zlib.brotliDecompressSync], ['gzip', zlib.gunzipSync]] as const) {
        const res = await t.app.inject({ method: 'GET', url: path, headers: { 'x-api-key': f.key, 'accept-encoding': encoding } });
        expect(res.statusCode, path).toBe(200);
        expect(res.headers['content-type'], path).toMatch(/^application\/json/);
        // bodies under 1 KB go out as they are
        if (plain.rawPayload.length >= 1024) expect(res.headers['content-encoding'], path).toBe(encoding);
        const body = res.headers['content-encoding'] ? inflate(res.rawPayload) : res.rawPayload;
        expect(body.equals(plain.rawPayload), path).toBe(true);
      }
    }
  });
});
