import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArticle, readSite } from './extract.js';
import { fetchPage } from './fetcher.js';
import { fixtureHtml, startFixtureServer, type FixtureServer } from '../../../test/fixtures/page-fixtures.js';

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

async function site(name: string) {
  const page = await fetchPage(`${server.base}/${name}.html`, { allowPrivate: true });
  return readSite(page.html, page.url);
}

describe('readSite (served over HTTP)', () => {
  it('reads a CRM vendor home page', async () => {
    const info = await site('crm-vendor');
    expect(info.title).toBe('Pipewise – The CRM for small businesses');
    expect(info.description).toMatch(/^Pipewise is the simple CRM for small businesses/);
    expect(info.siteName).toBe('Pipewise');
    expect(info.language).toBe('en');
    expect(info.headings).toEqual([
      'Close more deals with less busywork',
      'Sales pipeline management',
      'Email tracking and automation',
      'Integrates with Gmail, Outlook and Slack',
      'Contact management',
    ]);
    expect(info.text).toContain('visual pipeline');
    expect(info.text).not.toContain('SCRIPT SHOULD NOT APPEAR');
    expect(info.text).not.toContain('h1 { color');
  });

  it('falls back to og:description and reads og:site_name and a regional language', async () => {
    const info = await site('running-shoes');
    expect(info.description).toBe('Lightweight road and trail running shoes with responsive cushioning. Free returns within 60 days.');
    expect(info.siteName).toBe('Stridewell');
    expect(info.language).toBe('en-GB');
    expect(info.headings).toContain('Trail running shoes');
  });

  it('reads application-name as the site name, and null when there is none', async () => {
    expect((await site('project-management')).siteName).toBe('Taskloom');
    const bakery = await site('bakery');
    expect(bakery.siteName).toBeNull();
    expect(bakery.title).toBe('Maison Levain — Artisan Bakery in Portland');
    expect(bakery.text).toContain('36 hours');
  });

  it('puts blocks of the main text on their own lines', async () => {
    const info = await site('bakery');
    expect(info.text.split('\n')).toContain('Sourdough bread baked daily');
  });
});

describe('readSite limits and odd pages', () => {
  it('keeps at most 30 headings, trimmed and deduplicated (case-insensitively)', () => {
    const hs = `${Array.from({ length: 40 }, (_, i) => `<h2>  Heading\n ${i % 35}  </h2>`).join('')}<h3>heading 1</h3>`;
    const info = readSite(`<html><body>${hs}<h4>not me</h4></body></html>`, 'https://x.example/');
    expect(info.headings).toHaveLength(30);
    expect(info.headings[0]).toBe('Heading 0');
    expect(new Set(info.headings.map((h) => h.toLowerCase())).size).toBe(30);
    expect(info.headings).not.toContain('not me');
  });

  it('caps the text at about 20,000 characters', () => {
    const body = Array.from({ length: 3000 }, (_, i) => `<p>Sentence number ${i} of a very long page about nothing much.</p>`).join('');
    const info = readSite(`<html><body><article>${body}</article></body></html>`, 'https://x.example/');
    expect(info.text.length).toBeLessThanOrEqual(20_000);
    expect(info.text.length).toBeGreaterThan(15_000);
  });

  it('survives empty and broken HTML', () => {
    expect(readSite('', 'https://x.example/')).toMatchObject({ title: null, description: null, headings: [], language: null });
    expect(() => readSite('<html><head><title>Half', 'https://x.example/')).not.toThrow();
    expect(readArticle('', 'https://x.example/')).toMatchObject({ text: '', paragraphs: [] });
    expect(readArticle('just some text', 'https://x.example/').text).toBe('just some text');
    expect(readSite('<p>Only a fragment</p>', 'https://x.example/').text).toBe('Only a fragment');
  });
});

describe('readArticle', () => {
  it('returns the main content paragraphs in page order, without navigation, sidebar or footer', async () => {
    const page = await fetchPage(`${server.base}/article.html`, { allowPrivate: true });
    const article = readArticle(page.html, page.url);
    expect(article.title).toBe('How to choose a CRM for a small business');
    const first = article.paragraphs.findIndex((p) => p.startsWith('Most small businesses start tracking'));
    const later = article.paragraphs.findIndex((p) => p.startsWith('Finally, compare total cost'));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(later).toBeGreaterThan(first);
    expect(article.paragraphs).toContain('List your deal stages, from first contact to signed contract.');
    expect(article.paragraphs).toContain('Note who owns each stage and what they need to see.');
    expect(article.paragraphs.filter((p) => p.startsWith('List your deal stages'))).toHaveLength(1);
    expect(article.paragraphs.some((p) => p.includes('Adoption went from 30% to 95%'))).toBe(true);
    const all = article.paragraphs.join('\n');
    for (const chrome of ['Popular posts', 'Ten cold email templates', 'Privacy', 'Blog home', 'console.log', 'Dana Ortiz']) {
      expect(all).not.toContain(chrome);
    }
    expect(article.text).toContain('Start with your sales process');
    expect(article.text).toContain('Syncing with Gmail or Outlook');
  });

  it('keeps paragraphs as the page wrote them (quotable), whitespace collapsed', () => {
    const article = readArticle(fixtureHtml('article'), 'https://blog.example/choose-crm');
    const quoted = 'A customer relationship management system fixes that by keeping every contact, email and deal in one shared place. But the market is crowded, and the wrong choice costs months of migration work.';
    expect(article.paragraphs).toContain(quoted);
    expect(fixtureHtml('article').replace(/\s+/g, ' ')).toContain(quoted);
  });
});
