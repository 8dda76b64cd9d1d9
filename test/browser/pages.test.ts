import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedProject, type SeedResult } from '../../src/collection/seed.js';
import { combinedLine, UA } from '../access-logs.js';
import { touchAnalytics } from '../../src/store/analytics-version.js';
import { OWN, storeSpecs, type AnswerSpec } from '../analytics-fixture.js';
import { type BrowserApp, browserTestsOff, newPage, signIn, startBrowserApp } from './harness.js';

// The pages no other browser test opens (crawlers, site audit) and the overview's story:
// its sentence, "What changed", the chart's "Show all" and the rank table, each against
// what the API answers. Gemini answers written here (an engine the seed did not ask) make
// a change that is significant: the own brand, one competitor and one cited domain named
// in every answer of the last 14 days and in none of the 14 before.

const DAY = 86_400_000;
const dayOf = (t: number) => new Date(t).toISOString().slice(0, 10);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** Today at 10:00 UTC as the combined log format writes it. */
const logTimeToday = () => {
  const d = new Date();
  return `${String(d.getUTCDate()).padStart(2, '0')}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:10:00:00 +0000`;
};

describe.skipIf(browserTestsOff)('overview story, crawlers and site audit in Chromium', () => {
  let b: BrowserApp;
  let seed: SeedResult;
  let rising: { id: string; name: string };
  let promptIds: string[];
  let ownDomain = '';

  const api = async (path: string, init: { method?: string; body?: string; type?: string } = {}) => {
    const res = await fetch(`${b.base}/v1${path}`, {
      method: init.method ?? 'GET',
      headers: { 'x-api-key': seed.apiKey, ...(init.type ? { 'content-type': init.type } : {}) },
      body: init.body,
    });
    return (await res.json()) as { data: any };
  };

  beforeAll(async () => {
    b = await startBrowserApp();
    seed = await seedProject(b.t.runtime.ctx, { prompts: 2, providers: ['chatgpt'], days: 10, competitors: 8 });
    const prompts = (await api(`/projects/${seed.projectId}/prompts`)).data.prompts as Array<{ id: string }>;
    promptIds = prompts.map((p) => p.id);
    const competitors = (await api(`/projects/${seed.projectId}/competitors`)).data.active_competitors as Array<{ competitor_id: string; name: string; is_own_brand: boolean; icon_url: string | null }>;
    const first = competitors.find((c) => !c.is_own_brand)!;
    rising = { id: first.competitor_id, name: first.name };
    const specs: AnswerSpec[] = [];
    // One answer per prompt, engine and day: 28 answers a window.
    for (let d = 0; d < 28; d++) {
      const recent = d < 14;
      for (const prompt of promptIds) {
        specs.push({
          prompt,
          provider: 'gemini',
          day: dayOf(Date.now() - d * DAY),
          named: recent ? { [OWN]: [1, 1, 1], [rising.id]: [2, 1, 0] } : {},
          cites: recent ? [{ url: 'https://risingreviews.example/best-crm', domain: 'risingreviews.example', category: 0, urlType: null }] : [],
        });
      }
    }
    await storeSpecs(b.t, seed.projectId, specs, 'acmecrm.com');
    // The own brand's icon, as the favicon proxy would have stored it (a 1×1 PNG).
    const own = competitors.find((c) => c.is_own_brand)!;
    ownDomain = new URL(own.icon_url!).hostname;
    await b.t.runtime.ctx.store.query(`insert into favicons (domain, content_type, body, etag) values ($1, 'image/png', decode($2, 'base64'), '"own-icon"')`, [
      ownDomain,
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    ]);
  }, 180_000);
  afterAll(async () => b?.stop());

  it('tells the overview story: the sentence, the significant changes as links, the ranking and the chart toggle', async () => {
    const { page, context, errors } = await newPage(b);
    const v1: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/v1/')) v1.push(r.url());
    });
    await signIn(page, seed.email, seed.password);
    v1.length = 0;
    await page.goto(`/projects/${seed.projectId}?days=14&providers=gemini`);
    await page.locator('[data-chart="Visibility over time"][data-drawn="true"]').waitFor();
    const q = `?date_from=${dayOf(Date.now() - 13 * DAY)}&date_to=${dayOf(Date.now())}&providers=gemini`;
    const summary = (await api(`/projects/${seed.projectId}/overview/summary${q}`)).data;
    // The API found what the answers were made to show.
    expect(summary.changes.own_brand.visibility).toBe('up');
    expect(summary.changes.prompts.map((p: { prompt_id: string }) => p.prompt_id).sort()).toEqual([...promptIds].sort());
    expect(summary.changes.competitors.map((c: { competitor_id: string }) => c.competitor_id)).toContain(rising.id);
    expect(summary.changes.sources.map((s: { domain: string }) => s.domain)).toContain('risingreviews.example');

    // The sentence: the own brand's visibility, its change called significant, its rank.
    const story = await page.locator('[data-story]').innerText();
    expect(story).toMatch(/^Visibility 100% \(±[\d.]+\), up 100\.0 points since the previous 14 days — significant; you rank 1st of \d+ brands\.$/);
    // The Visibility card's chip is coloured (significant, good).
    expect(await page.locator('[data-kpi="Visibility"] .delta').getAttribute('class')).toContain('good');

    // What changed: each mover a link to its page.
    const changes = page.locator('[data-changes]');
    const won = changes.locator('[data-change="Prompts won"] a');
    expect(await won.count()).toBe(2);
    expect((await won.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).sort()).toEqual(promptIds.map((id) => `/projects/${seed.projectId}/prompts/${id}`).sort());
    expect(await changes.locator('[data-change="Competitors rising"] a', { hasText: rising.name }).getAttribute('href')).toBe(`/projects/${seed.projectId}/competitors`);
    expect(await changes.locator('[data-change="Sources gained"] a').innerText()).toBe('risingreviews.example');
    expect(await changes.locator('[data-change="Prompts lost"]').count()).toBe(0);

    // The ranking: the API's brands by visibility, the own brand's row highlighted.
    const rows = page.locator('[data-table="rank"] tbody tr');
    const brands = summary.current.active_competitors as Array<{ name: string; is_own_brand: boolean; metrics: { visibility: number } }>;
    expect(await rows.count()).toBe(brands.length);
    const first = rows.first();
    expect(await first.getAttribute('data-brand')).toBe(brands.find((x) => x.is_own_brand)!.name);
    expect(await first.getAttribute('class')).toContain('own');
    expect(await page.locator('[data-table="rank"] tr.own').count()).toBe(1);
    const shown = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.querySelector('td[data-value]')?.getAttribute('data-value'))));
    expect(shown).toEqual([...shown].sort((x, y) => y - x));
    // Brand icons: the own brand's from the favicon proxy (its icon stored beforehand), every
    // other brand's initial on its colour (the test's proxy finds no icon): no broken image.
    await page.waitForLoadState('networkidle');
    const marks = await rows.evaluateAll((trs) =>
      trs.map((tr) => {
        const img = tr.querySelector<HTMLImageElement>('th img.brand-mark');
        if (img) return { src: img.getAttribute('src'), alt: img.getAttribute('alt'), loaded: img.complete && img.naturalWidth > 0, size: [img.width, img.height] };
        return { initial: tr.querySelector('th .brand-initial')?.getAttribute('data-initial') ?? null, size: [tr.querySelector<HTMLElement>('th .brand-initial')?.offsetWidth, 16] };
      }),
    );
    expect(marks[0]).toEqual({ src: `/favicons/${ownDomain}`, alt: '', loaded: true, size: [16, 16] });
    const others = brands.filter((x) => !x.is_own_brand);
    expect(marks.slice(1)).toEqual(others.map((x) => ({ initial: x.name[0].toUpperCase(), size: [16, 16] })));

    // The chart: the own brand and the top 5 competitors, the others behind "Show all".
    const legend = page.locator('[data-legend] .legend-item');
    expect(await legend.count()).toBe(6);
    expect(await page.locator('[data-legend] .legend-item.own').innerText()).toBe(brands.find((x) => x.is_own_brand)!.name);
    await page.locator('[data-show-all]').click();
    await expect.poll(() => legend.count()).toBe(brands.length);
    await expect.poll(() => page.locator('[data-show-all]').getAttribute('aria-pressed')).toBe('true');

    // Still at most four /v1 requests for the page (GET /session, project, summary, series).
    await page.waitForLoadState('networkidle');
    expect(v1.length).toBeLessThanOrEqual(4);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says "no significant change" in grey when the windows do not differ', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    // Gemini over 7 days: every answer names the brand this week and the week before.
    await page.goto(`/projects/${seed.projectId}?days=7&providers=gemini`);
    await page.locator('[data-kpi="Visibility"]').waitFor();
    const q = `?date_from=${dayOf(Date.now() - 6 * DAY)}&date_to=${dayOf(Date.now())}&providers=gemini`;
    const summary = (await api(`/projects/${seed.projectId}/overview/summary${q}`)).data;
    expect(summary.changes.own_brand.visibility).toBe('stable');
    const chip = page.locator('[data-kpi="Visibility"] .delta');
    expect(await chip.innerText()).toBe('no significant change');
    expect(await chip.getAttribute('class')).not.toMatch(/good|bad/);
    expect(await page.locator('[data-story]').innerText()).toMatch(/unchanged since the previous 7 days — inside the noise/);
    expect(await page.locator('[data-changes]').count()).toBe(0);
    await page.getByText('No significant change against the previous 7 days').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("marks the days an engine changed model on the visibility chart and lists them under it", async () => {
    const store = b.t.runtime.ctx.store;
    const yesterday = dayOf(Date.now() - DAY);
    // ChatGPT answered with a new model from yesterday on (most of each day's answers)
    await store.query(
      `insert into engine_model_daily (project_id, provider, day, model, answers)
       select $1, 'chatgpt', d::date, 'gpt-next-2026', 1000 from unnest($2::text[]) as d
       on conflict (project_id, provider, day, model) do update set answers = 1000`,
      [seed.projectId, [yesterday, dayOf(Date.now())]],
    );
    await touchAnalytics(store, seed.projectId);
    const summary = (await api(`/projects/${seed.projectId}/overview/summary?date_from=${dayOf(Date.now() - 29 * DAY)}&date_to=${dayOf(Date.now())}`)).data;
    expect(summary.model_changes).toHaveLength(1);
    const change = summary.model_changes[0];
    expect(change).toMatchObject({ provider: 'chatgpt', day: yesterday, to_model: 'gpt-next-2026' });

    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}?days=30`);
    await page.locator('[data-chart="Visibility over time"][data-drawn="true"]').waitFor();
    const listed = page.locator('[data-model-changes] [data-model-change="chatgpt"]');
    expect(await listed.innerText()).toBe(`${yesterday} ChatGPT: ${change.from_model} → gpt-next-2026: a change on this day may be the engine's, not yours`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the crawlers page with the agents and referrals of an ingested log', async () => {
    const time = logTimeToday();
    const log = [
      combinedLine({ host: 'acmecrm.com', address: '1.2.3.4', time, target: '/pricing', userAgent: UA.gptbot }),
      combinedLine({ host: 'acmecrm.com', address: '1.2.3.5', time, target: '/docs', userAgent: UA.gptbot }),
      combinedLine({ host: 'acmecrm.com', address: '9.9.9.1', time, target: '/pricing', userAgent: UA.browser, referrer: 'https://chatgpt.com/' }),
      '',
    ].join('\n');
    const ingested = await api(`/projects/${seed.projectId}/crawler-logs`, { method: 'POST', body: log, type: 'text/plain' });
    expect(ingested.data.bot_hits).toBe(2);
    const report = (await api(`/projects/${seed.projectId}/crawlers`)).data;
    const gptbot = report.bots.find((x: { agent: string }) => x.agent === 'GPTBot');
    expect(gptbot.hits).toBe(2);

    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}/crawlers`);
    await page.getByRole('heading', { name: 'AI crawlers', level: 1 }).waitFor();
    const row = page.locator('[data-table="crawler-agents"] tbody tr', { hasText: 'GPTBot' });
    await row.waitFor();
    const cells = await row.locator('td').allInnerTexts();
    expect(cells[0]).toBe('GPTBot');
    expect(cells[3]).toBe(String(gptbot.hits));
    expect(cells[5]).toBe(String(gptbot.pages));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the site audit page with no run yet and the button to start one', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}/audit`);
    await page.getByRole('heading', { name: 'Site audit', level: 1 }).waitFor();
    await expect.poll(() => page.locator('[role="status"]', { hasText: 'Loading' }).count()).toBe(0);
    await page.getByText('No audit yet.').waitFor();
    expect(await page.getByRole('button', { name: 'Run an audit now' }).isEnabled()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
