import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createAccount, errorBody, setTeam, startTestApp, type Account, type TestApp } from '../../test/helpers.js';
import { stableUuid } from '../lib/crypto.js';
import { marketFrom, parseMarketCode, promptMarkets } from '../lib/markets.js';
import { utcDay } from '../lib/time.js';
import { creditState } from './credits.js';
import { runRefresh } from './refresh.js';
import { expectConsistentRollups } from '../../test/rollup-invariants.js';
import { forgetProject } from '../modules/projects/project-row.js';
import { ALL_MARKETS } from '../modules/rollups/market-totals.js';
import { brandSums, projectDays, projectTotals } from '../modules/rollups/project-reads.js';
import { domainWindow } from '../modules/rollups/domain-window.js';
import { promptSums } from '../modules/rollups/prompt-reads.js';
import { touchAnalytics } from '../store/analytics-version.js';
import { reanalyseProject } from './reanalyse.js';

// Markets and personas (issue 29, part 2): a prompt runs in each of its markets, each
// (prompt, market) a series of its own with its own answers, credits and figures, and every
// read filters by `market=`.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ providersMode: 'simulated', role: 'api' });
});
afterAll(async () => t?.stop());

const PROVIDERS = 5;

async function projectWithTopic(plan = 'enterprise'): Promise<{ acct: Account; projectId: string; topicId: string }> {
  const acct = await createAccount(t.app);
  await setTeam(t, acct.teamId, { plan });
  const { store } = t.runtime.ctx;
  const p = await store.query<{ id: string }>(
    `insert into projects (team_id, name, brand_name, website_url, domain, status, location, language)
     values ($1, 'Acme CRM', 'Acme CRM', 'https://acmecrm.com/', 'acmecrm.com', 'completed', 'US', 'en') returning id`,
    [acct.teamId],
  );
  const topic = await client(t.app, acct.key).post(`/projects/${p.rows[0].id}/topics`, { name: 'CRM' });
  expect(topic.statusCode).toBe(201);
  return { acct, projectId: p.rows[0].id, topicId: topic.json().data.topic_id };
}

const refresh = (projectId: string, day: string, promptIds?: string[]) =>
  runRefresh(t.runtime.ctx, { projectId, day, runId: stableUuid('markets-test', projectId, day), kind: 'manual', promptIds });

describe('market codes (lib/markets.ts)', () => {
  it('parses and writes COUNTRY-language, and falls back to US-en', () => {
    expect(parseMarketCode('de-DE')).toEqual({ country: 'DE', language: 'de' });
    expect(parseMarketCode('Germany')).toBeNull();
    expect(parseMarketCode('D-de')).toBeNull();
    expect(marketFrom('gb', 'EN-GB')).toEqual({ country: 'GB', language: 'en' });
    expect(marketFrom(null, 'pt_BR')).toEqual({ country: 'US', language: 'pt' });
    expect(marketFrom('United States', 'English')).toEqual({ country: 'US', language: 'en' });
    expect(promptMarkets({ markets: null, country: 'FR' }, { location: 'US', language: 'fr' })).toEqual([{ country: 'FR', language: 'fr' }]);
    expect(promptMarkets({ markets: [{ country: 'DE', language: 'de' }], country: 'FR' }, { location: 'US', language: 'en' })).toEqual([
      { country: 'DE', language: 'de' },
    ]);
  });

  it('the SQL function of migration 0027 writes the same code as marketFrom', async () => {
    const cases: Array<[string | null, string | null]> = [
      ['us', 'en'],
      ['GB', 'EN-GB'],
      [null, 'pt_BR'],
      ['United States', 'English'],
      [' de ', ' DE '],
      [null, null],
      ['fr', 'fra'],
    ];
    for (const [country, language] of cases) {
      const { rows } = await t.runtime.ctx.store.query<{ code: string }>(`select market_code($1, $2) as code`, [country, language]);
      const market = marketFrom(country, language);
      expect(rows[0].code, `${country} ${language}`).toBe(`${market.country}-${market.language}`);
    }
  });
});

describe('prompts with markets and a persona', () => {
  it('POST takes markets and persona for every prompt of the request; GET shows them; the default is the project market', async () => {
    const { acct, projectId, topicId } = await projectWithTopic();
    const api = client(t.app, acct.key);
    const res = await api.post(`/projects/${projectId}/prompts`, {
      prompts: ['best crm for startups', 'crm with the best support'],
      topicId,
      markets: [
        { country: 'us', language: 'EN' },
        { country: 'DE', language: 'de' },
      ],
      persona: '  a sales lead at a 40-person agency  ',
    });
    expect(res.statusCode).toBe(200);
    for (const p of res.json().data.prompts) {
      expect(p.markets).toEqual([
        { country: 'US', language: 'en' },
        { country: 'DE', language: 'de' },
      ]);
      expect(p.persona).toBe('a sales lead at a 40-person agency');
    }
    const plain = await api.post(`/projects/${projectId}/prompts`, { prompts: ['what is a crm'], topicId, country: 'fr' });
    expect(plain.json().data.prompts[0]).toMatchObject({ country: 'FR', markets: [{ country: 'FR', language: 'en' }], persona: null });
    const id = plain.json().data.prompts[0].id;
    expect((await api.get(`/projects/${projectId}/prompts/${id}`)).json().data).toMatchObject({ markets: [{ country: 'FR', language: 'en' }], persona: null });
  });

  it('PATCH changes markets and persona; null goes back to the default and clears the persona', async () => {
    const { acct, projectId, topicId } = await projectWithTopic();
    const api = client(t.app, acct.key);
    const id = (await api.post(`/projects/${projectId}/prompts`, { prompts: ['best crm for startups'], topicId })).json().data.prompts[0].id;
    const url = `/projects/${projectId}/prompts/${id}`;
    const set = await api.patch(url, { markets: [{ country: 'gb', language: 'en' }], persona: 'a CFO' });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toMatchObject({ markets: [{ country: 'GB', language: 'en' }], persona: 'a CFO' });
    expect((await api.patch(url, { markets: [{ country: 'GB', language: 'en' }] })).statusCode).toBe(400); // nothing changed
    const reset = await api.patch(url, { markets: null, persona: null });
    expect(reset.json().data).toMatchObject({ markets: [{ country: 'US', language: 'en' }], persona: null });
  });

  it.each([
    [{ markets: [] }, /^markets must be a list of 1 to 10/],
    [{ markets: [{ country: 'USA', language: 'en' }] }, /a market country must be a two-letter ISO country code/],
    [{ markets: [{ country: 'US', language: 'english' }] }, /a market language must be a two- or three-letter ISO 639 language code/],
    [{ markets: [{ country: 'US' }] }, /language/],
    [{ markets: [{ country: 'US', language: 'en', city: 'NYC' }] }, /.+/],
    [{ markets: [{ country: 'US', language: 'en' }, { country: 'us', language: 'EN' }] }, /^markets must not name the same market twice/],
    [{ markets: Array.from({ length: 11 }, (_, i) => ({ country: `A${String.fromCharCode(65 + i)}`, language: 'en' })) }, /^markets must be a list of 1 to 10/],
    [{ markets: 'US-en' }, /^markets must be a list/],
    [{ persona: 'x'.repeat(501) }, /^persona must be a string of at most 500 characters/],
  ])('%j is a 400 with a clear detail, and nothing is stored', async (extra, detail) => {
    const { acct, projectId, topicId } = await projectWithTopic();
    const api = client(t.app, acct.key);
    const res = await api.post(`/projects/${projectId}/prompts`, { prompts: ['best crm for startups'], topicId, ...extra });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(detail);
    expect((await api.get(`/projects/${projectId}/prompts`)).json().data.total).toBe(0);
  });
});

describe('a prompt in two markets', () => {
  let acct: Account;
  let projectId: string;
  let promptId: string;
  const day = utcDay();

  beforeAll(async () => {
    let topicId: string;
    ({ acct, projectId, topicId } = await projectWithTopic());
    const res = await client(t.app, acct.key).post(`/projects/${projectId}/prompts`, {
      prompts: ['best crm for startups'],
      topicId,
      markets: [
        { country: 'US', language: 'en' },
        { country: 'DE', language: 'de' },
      ],
    });
    promptId = res.json().data.prompts[0].id;
    await refresh(projectId, day);
  });

  it('is asked in each market: its own answers and credits, the market sent to the engine', async () => {
    const { rows } = await t.runtime.ctx.store.query<{ market: string; n: number; countries: string[] }>(
      `select market, count(*)::int as n, array_agg(distinct coalesce(sent->>'country', '-')) as countries
         from responses where prompt_id = $1 group by market order by market`,
      [promptId],
    );
    expect(rows.map((r) => [r.market, r.n])).toEqual([
      ['DE-de', PROVIDERS],
      ['US-en', PROVIDERS],
    ]);
    expect((await creditState(t.runtime.ctx.store, acct.teamId)).used).toBe(2 * PROVIDERS);
    // a second run of the same day asks nothing again
    const again = await runRefresh(t.runtime.ctx, { projectId, day, runId: stableUuid('markets-test-again', projectId, day), kind: 'manual' });
    expect(again).toMatchObject({ planned: 2 * PROVIDERS, stored: 0, alreadyStored: 2 * PROVIDERS });
    await expectConsistentRollups(t.runtime.ctx.store, projectId);
  });

  it('every read filters by market; without one it sums them', async () => {
    const api = client(t.app, acct.key);
    const prompts = async (q: string) => (await api.get(`/projects/${projectId}/prompts?duration_days=1${q}`)).json().data.prompts[0].responses;
    expect(await prompts('')).toBe(2 * PROVIDERS);
    expect(await prompts('&market=US-en')).toBe(PROVIDERS);
    expect(await prompts('&market=de-DE')).toBe(PROVIDERS);
    expect(await prompts('&market=FR-fr')).toBe(0);

    const chats = async (q: string) => (await api.get(`/projects/${projectId}/prompts/${promptId}/chats?duration_days=1${q}`)).json().data.items;
    expect((await chats('')).length).toBe(2 * PROVIDERS);
    const german = await chats('&market=DE-de');
    expect(german.length).toBe(PROVIDERS);
    expect(new Set(german.map((c: { market: string }) => c.market))).toEqual(new Set(['DE-de']));

    // the project rollups: the visibility chart's responses per day
    const visibility = async (q: string) => {
      const res = await api.get(`/projects/${projectId}/visibility?duration_days=1${q}`);
      expect(res.statusCode).toBe(200);
      return res.json().data.series[0].responses.at(-1);
    };
    expect(await visibility('')).toBe(2 * PROVIDERS);
    expect(await visibility('&market=US-en')).toBe(PROVIDERS);
    expect(await visibility('&market=DE-de')).toBe(PROVIDERS);
    // the competitors' figures rest on the market's answers only
    const competitors = await api.get(`/projects/${projectId}/competitors?duration_days=1&market=FR-fr`);
    expect(competitors.statusCode).toBe(200);

    const bad = await api.get(`/projects/${projectId}/prompts?market=Germany`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual(errorBody('market must be a country code and a language code, such as US-en', 'invalid_request'));
  });

  it('the sampling plan and the export read one market', async () => {
    const api = client(t.app, acct.key);
    const plan = async (q: string) => (await api.get(`/projects/${projectId}/sampling-plan?duration_days=1${q}`)).json().data[0].responses;
    expect(await plan('')).toBe(2 * PROVIDERS);
    expect(await plan('&market=US-en')).toBe(PROVIDERS);
    const csv = async (q: string) => (await api.get(`/projects/${projectId}/export/daily.csv?start_date=${day}&end_date=${day}${q}`)).body;
    const responsesOf = (body: string) =>
      body
        .trim()
        .split('\n')
        .slice(1)
        .filter((line) => line.includes(',Acme CRM,'))
        .reduce((sum, line) => sum + Number(line.split(',').at(-6)), 0);
    expect(responsesOf(await csv(''))).toBe(2 * PROVIDERS);
    expect(responsesOf(await csv('&market=DE-de'))).toBe(PROVIDERS);
  });

  it('deleting the prompt takes both markets out of the project rollups', async () => {
    const api = client(t.app, acct.key);
    expect((await api.delete(`/projects/${projectId}/prompts/${promptId}`)).statusCode).toBe(200);
    const { rows } = await t.runtime.ctx.store.query<{ n: number }>(`select count(*)::int as n from project_daily where project_id = $1`, [projectId]);
    expect(rows[0].n).toBe(0);
    await expectConsistentRollups(t.runtime.ctx.store, projectId);
  });
});

describe('market totals (rollups/market-totals.ts)', () => {
  it('a prompt given a second market after answers: the history summed under market *, every all-market read equal to the sum of its markets', async () => {
    const { acct, projectId, topicId } = await projectWithTopic();
    const api = client(t.app, acct.key);
    const [first, second] = (await api.post(`/projects/${projectId}/prompts`, { prompts: ['best crm for startups', 'crm with the best support'], topicId })).json()
      .data.prompts as Array<{ id: string }>;
    const yesterday = new Date(Date.parse(`${utcDay()}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await refresh(projectId, yesterday);
    const totals = async () =>
      (await t.runtime.ctx.store.query<{ market_totals: boolean }>(`select market_totals from projects where id = $1`, [projectId])).rows[0].market_totals;
    const read = async (q: string) => ({
      prompts: (await api.get(`/projects/${projectId}/prompts?duration_days=2${q}`)).json().data.prompts.map((p: { responses: number }) => p.responses),
      overview: (await api.get(`/projects/${projectId}/overview?duration_days=2${q}`)).json().data.items.map((p: { responses: number }) => p.responses),
      analytics: (await api.get(`/projects/${projectId}/prompts/${first.id}/analytics?duration_days=2${q}`)).json().data.volume,
      plan: (await api.get(`/projects/${projectId}/sampling-plan?duration_days=2${q}`)).json().data.map((p: { responses: number }) => p.responses),
    });
    expect(await totals()).toBe(false);
    const before = await read('');
    expect(before).toEqual({ prompts: [PROVIDERS, PROVIDERS], overview: [PROVIDERS, PROVIDERS], analytics: PROVIDERS, plan: [PROVIDERS, PROVIDERS] });

    // the second market: the project keeps totals from now on, its history summed at once
    const patched = await api.patch(`/projects/${projectId}/prompts/${first.id}`, {
      markets: [
        { country: 'US', language: 'en' },
        { country: 'DE', language: 'de' },
      ],
    });
    expect(patched.statusCode).toBe(200);
    expect(await totals()).toBe(true);
    await expectConsistentRollups(t.runtime.ctx.store, projectId);
    expect(await read('')).toEqual(before);

    // and a day of last month, in both markets: a whole month, which the prompt domains read from prompt_domain_monthly
    const today = new Date(`${utcDay()}T00:00:00Z`);
    const lastMonth = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
    await refresh(projectId, lastMonth);
    await refresh(projectId, utcDay());
    await expectConsistentRollups(t.runtime.ctx.store, projectId);
    const all = await read('');
    const us = await read('&market=US-en');
    const de = await read('&market=DE-de');
    expect(all).toEqual({ prompts: [3 * PROVIDERS, 2 * PROVIDERS], overview: [3 * PROVIDERS, 2 * PROVIDERS], analytics: 3 * PROVIDERS, plan: [3 * PROVIDERS, 2 * PROVIDERS] });
    expect(de).toEqual({ prompts: [PROVIDERS, 0], overview: [PROVIDERS, 0], analytics: PROVIDERS, plan: [PROVIDERS, 0] });
    expect(us.analytics + de.analytics).toBe(all.analytics);

    // the project-level reads (visibility, competitors, sources, prompt domains): the market totals read whole ==
    // the sum of the markets read one at a time
    forgetProject(t.runtime.ctx, projectId); // this process's cached row from before the flag: read it again
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const byKey = (items: Array<[string, number]>) => Object.fromEntries([...items].sort(([a], [b]) => a.localeCompare(b)));
    const readProject = async (q: string) => {
      const get = async (path: string) => {
        // 62 days: last month whole (its month rows read), the days around it from the day rows or the answers
        const res = await api.get(`/projects/${projectId}${path}?duration_days=62${q}`);
        expect(res.statusCode, path).toBe(200);
        return res.json().data;
      };
      return {
        visibility: sum((await get('/visibility')).series[0].responses),
        mentions: byKey((await get('/competitors')).active_competitors.map((c: { name: string; metrics: { mention_count: number } }) => [c.name, c.metrics.mention_count])),
        sources: byKey((await get('/sources')).map((d: { domain: string; reference_count: number }) => [d.domain, d.reference_count])),
        citations: (await get('/sources/analytics')).stats.total_citations as number,
        promptDomains: byKey((await get(`/prompts/${first.id}/domains`)).items.map((d: { domain: string; citation_count: number }) => [d.domain, d.citation_count])),
      };
    };
    const wholeProject = await readProject('');
    const [usProject, deProject] = [await readProject('&market=US-en'), await readProject('&market=DE-de')];
    const added = (a: Record<string, number>, b: Record<string, number>) =>
      byKey([...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [k, (a[k] ?? 0) + (b[k] ?? 0)]));
    expect(wholeProject.visibility).toBe(8 * PROVIDERS);
    expect(wholeProject.citations).toBeGreaterThan(0);
    expect(wholeProject).toEqual({
      visibility: usProject.visibility + deProject.visibility,
      mentions: added(usProject.mentions, deProject.mentions),
      sources: added(usProject.sources, deProject.sources),
      citations: usProject.citations + deProject.citations,
      promptDomains: added(usProject.promptDomains, deProject.promptDomains),
    });
    // the dashboard's overview summary compares with the previous window in the same market: today against
    // yesterday, whose answers are US-en's only (asked before the prompt had its second market)
    const mentionsOf = (table: { active_competitors: Array<{ name: string; metrics: { mention_count: number } }> }) =>
      byKey(table.active_competitors.map((c) => [c.name, c.metrics.mention_count]));
    for (const market of ['US-en', 'DE-de']) {
      const summary = (await api.get(`/projects/${projectId}/overview/summary?duration_days=1&market=${market}`)).json().data;
      expect(summary.previous.date_from).toBe(yesterday);
      const previous = (await api.get(`/projects/${projectId}/competitors?date_from=${yesterday}&date_to=${yesterday}&market=${market}`)).json().data;
      expect(mentionsOf(summary.previous), market).toEqual(mentionsOf(previous));
    }
    const deYesterday = (await api.get(`/projects/${projectId}/competitors?date_from=${yesterday}&date_to=${yesterday}&market=DE-de`)).json().data;
    const allYesterday = (await api.get(`/projects/${projectId}/competitors?date_from=${yesterday}&date_to=${yesterday}`)).json().data;
    expect(mentionsOf(deYesterday)).not.toEqual(mentionsOf(allYesterday));

    // and the rollups' reads: '*' == the markets summed; null (a read that does not ask for the totals, as the
    // alerts' and a cached project row's) == '*', the totals left out
    const { store } = t.runtime.ctx;
    const window = { from: lastMonth, to: utcDay() };
    const totalsOf = async (market: string | null) => projectTotals(store, projectId, lastMonth, utcDay(), market);
    expect(await totalsOf(null)).toEqual(await totalsOf(ALL_MARKETS));
    const [usTotals, deTotals, allTotals] = [await totalsOf('US-en'), await totalsOf('DE-de'), await totalsOf(ALL_MARKETS)];
    expect(allTotals).toEqual({ responses: usTotals.responses + deTotals.responses, mentioned: usTotals.mentioned + deTotals.mentioned, citesOwn: usTotals.citesOwn + deTotals.citesOwn });
    expect(await brandSums(store, projectId, { ...window, providers: null, market: null })).toEqual(await brandSums(store, projectId, { ...window, providers: null, market: ALL_MARKETS }));
    expect(await projectDays(store, projectId, ['*'], lastMonth, utcDay(), null)).toEqual(await projectDays(store, projectId, ['*'], lastMonth, utcDay(), ALL_MARKETS));
    expect((await domainWindow(store, projectId, ['*'], lastMonth, utcDay(), null)).domains).toEqual(
      (await domainWindow(store, projectId, ['*'], lastMonth, utcDay(), ALL_MARKETS)).domains,
    );
    expect(await promptSums(store, projectId, ['*'], [window], undefined, null)).toEqual(await promptSums(store, projectId, ['*'], [window], undefined, ALL_MARKETS));
    // the totals rows are what an all-market read reads: one row per prompt, provider and day
    const { rows } = await t.runtime.ctx.store.query<{ market: string; n: number }>(
      `select market, count(*)::int as n from prompt_daily where prompt_id = $1 and day = $2 group by market order by market`,
      [first.id, utcDay()],
    );
    expect(rows).toEqual([
      { market: '*', n: PROVIDERS + 1 },
      { market: 'DE-de', n: PROVIDERS + 1 },
      { market: 'US-en', n: PROVIDERS + 1 },
    ]);

    // deleting a prompt takes its answers out once, not once per market and once more for the totals
    expect((await api.delete(`/projects/${projectId}/prompts/${second.id}`)).statusCode).toBe(200);
    await expectConsistentRollups(t.runtime.ctx.store, projectId);
    const visibility = await api.get(`/projects/${projectId}/visibility?duration_days=2`);
    expect(visibility.json().data.series[0].responses.reduce((a: number, b: number | null) => a + (b ?? 0), 0)).toBe(3 * PROVIDERS);
    const left = await readProject('');
    expect(left.visibility).toBe(5 * PROVIDERS);
    expect(left.promptDomains).toEqual(wholeProject.promptDomains); // the first prompt's, untouched

    // a re-analysis empties the rollups and adds the answers again: the totals with them
    await reanalyseProject(t.runtime.ctx, projectId);
    await expectConsistentRollups(t.runtime.ctx.store, projectId);
    expect(await readProject('')).toEqual(left);

    // the all-market reads read the totals: without the '*' rows they find nothing
    await store.tx(async (tx) => {
      await touchAnalytics(tx, projectId);
      for (const table of ['prompt_daily', 'prompt_weekly', 'prompt_monthly', 'project_daily', 'project_weekly', 'project_monthly', 'project_domain_daily', 'prompt_domain_monthly']) {
        await tx.query(`delete from ${table} where project_id = $1 and market = '*'`, [projectId]);
      }
    });
    const without = await readProject('');
    expect({ ...without, promptDomains: undefined }).toEqual({ visibility: 0, mentions: byKey(Object.keys(left.mentions).map((k) => [k, 0])), sources: {}, citations: 0, promptDomains: undefined });
    // the prompt's domains: only the days read from the answers left, last month's citations gone
    expect(sum(Object.values(without.promptDomains))).toBeLessThan(sum(Object.values(left.promptDomains)));
    expect((await api.get(`/projects/${projectId}/prompts?duration_days=2`)).json().data.prompts[0].responses).toBe(0);
    const csv = (await api.get(`/projects/${projectId}/export/daily.csv?start_date=${lastMonth}&end_date=${utcDay()}`)).body;
    expect(csv.trim().split('\n').length).toBe(1); // the header only
    const perMarket = (await api.get(`/projects/${projectId}/export/daily.csv?start_date=${lastMonth}&end_date=${utcDay()}&market=US-en`)).body;
    expect(perMarket.trim().split('\n').length).toBeGreaterThan(1);
  });
});
