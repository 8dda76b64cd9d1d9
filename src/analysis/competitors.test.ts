import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CRM_BRANDS } from './fixtures/brands.js';
import { ANSWERS } from './fixtures/answers.js';
import { analyzeAnswer, chatPreview, createAnalyzer, detectCompetitors } from './index.js';
import { cleanName } from './competitors.js';

const own = CRM_BRANDS[0];
const known = CRM_BRANDS.slice(1, 4); // Salesforce, Pipedrive, Zoho CRM

const ANSWERS_WITH_NEW_NAMES = [
  {
    text: `Top picks:\n\n1. **HubSpot** – all-in-one.\n2. **Attio** – flexible data model.\n3. **Folk** – for agencies.\n4. **Pricing**: varies.\n\nAttio is growing fast; see https://attio.com/pricing.`,
    references: [],
  },
  {
    text: `- Salesforce: enterprise standard\n- Attio: modern and fast\n- Twenty: open source (https://twenty.com/)\n- Reddit: lots of opinions`,
    references: [{ title: 'Twenty', link: 'https://twenty.com/', snippet: '', reference_index: 1 }],
  },
  {
    text: `| CRM | Price |\n|---|---|\n| Attio | $29 |\n| Folk | $20 |\n| Zoho CRM | $14 |\n\nMost teams also use Google Sheets.`,
    references: [{ title: 'folk', link: 'https://www.folk.app/', snippet: '', reference_index: 1 }],
  },
  {
    text: `Close is worth a look, as is Nimble. **Key Features** differ. The CRM market keeps growing. **Twenty** is new.`,
    references: [{ title: '', link: 'https://www.nimble.com/', snippet: '', reference_index: 1 }],
  },
];

describe('detectCompetitors', () => {
  it('ranks untracked brands by the number of answers naming them', () => {
    const found = detectCompetitors(ANSWERS_WITH_NEW_NAMES, own, known);
    expect(found[0]).toEqual({ name: 'Attio', domain: 'attio.com', count: 3 });
    expect(found).toContainEqual({ name: 'Folk', domain: 'folk.app', count: 2 });
    expect(found).toContainEqual({ name: 'Twenty', domain: 'twenty.com', count: 2 });
    // Close is not "known" here, but it is named in only one answer
    expect(found.map((f) => f.name)).not.toContain('Close');
  });

  it('excludes the own brand, known competitors, labels, sources and dictionary words', () => {
    const names = detectCompetitors(ANSWERS_WITH_NEW_NAMES, own, known).map((f) => f.name);
    for (const n of ['HubSpot', 'Salesforce', 'Zoho CRM', 'Pricing', 'Reddit', 'Key Features', 'CRM', 'Price']) expect(names).not.toContain(n);
  });

  it('honours the limit, and with one answer needs no recurrence', () => {
    expect(detectCompetitors(ANSWERS_WITH_NEW_NAMES, own, known, 1)).toHaveLength(1);
    const single = detectCompetitors([ANSWERS_WITH_NEW_NAMES[3]], own, known);
    // Twenty is a dictionary word: a brand only where a cited domain carries it, and this answer cites none
    expect(single.map((f) => f.name)).toEqual(['Nimble']);
    expect(detectCompetitors([], own, known)).toEqual([]);
  });

  it('a known competitor is never proposed, whatever its spelling', () => {
    const found = detectCompetitors([{ text: '- **Pipe Drive**: simple\n- **Zoho**: cheap', references: [] }], own, known);
    expect(found).toEqual([]);
  });
});

describe('cleanName', () => {
  it('strips markdown, possessives and trailing punctuation; refuses phrases', () => {
    expect(cleanName('**Attio’s**:')).toBe('Attio');
    expect(cleanName('monday.com')).toBe('monday.com');
    expect(cleanName('See HubSpot pricing')).toBeNull();
    expect(cleanName('a very long phrase of words')).toBeNull();
    expect(cleanName('123')).toBeNull();
  });
});

describe('analysis never fails and keeps its invariants', () => {
  const analyze = createAnalyzer(CRM_BRANDS);
  const pieces = ['HubSpot', 'Close', 'monday.com', ' not great ', ' but ', '**', '|', '\n- ', '\n', '. ', 'https://a.com/x?utm_source=y', '[Zoho](https://zoho.com/)', 'é', '日本', '😀', "'s"];
  const text = fc.oneof(fc.string({ maxLength: 400 }), fc.array(fc.constantFrom(...pieces), { maxLength: 60 }).map((xs) => xs.join('')));

  it('on arbitrary text', () => {
    fc.assert(
      fc.property(text, (t) => {
        const a = analyze(t, []);
        expect([...chatPreview(t)].length).toBeLessThanOrEqual(150);
        const positions = Object.values(a.brands).map((b) => b.position).sort((x, y) => x - y);
        expect(positions).toEqual(positions.map((_, i) => i + 1));
        for (const b of Object.values(a.brands)) {
          expect(b.count).toBeGreaterThan(0);
          expect(Number.isInteger(b.sentiment) && b.sentiment >= 0 && b.sentiment <= 100).toBe(true);
        }
        expect(new Set(a.citations.map((c) => c.url)).size).toBe(a.citations.length);
      }),
      { numRuns: 300 },
    );
  });

  it('tolerates missing fields in references', () => {
    const refs = [{ link: 'https://a.com/' }, { title: 'x', link: '' }, {}] as never;
    expect(analyzeAnswer({ text: ANSWERS[0].text, references: refs, brands: CRM_BRANDS }).citations).toHaveLength(1);
  });
});
