import { describe, expect, it } from 'vitest';
import { readSite, type SiteInfo } from '../pages/extract.js';
import { FIXTURE_SITES, fixtureHtml } from '../../../test/fixtures/page-fixtures.js';
import { builtinSuggestions, createBuiltinWriter } from './builtin.js';
import { inferMarket, offeringPhrase, placeName } from './infer.js';
import type { SuggestInput, Suggestions } from './types.js';

const BRANDS: Record<(typeof FIXTURE_SITES)[number], string> = {
  'crm-vendor': 'Pipewise',
  'running-shoes': 'Stridewell',
  'project-management': 'Taskloom',
  bakery: 'Maison Levain',
};
const MARKET_WORDS: Record<(typeof FIXTURE_SITES)[number], RegExp> = {
  'crm-vendor': /\bCRM\b/,
  'running-shoes': /running shoe/i,
  'project-management': /project management/i,
  bakery: /bakery|bakeries|sourdough|croissant|cake|pastr/i,
};

const site = (name: string): SiteInfo => readSite(fixtureHtml(name), `https://${name}.example/`);

function checkShape(out: Suggestions, input: SuggestInput) {
  expect(out.prompts).toHaveLength(input.count);
  const contents = out.prompts.map((p) => p.content);
  expect(new Set(contents.map((c) => c.toLowerCase())).size).toBe(input.count);
  for (const c of contents) {
    expect(c.trim()).toBe(c);
    expect(c.length).toBeGreaterThan(10);
    expect(c).toMatch(/^[A-Z0-9]/);
    expect(c).not.toMatch(/[{}]|undefined|null/);
  }
  expect(out.topics.length).toBeGreaterThanOrEqual(1);
  expect(out.topics.length).toBeLessThanOrEqual(3);
  const names = out.topics.map((t) => t.name);
  expect(new Set(names).size).toBe(names.length);
  for (const t of out.topics) {
    expect(t.name.trim()).not.toBe('');
    expect(t.description.trim()).not.toBe('');
  }
  for (const p of out.prompts) expect(names).toContain(p.topic);
  for (const name of names) expect(out.prompts.some((p) => p.topic === name)).toBe(true);
}

const mentions = (out: Suggestions, brand: string) => out.prompts.filter((p) => p.content.toLowerCase().includes(brand.toLowerCase())).length;

describe('built-in writer: market inference on fixture sites', () => {
  it.each([
    ['crm-vendor', 'crm'],
    ['running-shoes', 'running-shoes'],
    ['project-management', 'project-management'],
    ['bakery', 'bakery'],
  ] as const)('%s is read as the %s market', (fixture, market) => {
    const inferred = inferMarket(BRANDS[fixture], site(fixture));
    expect(inferred.kind).toBe('catalogue');
    expect(inferred.kind === 'catalogue' && inferred.market.id).toBe(market);
  });

  it.each(FIXTURE_SITES)('%s: prompts are about the market and mostly do not name the brand', (fixture) => {
    for (const count of [3, 5, 10, 25, 50]) {
      const input = { brandName: BRANDS[fixture], site: site(fixture), count };
      const out = builtinSuggestions(input);
      checkShape(out, input);
      const onTopic = out.prompts.filter((p) => MARKET_WORDS[fixture].test(p.content)).length;
      expect(onTopic).toBeGreaterThanOrEqual(Math.ceil(count * 0.6));
      expect(mentions(out, BRANDS[fixture])).toBeLessThanOrEqual(Math.max(1, Math.floor(count / 5)));
      if (count === 3) expect(mentions(out, BRANDS[fixture])).toBe(0);
    }
  });

  it('writes a buyer-like mix of intents for the CRM vendor', () => {
    const out = builtinSuggestions({ brandName: 'Pipewise', site: site('crm-vendor'), count: 5 });
    expect(out.prompts.map((p) => p.content)).toEqual([
      'What is the best CRM for small businesses?',
      'What features should I look for in a CRM?',
      'How much does a CRM cost for small businesses?',
      'Which CRM tools integrate with Outlook?',
      'Is Pipewise a good CRM for small businesses?',
    ]);
    expect(out.topics.map((t) => t.name)).toEqual(['CRM software', 'CRM features and integrations', 'CRM pricing and plans']);
  });

  it('uses the town a local business names on its site', () => {
    const out = builtinSuggestions({ brandName: 'Maison Levain', site: site('bakery'), count: 3, location: 'US' });
    expect(out.prompts[0].content).toBe('What is the best bakery in Portland?');
  });
});

describe('built-in writer: behaviour', () => {
  it('is deterministic', async () => {
    const input = { brandName: 'Taskloom', site: site('project-management'), count: 12, location: 'GB', competitors: ['Asana', 'Trello'] };
    const a = await createBuiltinWriter().suggestTopicsAndPrompts(input);
    const b = await createBuiltinWriter().suggestTopicsAndPrompts(structuredClone(input));
    expect(a).toEqual(b);
    expect(builtinSuggestions(input)).toEqual(a);
  });

  it('says it is the built-in writer', () => {
    const writer = createBuiltinWriter();
    expect(writer.name).toBe('builtin');
    expect(writer.builtIn).toBe(true);
  });

  it('compares named competitors, and competitors with each other', () => {
    const out = builtinSuggestions({ brandName: 'Pipewise', site: site('crm-vendor'), count: 10, competitors: ['HubSpot', 'Salesforce', 'pipewise', ' '] });
    checkShape(out, { brandName: 'Pipewise', site: null, count: 10 });
    const contents = out.prompts.map((p) => p.content);
    expect(contents).toContain('Pipewise vs HubSpot: which CRM is better for small businesses?');
    expect(contents).toContain('HubSpot vs Salesforce: which CRM should I choose?');
    expect(contents.join('\n')).not.toMatch(/Pipewise vs pipewise/i);
    expect(mentions(out, 'Pipewise')).toBeLessThanOrEqual(2);
  });

  it('writes location-aware prompts when a location is given', () => {
    const out = builtinSuggestions({ brandName: 'Taskloom', site: site('project-management'), count: 20, location: 'US' });
    expect(out.prompts.some((p) => p.content.includes('in the United States'))).toBe(true);
    const shoes = builtinSuggestions({ brandName: 'Stridewell', site: site('running-shoes'), count: 20, location: 'Berlin' });
    expect(shoes.prompts.some((p) => p.content === 'Where can I buy running shoes in Berlin?')).toBe(true);
  });

  it('works without a site: from the brand name alone', () => {
    const crm = builtinSuggestions({ brandName: 'Acme CRM', site: null, count: 5 });
    checkShape(crm, { brandName: 'Acme CRM', site: null, count: 5 });
    expect(crm.prompts[0].content).toBe('What is the best CRM for small businesses?');
    const bakery = builtinSuggestions({ brandName: 'Sunrise Bakery', site: null, count: 3 });
    expect(bakery.prompts[0].content).toBe('What is the best bakery near me?');

    for (const count of [1, 3, 5, 25]) {
      const input = { brandName: 'Zorblax', site: null, count };
      const out = builtinSuggestions(input);
      checkShape(out, input);
      expect(out.prompts.every((p) => p.content.includes('Zorblax'))).toBe(true);
    }
  });

  it('falls back to a phrase the site uses about itself when the market is not in the catalogue', () => {
    const leather: SiteInfo = {
      title: 'Hidebound | Handmade leather bags for everyday carry',
      description: null,
      headings: ['Built to last'],
      siteName: null,
      language: 'en',
      text: '',
    };
    expect(offeringPhrase('Hidebound', leather)).toBe('handmade leather bags');
    const out = builtinSuggestions({ brandName: 'Hidebound', site: leather, count: 5 });
    checkShape(out, { brandName: 'Hidebound', site: leather, count: 5 });
    expect(out.prompts[0].content).toBe('Who offers the best handmade leather bags?');
    expect(mentions(out, 'Hidebound')).toBe(1);

    const described: SiteInfo = { ...leather, title: 'Welcome', description: 'Quillfeather is the leading fountain pen repair service for collectors.' };
    expect(offeringPhrase('Quillfeather', described)).toBe('fountain pen repair service');
  });

  it('writes one prompt and one topic for count 1', () => {
    const out = builtinSuggestions({ brandName: 'Pipewise', site: site('crm-vendor'), count: 1 });
    expect(out.prompts).toHaveLength(1);
    expect(out.topics).toHaveLength(1);
  });

  it('refuses a count that is not a positive integer, and an empty brand name', () => {
    expect(() => builtinSuggestions({ brandName: 'X', site: null, count: 0 })).toThrow(RangeError);
    expect(() => builtinSuggestions({ brandName: 'X', site: null, count: 2.5 })).toThrow(RangeError);
    expect(() => builtinSuggestions({ brandName: '  ', site: null, count: 3 })).toThrow(RangeError);
  });

  it('names regions in English', () => {
    expect(placeName('US')).toBe('the United States');
    expect(placeName('de')).toBe('Germany');
    expect(placeName('Lyon')).toBe('Lyon');
    expect(placeName(null)).toBeNull();
  });
});
