import { describe, expect, it } from 'vitest';
import { compileBrands } from './brands.js';
import { parseDoc } from './doc.js';
import { CRM_BRANDS } from './fixtures/brands.js';
import { findMentions } from './mentions.js';
import { brandSentiments, clauses, toScale } from './sentiment.js';
import { vaderCompound } from './vader.js';

const cb = compileBrands(CRM_BRANDS);
const id = (b: number) => cb.brands[b].id;

function scores(text: string): Record<string, number> {
  const doc = parseDoc(text);
  const s = brandSentiments(doc, findMentions(doc, cb), cb.brands.length);
  return Object.fromEntries(s.map((v, b) => [id(b), Math.round(v)]).filter(([, v]) => !Number.isNaN(v)));
}

function clauseList(text: string): Array<[string, string[]]> {
  const doc = parseDoc(text);
  return clauses(doc, 0, findMentions(doc, cb)).map(([t, bs]) => [t.trim(), bs.map(id)]);
}

describe('clauses', () => {
  it('cuts at contrast words and gives each brand its own clause', () => {
    expect(clauseList('HubSpot is great, while Salesforce is clunky.')).toEqual([
      ['HubSpot is great,', ['hubspot']],
      ['while Salesforce is clunky.', ['salesforce']],
    ]);
    expect(clauseList('Unlike Salesforce, Pipedrive is simple.')).toEqual([
      ['Unlike Salesforce,', ['salesforce']],
      ['Pipedrive is simple.', ['pipedrive']],
    ]);
    expect(clauseList('HubSpot is easier than Salesforce.')).toEqual([
      ['HubSpot is easier', ['hubspot']],
      ['than Salesforce.', ['salesforce']],
    ]);
  });

  it('a list of names shares the next clause', () => {
    expect(clauseList('HubSpot, Pipedrive and Zoho are excellent, but Copper is buggy.')).toEqual([
      ['HubSpot, Pipedrive and Zoho are excellent,', ['hubspot', 'pipedrive', 'zoho']],
      ['but Copper is buggy.', ['copper']],
    ]);
  });

  it('a clause without names belongs to the one before it', () => {
    expect(clauseList('HubSpot is great, but pricey, whereas Zoho is cheap.')).toEqual([
      ['HubSpot is great, but pricey,', ['hubspot']],
      ['whereas Zoho is cheap.', ['zoho']],
    ]);
  });

  it('"and" between two full clauses about different names separates them', () => {
    expect(clauseList('Salesforce targets enterprises and HubSpot is great.')).toEqual([
      ['Salesforce targets enterprises', ['salesforce']],
      ['and HubSpot is great.', ['hubspot']],
    ]);
  });
});

describe('brandSentiments', () => {
  it('scores a sentence with one brand as a whole, negation-aware', () => {
    expect(scores('HubSpot is not great.').hubspot).toBeLessThan(40);
    expect(scores('HubSpot is not bad.').hubspot).toBeGreaterThan(60);
    expect(scores('HubSpot has a pipeline view.').hubspot).toBe(50);
  });

  it('does not give one brand the praise or blame of another in the same sentence', () => {
    const s = scores('HubSpot is excellent for marketing, while Salesforce is clunky and overpriced.');
    expect(s.hubspot).toBeGreaterThan(60);
    expect(s.salesforce).toBeLessThan(40);
  });

  it('averages over the sentences that say something of the brand and ignores the others', () => {
    const s = scores('Zoho is excellent. The weather is awful. Zoho has an API. Zoho is clunky.');
    const excellent = toScale(vaderCompound('Zoho is excellent.'));
    const clunky = toScale(vaderCompound('Zoho is clunky.'));
    expect(s.zoho).toBe(Math.round((excellent + clunky) / 2));
    expect(scores('### Zoho\nZoho is excellent.').zoho).toBe(Math.round(excellent));
    expect(scores('Zoho has an API. Zoho is on the web.').zoho).toBe(50);
  });

  it('reads no praise or blame in the words of a name', () => {
    const cb = compileBrands([{ id: 'lac', name: 'Less Annoying CRM', aliases: [], domain: null, isOwn: true }]);
    const doc = parseDoc('Less Annoying CRM has a contacts list.');
    expect(brandSentiments(doc, findMentions(doc, cb), 1)[0]).toBe(50);
  });

  it('reads descriptive, balanced, negated and comparative sentences as a careful reader does', () => {
    expect(scores('Zoho offers a free plan and is popular with startups.').zoho).toBe(50);
    expect(scores('Zoho has strong reporting, but it gets expensive as you grow.').zoho).toBeGreaterThanOrEqual(40);
    expect(scores('Zoho has strong reporting, but it gets expensive as you grow.').zoho).toBeLessThanOrEqual(60);
    expect(scores("Zoho isn't hard to learn.").zoho).toBeGreaterThan(60);
    expect(scores("Zoho won't let you down.").zoho).toBeGreaterThan(60);
    expect(scores('Zoho beats most rivals on reporting.').zoho).toBeGreaterThan(60);
    const s = scores("Reviewers who compared HubSpot with Zoho found Zoho's interface confusing and outdated.");
    expect(s.hubspot).toBe(50);
    expect(s.zoho).toBeLessThan(40);
    const t = scores('Zoho is more expensive than HubSpot, and its support is slower too.');
    expect(t.zoho).toBeLessThan(40);
    expect(t.hubspot).toBe(50);
  });

  it('is NaN (absent) for brands not named', () => {
    expect(Object.keys(scores('Pipedrive is fine.'))).toEqual(['pipedrive']);
  });
});
