import { describe, expect, it } from 'vitest';
import { ANSWERS, type AnswerFixture, type Band, type Coverage } from './fixtures/answers.js';
import { CRM_BRANDS } from './fixtures/brands.js';
import { analyzeAnswer, chatPreview, compileBrands, createAnalyzer } from './index.js';
import { CATEGORY_IDS, CATEGORY_NAMES, URL_TYPES, type Analysis } from './types.js';

const band = (score: number): Band => (score < 40 ? 'negative' : score > 60 ? 'positive' : 'neutral');

function run(f: AnswerFixture): Analysis {
  return analyzeAnswer({ text: f.text, references: f.references ?? [], brands: f.brands ?? CRM_BRANDS });
}

describe('analysis of hand-written answers', () => {
  it('has at least 40 answers covering every case the issue lists', () => {
    expect(ANSWERS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(ANSWERS.map((a) => a.name)).size).toBe(ANSWERS.length);
    const covered = new Set(ANSWERS.flatMap((a) => a.covers));
    const required: Coverage[] = [
      'list', 'table', 'bold', 'link', 'possessive', 'misspelling', 'spacing', 'substring', 'common-word', 'negation',
      'mixed-sentiment', 'cited-only', 'placeholder', 'duplicate-url', 'tracking', 'empty', 'non-english', 'long',
    ];
    for (const c of required) expect(covered, c).toContain(c);
    const cites = ANSWERS.flatMap((a) => a.expected.citations);
    for (const c of CATEGORY_NAMES) expect(cites.map((x) => x.category), c).toContain(c);
    for (const t of URL_TYPES) expect(cites.map((x) => x.urlType), t).toContain(t);
    const bands = ANSWERS.flatMap((a) => Object.values(a.expected.mentions).map((m) => m.sentiment));
    for (const b of ['negative', 'neutral', 'positive'] as Band[]) expect(bands, b).toContain(b);
    expect(ANSWERS.some((a) => a.text.length > 8000)).toBe(true);
  });

  describe.each(ANSWERS.map((a) => [a.name, a] as const))('%s', (_name, f) => {
    const a = run(f);
    const brands = f.brands ?? CRM_BRANDS;
    const own = brands.find((b) => b.isOwn)!;

    it('finds the tracked brands, their positions and counts', () => {
      const got = Object.fromEntries(Object.entries(a.brands).map(([id, b]) => [id, { position: b.position, count: b.count }]));
      const want = Object.fromEntries(Object.entries(f.expected.mentions).map(([id, m]) => [id, { position: m.position, count: m.count }]));
      expect(got).toEqual(want);
      expect(a.mentioned).toBe(own.id in f.expected.mentions);
      expect(a.position).toBe(f.expected.mentions[own.id]?.position ?? null);
    });

    it('scores each brand in the expected sentiment band', () => {
      const got = Object.fromEntries(Object.entries(a.brands).map(([id, b]) => [id, `${band(b.sentiment)} (${b.sentiment})`]));
      const want = Object.fromEntries(
        Object.entries(f.expected.mentions).map(([id, m]) => [id, `${m.sentiment} (${a.brands[id]?.sentiment})`]),
      );
      expect(got).toEqual(want);
      for (const b of Object.values(a.brands)) expect(Number.isInteger(b.sentiment) && b.sentiment >= 0 && b.sentiment <= 100).toBe(true);
      expect(a.sentiment).toBe(a.brands[own.id]?.sentiment ?? null);
    });

    it('finds the citations with their domains, categories and page types', () => {
      const got = a.citations.map((c) => ({
        url: c.url,
        domain: c.domain,
        category: CATEGORY_NAMES[c.category],
        urlType: c.urlType === null ? null : URL_TYPES[c.urlType],
      }));
      const want = f.expected.citations.map(({ url, domain, category, urlType }) => ({ url, domain, category, urlType }));
      expect(got).toEqual(want);
      f.expected.citations.forEach((c, i) => {
        if (c.title !== undefined) expect(a.citations[i].title, c.url).toBe(c.title);
        if (c.referenceIndex !== undefined) expect(a.citations[i].referenceIndex, c.url).toBe(c.referenceIndex);
      });
      const ownDomain = 'hubspot.com';
      for (const c of a.citations) {
        expect(c.isOwn).toBe(own.domain !== null && c.domain === ownDomain && own.id === 'hubspot');
        if (c.brandIds.length) expect(c.category).toBe(CATEGORY_IDS.corporate);
      }
      expect(a.citesOwn).toBe(a.citations.some((c) => c.isOwn));
      expect(new Set(a.citations.map((c) => c.url)).size).toBe(a.citations.length);
    });

    it('writes the preview', () => {
      const preview = chatPreview(f.text);
      expect(preview).toBe(f.expected.preview);
      expect([...preview].length).toBeLessThanOrEqual(150);
    });

    if (f.expected.otherBrands) {
      it('lists the untracked brands', () => {
        const names = a.otherBrands.map((o) => o.name);
        for (const n of f.expected.otherBrands!) expect(names).toContain(n);
        for (const b of brands) expect(names).not.toContain(b.name);
      });
    }
  });
});

describe('compiled and raw brands give the same analysis', () => {
  it('createAnalyzer, analyzeAnswer with specs and with compiled matchers agree', () => {
    const compiled = compileBrands(CRM_BRANDS);
    const analyze = createAnalyzer(compiled);
    for (const f of ANSWERS.filter((x) => !x.brands)) {
      const a = analyze(f.text, f.references ?? []);
      expect(analyzeAnswer({ text: f.text, references: f.references ?? [], brands: compiled })).toEqual(a);
      expect(analyzeAnswer({ text: f.text, references: f.references ?? [], brands: CRM_BRANDS })).toEqual(a);
    }
  });
});
