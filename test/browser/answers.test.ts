import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedProject, type SeedResult } from '../../src/collection/seed.js';
import { OWN, storeSpecs } from '../analytics-fixture.js';
import { type BrowserApp, browserTestsOff, newPage, signIn, startBrowserApp } from './harness.js';

// The answers feed and the prompt page in Chromium: an answer is untrusted markdown. Its
// lists, bold text and links render as formatting; its <script>, onerror attributes and
// javascript: links are neither run nor present as live markup; the tracked brands are
// marked (own brand and competitors apart); the filters reach the API.

const HOSTILE = [
  'Here is the **shortlist** for you:',
  '',
  '- **Acme CRM**: simple and cheap.',
  '- HubSpot: big and pricey.',
  '',
  '<script>window.__pwned = 1</script>',
  '',
  '<img src="x" onerror="window.__pwned = 2">',
  '',
  '[click me](javascript:window.__pwned=3) and <a href="https://evil.example/" onclick="window.__pwned=4">raw link</a>',
  '',
  'See [the docs](https://docs.acmecrm.com/start).',
].join('\n');

describe.skipIf(browserTestsOff)('answers feed in Chromium', () => {
  let b: BrowserApp;
  let seed: SeedResult;
  let promptId: string;
  let hubspot: string;

  const api = async (path: string) => {
    const res = await fetch(`${b.base}/v1${path}`, { headers: { 'x-api-key': seed.apiKey } });
    return ((await res.json()) as { data: any }).data;
  };

  beforeAll(async () => {
    b = await startBrowserApp();
    seed = await seedProject(b.t.runtime.ctx, { prompts: 2, providers: ['chatgpt'], days: 3, competitors: 2 });
    promptId = (await api(`/projects/${seed.projectId}/prompts`)).prompts[0].id;
    hubspot = (await api(`/projects/${seed.projectId}/competitors`)).active_competitors.find((c: any) => c.name === 'HubSpot').competitor_id;
    await storeSpecs(
      b.t,
      seed.projectId,
      [
        {
          prompt: promptId,
          provider: 'gemini',
          day: new Date().toISOString().slice(0, 10),
          text: HOSTILE,
          named: { [OWN]: [1, 1, 80], [hubspot]: [2, 1, 50] },
          cites: [
            { url: 'https://docs.acmecrm.com/start', domain: 'acmecrm.com', category: 0, urlType: 0, title: 'Acme docs' },
            { url: 'javascript:window.__pwned=5', domain: 'evil', category: 1, urlType: null, title: 'Evil citation' },
          ],
        },
      ],
      'acmecrm.com',
    );
  }, 180_000);
  afterAll(async () => b?.stop());

  /** Checks the rendered answer in `scope`: formatting live, hostile markup inert, brands marked. */
  async function expectSafeFormattedAnswer(page: import('playwright-core').Page, scope: import('playwright-core').Locator) {
    const body = scope.locator('.answer-body');
    await body.waitFor();
    expect(await body.locator('ul > li').count()).toBe(2);
    expect(await body.locator('strong', { hasText: 'shortlist' }).count()).toBe(1);
    expect(await body.locator('script, img, iframe, [onerror], [onclick], [style]').count()).toBe(0);
    // the raw HTML reads as text
    expect(await body.textContent()).toContain('<script>window.__pwned = 1</script>');
    expect(await body.textContent()).toContain('<img src="x" onerror=');
    // javascript: leaves text without a link; http(s) opens apart, nofollow
    const clickMe = body.locator('a', { hasText: 'click me' });
    expect(await clickMe.getAttribute('href')).toBeNull();
    const docs = body.getByRole('link', { name: 'the docs' });
    expect(await docs.getAttribute('href')).toBe('https://docs.acmecrm.com/start');
    expect(await docs.getAttribute('target')).toBe('_blank');
    expect(await docs.getAttribute('rel')).toBe('nofollow noopener noreferrer');
    expect(await body.locator('a[href^="javascript:" i]').count()).toBe(0);
    await clickMe.click();
    // brands: the own brand and the competitor marked apart
    expect(await body.locator('mark.own').first().textContent()).toBe('Acme CRM');
    expect(await body.locator('mark.rival').first().textContent()).toBe('HubSpot');
    // citations: the http(s) one a link with its domain; the javascript: one plain text
    const cites = scope.getByRole('list', { name: 'Citations' });
    expect(await cites.getByRole('link', { name: 'Acme docs' }).getAttribute('rel')).toBe('nofollow noopener noreferrer');
    expect(await cites.getByText('Evil citation').evaluate((e) => e.tagName)).toBe('SPAN');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  }

  it('renders the markdown as formatted text, nothing of the hostile markup live, brands marked', async () => {
    const { page, context, errors, dialogs } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Answers' }).click();
    await page.getByRole('heading', { name: 'Answers', level: 1 }).waitFor();
    // every answer of the window: the seed's chatgpt ones and the gemini one
    await expect.poll(() => page.locator('.feed-item').count()).toBeGreaterThan(1);
    await page.getByRole('group', { name: 'Engines' }).getByLabel('Gemini', { exact: true }).hover();
    await page.getByRole('group', { name: 'Engines' }).getByRole('button', { name: 'Only Gemini' }).click();
    await expect.poll(() => page.locator('.feed-item').count()).toBe(1);
    await expectSafeFormattedAnswer(page, page.getByRole('region', { name: 'Answer' }));
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lists the searches the engine ran under the answer', async () => {
    const chats = (await api(`/projects/${seed.projectId}/prompts/${promptId}/chats?providers=chatgpt&page_size=1`)).items;
    expect(chats[0].search_queries.length).toBeGreaterThan(0);
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}/answers`);
    await page.getByRole('group', { name: 'Engines' }).getByLabel('ChatGPT', { exact: true }).hover();
    await page.getByRole('group', { name: 'Engines' }).getByRole('button', { name: 'Only ChatGPT', exact: true }).click();
    await page.locator(`[data-answer="${chats[0].id}"]`).or(page.locator('.feed-item').first()).first().waitFor();
    const searches = page.getByRole('region', { name: 'Answer' }).getByRole('list', { name: 'Searches the engine ran' });
    await expect.poll(() => searches.count()).toBe(1);
    expect((await searches.getByRole('listitem').allTextContents()).length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('filters by brand named / not named, prompt and topic through the API', async () => {
    const { page, context, errors } = await newPage(b, 390);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}/answers?providers=gemini`);
    await expect.poll(() => page.locator('.feed-item').count()).toBe(1);
    const filters = page.getByRole('group', { name: 'Answer filters' });
    await filters.locator('select[name="brand"]').selectOption(hubspot);
    await expect.poll(() => page.locator('.feed-item').count()).toBe(1);
    await filters.locator('select[name="named"]').selectOption('false');
    await page.getByText('No answer in this window matches these filters.').waitFor();
    expect(page.url()).toContain(`brand=${hubspot}`);
    expect(page.url()).toContain('named=false');
    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => page.locator('.feed-item').count()).toBeGreaterThan(1);
    await filters.locator('select[name="prompt"]').selectOption(promptId);
    const all = await api(`/projects/${seed.projectId}/chats?prompt_id=${promptId}&duration_days=30&page_size=20`);
    await expect.poll(() => page.locator('.feed-item').count()).toBe(all.items.length);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the prompt page shows the same rendering of its answers', async () => {
    const { page, context, errors } = await newPage(b);
    await signIn(page, seed.email, seed.password);
    await page.goto(`/projects/${seed.projectId}/prompts/${promptId}?providers=gemini`);
    const article = page.locator('article.answer').first();
    await article.waitFor();
    await expectSafeFormattedAnswer(page, article);
    expect(errors).toEqual([]);
    await context.close();
  });
});
