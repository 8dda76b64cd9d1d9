import { describe, expect, it } from 'vitest';
import { brandDomain, compileBrands, withinOneEdit } from './brands.js';
import { parseDoc } from './doc.js';
import { CHAT_BRANDS, CRM_BRANDS } from './fixtures/brands.js';
import { findMentions } from './mentions.js';
import type { BrandSpec } from './types.js';

function named(text: string, brands: BrandSpec[] = CRM_BRANDS): string[] {
  const cb = compileBrands(brands);
  return findMentions(parseDoc(text), cb).map((m) => cb.brands[m.brand].id);
}

describe('compileBrands', () => {
  it('indexes names, aliases and derived short forms; flags common words', () => {
    const cb = compileBrands(CRM_BRANDS);
    const variant = (w: string) => cb.byFirst.get(w) ?? [];
    expect(variant('close').map((v) => [v.tokens.join(' '), v.common])).toEqual([['close crm', false], ['close', true]]);
    expect(variant('monday').map((v) => v.tokens.join(' '))).toEqual(expect.arrayContaining(['monday com', 'monday crm', 'monday']));
    expect(variant('monday').find((v) => v.tokens.length === 1)).toMatchObject({ common: true, alwaysCapitalised: true });
    expect(variant('hubspot')[0].common).toBe(false);
    expect(cb.own).toBe(0);
  });

  it('maps each brand domain to its registrable domain', () => {
    expect(brandDomain('https://www.Salesforce.com/eu/')).toBe('salesforce.com');
    expect(brandDomain('shop.example.co.uk')).toBe('example.co.uk');
    expect(brandDomain(null)).toBeNull();
    const cb = compileBrands(CRM_BRANDS);
    expect(cb.domains.get('salesforce.com')).toEqual([1]);
  });

  it('skips empty and one-letter names', () => {
    const cb = compileBrands([{ id: 'x', name: 'X', aliases: ['', '  '], domain: null, isOwn: true }]);
    expect(cb.keys.size).toBe(0);
    expect(named('X is great', [{ id: 'x', name: 'X', aliases: [], domain: null, isOwn: true }])).toEqual([]);
  });
});

describe('withinOneEdit', () => {
  const w = (a: string, b: string) => withinOneEdit(a, 0, a.length, b);
  it('accepts one insertion, deletion, substitution or swap, case-insensitively', () => {
    expect(w('Hubspt', 'hubspot')).toBe(true);
    expect(w('Hubspoot', 'hubspot')).toBe(true);
    expect(w('Hubspat', 'hubspot')).toBe(true);
    expect(w('Hubsopt', 'hubspot')).toBe(true);
    expect(w('HUBSPOT', 'hubspot')).toBe(true);
  });
  it('refuses two edits', () => {
    expect(w('Hbspt', 'hubspot')).toBe(false);
    expect(w('Hubstaff', 'hubspot')).toBe(false);
    expect(w('Hbuspto', 'hubspot')).toBe(false);
  });
});

describe('findMentions', () => {
  it('matches any case, possessives, and spacing variants, but not substrings', () => {
    expect(named("hubspot, HubSpot's, HUBSPOT, Hub Spot, Hub-Spot")).toEqual(Array(5).fill('hubspot'));
    expect(named('Pipe Drive and Pipe-drive')).toEqual(['pipedrive', 'pipedrive']);
    expect(named('Hubspotting, notional, pipedrivers, Zohoo')).toEqual([]);
  });

  it('matches names with a glued trademark sign or an ampersand between spaces', () => {
    const brands: BrandSpec[] = [
      { id: 'd', name: 'Discover it® Miles', aliases: [], domain: null, isOwn: true },
      { id: 'u', name: 'United Gateway℠ Card', aliases: [], domain: null, isOwn: false },
      { id: 'b', name: 'Briggs & Riley', aliases: [], domain: null, isOwn: false },
    ];
    expect(named('Try the Discover it® Miles or the United Gateway℠ Card; Briggs & Riley bags last.', brands)).toEqual(['d', 'u', 'b']);
    expect(named('Try Discover it Miles, Briggs&Riley, Briggs and Riley.', brands)).toEqual(['d', 'b']);
    const sq: BrandSpec[] = [{ id: 'h', name: 'hOmeLabs 4,500 Sq. Ft Dehumidifier', aliases: [], domain: null, isOwn: true }];
    expect(named('The hOmeLabs 4,500 Sq. Ft Dehumidifier is big; hOmeLabs 4, 500 Sq. Ft Dehumidifier is not it.', sq)).toEqual(['h']);
  });

  it('prefers the longest name: "Zoho CRM" once, not Zoho and then CRM', () => {
    expect(named('Zoho CRM and Zoho')).toEqual(['zoho', 'zoho']);
  });

  it('accepts one-edit typos of names of six letters or more, not of shorter names or real words', () => {
    expect(named('Salesfroce, Pipedirve, Freshsale')).toEqual(['salesforce', 'pipedrive', 'freshsales']);
    expect(named('Zohi and Clsoe')).toEqual([]);
    // "notions" is a word: not a typo of Notion (which is a common word anyway)
    expect(named('notions')).toEqual([]);
  });

  it('never matches inside URLs', () => {
    expect(named('https://hubspot.com/pricing and www.pipedrive.com/features and zoho.com/crm')).toEqual([]);
  });

  it('reads a bare domain in prose as the name', () => {
    expect(named('monday.com and close.com')).toEqual(['monday', 'close']);
  });

  describe('common-word names', () => {
    it('"Close" only where used as a name', () => {
      expect(named('Close the deal. We close deals. Close CRM. Close is good. Close, Pipedrive. Close.io works. **Close** [Close](x)')).toEqual([
        'close', 'close', 'close', 'pipedrive', 'close', 'close', 'close',
      ]);
      expect(named('Many teams pick Close for calling.')).toEqual(['close']);
      expect(named('| Close | $49 |')).toEqual(['close']);
      expect(named('- Close: calling built in\n- Close the loop')).toEqual(['close']);
    });

    it('"Monday": a capital is no sign, only cues and markup', () => {
      expect(named('Monday morning. On Monday, we ship. See you Monday.')).toEqual([]);
      expect(named('Monday is a work OS. **Monday** and monday.com and monday CRM.')).toEqual(['monday', 'monday', 'monday', 'monday']);
    });

    it('chat brands: slack, zoom, teams, apple', () => {
      expect(named('cut some slack, zoom in, two teams, apple pie', CHAT_BRANDS)).toEqual([]);
      expect(named('We use Slack and Zoom; our Teams setup is new. Apple makes FaceTime.', CHAT_BRANDS)).toEqual(['slack', 'zoom', 'teams', 'apple']);
      expect(named('Microsoft Teams is included.', CHAT_BRANDS)).toEqual(['teams']);
    });

    it('title-case headings are no evidence', () => {
      expect(named('## How to Close More Deals')).toEqual([]);
      expect(named('## Why Close Wins')).toEqual(['close']);
    });
  });

  it('finds names in CJK text without spaces', () => {
    expect(named('HubSpotとSalesforceを比較。Pipedriveは安い。')).toEqual(['hubspot', 'salesforce', 'pipedrive']);
  });
});

describe('what is cited is not named, and ordinary words are not brands', () => {
  const FRESH: BrandSpec[] = [
    { id: 'hubspot', name: 'HubSpot', aliases: [], domain: 'hubspot.com', isOwn: true },
    { id: 'freshsales', name: 'Freshsales', aliases: [], domain: 'freshworks.com', isOwn: false },
    { id: 'bigcommerce', name: 'BigCommerce', aliases: [], domain: 'bigcommerce.com', isOwn: false },
  ];

  it('a brand only in a citation chip or a URL is not named', () => {
    expect(named('Pick a CRM your reps will use. ([hubspot.com](https://www.hubspot.com/pricing?utm_source=openai))')).toEqual([]);
    expect(named('Prices: hubspot.com/pricing and [pipedrive.com/pricing](https://www.pipedrive.com/pricing).')).toEqual([]);
    expect(named('monday.com is a work OS.')).toEqual(['monday']);
  });

  it('a lower-case name after a determiner or a possessive is the ordinary noun', () => {
    expect(named("A company's salesforce needs clean data; your salesforce too.")).toEqual([]);
    expect(named('We moved from salesforce last year.')).toEqual(['salesforce']);
  });

  it('a common-word name listed with a tracked brand is a name; "Close the loop" is not', () => {
    expect(named('Close and Pipedrive both cover pipelines. Close the loop with marketing.')).toEqual(['close', 'pipedrive']);
    expect(named('Pipedrive, Close: both fine.')).toEqual(['pipedrive', 'close']);
  });

  it("the vendor's family name counts before a product word; dictionary words written apart need capitals", () => {
    expect(named('Freshworks CRM is cheap. Freshworks also sells a help desk.', FRESH)).toEqual(['freshsales']);
    expect(named('Big commerce moments need a tested checkout. Big Commerce is fine.', FRESH)).toEqual(['bigcommerce']);
  });
});
