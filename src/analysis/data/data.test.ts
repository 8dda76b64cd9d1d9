import { parse } from 'tldts';
import { describe, expect, it } from 'vitest';
import { compileBrands } from '../brands.js';
import { categorize, hostInfo, pageType } from '../categories.js';
import { CATEGORY_IDS, URL_TYPES, type CategoryName } from '../types.js';
import { normalizeUrl } from '../urls.js';
import { vaderLexicon } from '../vader.js';
import { COMPANY_DOMAINS } from './company-domains.js';
import { COMPETITOR_STOPLIST } from './competitor-stoplist.js';
import { commonWords, isCommonWord } from './dictionary.js';
import { EDITORIAL_DOMAINS } from './editorial-domains.js';
import { INSTITUTIONAL_DOMAINS, INSTITUTIONAL_SECOND_LEVELS, INSTITUTIONAL_TLDS } from './institutional-domains.js';
import { LEXICON_ADDITIONS, LEXICON_OVERRIDES, PHRASE_VALENCES } from './lexicon-additions.js';
import { PAGE_TYPE_RULES } from './page-types.js';
import { PLACEHOLDER_HOSTS, PLACEHOLDER_TLDS } from './placeholders.js';
import { REFERENCE_DOMAINS, REFERENCE_SUBDOMAINS } from './reference-domains.js';
import { TRACKING_PARAMS, TRACKING_PARAM_PREFIXES } from './tracking-params.js';
import { UGC_DOMAINS, UGC_SUBDOMAINS } from './ugc-domains.js';
import * as words from './words.js';

const NO_NAMES = (_label: string) => false;

function categoryOf(url: string, named = NO_NAMES): CategoryName {
  const n = normalizeUrl(url)!;
  const info = hostInfo(n.host)!;
  const id = categorize(info, pageType(n.host, n.path), false, named);
  return (Object.keys(CATEGORY_IDS) as CategoryName[]).find((k) => CATEGORY_IDS[k] === id)!;
}

function expectCleanList(list: readonly string[]) {
  expect(list.length).toBeGreaterThan(0);
  for (const x of list) expect(x, x).toBe(x.toLowerCase().trim());
  expect(new Set(list).size, 'no duplicates').toBe(list.length);
}

const CATEGORY_LISTS: Array<[string, readonly string[], CategoryName]> = [
  ['editorial', EDITORIAL_DOMAINS, 'editorial'],
  ['institutional', INSTITUTIONAL_DOMAINS, 'institutional'],
  ['reference', REFERENCE_DOMAINS, 'reference'],
  ['ugc', UGC_DOMAINS, 'ugc'],
];

describe.each(CATEGORY_LISTS)('%s domains', (_name, list, category) => {
  it('is lower-case, without duplicates, of public host names', () => {
    expectCleanList(list);
    for (const d of list) {
      const p = parse(d);
      expect(p.isIcann || p.publicSuffix === d, d).toBe(true);
      expect(p.domain ?? d, d).not.toBeNull();
    }
  });

  it(`puts every entry, and its pages and sub-domains, in ${category}`, () => {
    for (const d of list) {
      expect(categoryOf(`https://${d}/`), d).toBe(category);
      expect(categoryOf(`https://${d}/some/page?utm_source=x`), d).toBe(category);
      if (!d.startsWith('www.')) expect(categoryOf(`https://www.${d}/a`), `www.${d}`).toBe(category);
    }
  });
});

describe('curated lists', () => {
  it('never list one host in two categories', () => {
    const seen = new Map<string, string>();
    for (const [name, list] of CATEGORY_LISTS) {
      for (const d of list) {
        expect(seen.get(d), `${d} in ${name} and ${seen.get(d)}`).toBeUndefined();
        seen.set(d, name);
      }
    }
  });

  it('company domains are corporate unless a more specific list knows the host', () => {
    expectCleanList(COMPANY_DOMAINS);
    for (const d of COMPANY_DOMAINS) expect(categoryOf(`https://${d}/about`), d).toBe('corporate');
    // host-level entries win over the company list
    expect(categoryOf('https://docs.aws.amazon.com/lambda/')).toBe('reference');
    expect(categoryOf('https://support.google.com/a/answer/1')).toBe('reference');
  });

  it('institutional suffix rules cover governments and universities everywhere', () => {
    expectCleanList(INSTITUTIONAL_TLDS);
    expectCleanList(INSTITUTIONAL_SECOND_LEVELS);
    for (const url of [
      'https://www.nasa.gov/', 'https://www.cdc.gov/flu', 'https://www.ca.gov/', 'https://www.stanford.edu/',
      'https://www.army.mil/', 'https://www.who.int/news', 'https://www.cam.ac.uk/', 'https://www.u-tokyo.ac.jp/en/',
      'https://www.gov.uk/browse', 'https://www.service.gov.au/', 'https://www.interieur.gouv.fr/', 'https://www.gob.mx/',
      'https://www.unimelb.edu.au/', 'https://www.digital.go.jp/',
    ]) expect(categoryOf(url), url).toBe('institutional');
    // an .org is not institutional by itself
    expect(categoryOf('https://www.somecompany.org/blog')).toBe('other');
  });

  it('sub-domain rules: documentation and help are reference, communities are ugc', () => {
    expectCleanList(REFERENCE_SUBDOMAINS);
    expectCleanList(UGC_SUBDOMAINS);
    for (const s of REFERENCE_SUBDOMAINS) expect(categoryOf(`https://${s}.acmewidgets.com/x`), s).toBe('reference');
    for (const s of UGC_SUBDOMAINS) expect(categoryOf(`https://${s}.acmewidgets.com/x`), s).toBe('ugc');
  });

  it('other company sites by name in the answer or by a product page; the rest is other', () => {
    expect(categoryOf('https://acmewidgets.com/about', (label) => label === 'acmewidgets')).toBe('corporate');
    expect(categoryOf('https://acmewidgets.com/pricing')).toBe('corporate');
    expect(categoryOf('https://acmewidgets.com/about')).toBe('other');
  });
});

describe('placeholders', () => {
  it('are lower-case lists whose hosts, sub-domains and reserved names are never citations', () => {
    expectCleanList(PLACEHOLDER_HOSTS);
    expectCleanList(PLACEHOLDER_TLDS);
    for (const h of PLACEHOLDER_HOSTS) {
      expect(hostInfo(h)?.placeholder ?? true, h).toBe(true);
      if (h.includes('.')) expect(hostInfo(`www.${h}`)?.placeholder, `www.${h}`).toBe(true);
    }
    for (const t of PLACEHOLDER_TLDS) expect(hostInfo(`shop.${t}`)?.placeholder ?? true, t).toBe(true);
    expect(hostInfo('examples.com')?.placeholder).toBe(false);
  });
});

describe('tracking parameters', () => {
  it('are dropped, every one of them, while other parameters stay', () => {
    expectCleanList(TRACKING_PARAMS);
    expectCleanList(TRACKING_PARAM_PREFIXES);
    for (const p of TRACKING_PARAMS) expect(normalizeUrl(`https://a.com/x?id=1&${p}=v`)!.url, p).toBe('https://a.com/x?id=1');
    for (const p of TRACKING_PARAM_PREFIXES) expect(normalizeUrl(`https://a.com/x?${p}source=v&q=2`)!.url, p).toBe('https://a.com/x?q=2');
  });
});

describe('page-type rules', () => {
  const examples: Record<(typeof URL_TYPES)[number], string[]> = {
    homepage: ['https://www.acme.io/', 'https://acme.io/?lang=en'],
    article: ['https://acme.io/blog/launch', 'https://news.acme.io/2024/05/01/q1', 'https://acme.io/how-to-choose-a-crm', 'https://www.g2.com/products/acme/reviews'],
    listicle: ['https://acme.io/best-crm-tools', 'https://acme.io/blog/top-10-crms', 'https://acme.io/the-best-crm'],
    comparison: ['https://acme.io/hubspot-vs-salesforce', 'https://acme.io/vs/pipedrive', 'https://acme.io/compare', 'https://acme.io/salesforce-alternatives'],
    product: ['https://acme.io/pricing', 'https://acme.io/products/crm', 'https://acme.io/features', 'https://acme.io/plans'],
    documentation: ['https://docs.acme.io/start', 'https://acme.io/docs/api', 'https://developer.acme.io/x', 'https://acme.readthedocs.io/en/latest/', 'https://acme.zendesk.com/hc/en-us/articles/1'],
    forum_thread: ['https://www.reddit.com/r/crm/comments/abc/x/', 'https://www.quora.com/What-is-a-CRM', 'https://stackoverflow.com/questions/1/x', 'https://community.acme.io/t/topic/1', 'https://github.com/acme/sdk/issues/12'],
    video: ['https://www.youtube.com/watch?v=x', 'https://youtu.be/x', 'https://vimeo.com/1234', 'https://www.youtube.com/shorts/abc'],
    other: ['https://acme.io/about', 'https://www.quora.com/profile/Jane-Doe', 'https://x.com/acme/status/1'],
  };

  it.each(Object.entries(examples))('%s', (type, urls) => {
    for (const url of urls) {
      const n = normalizeUrl(url)!;
      expect(URL_TYPES[pageType(n.host, n.path)], url).toBe(type);
    }
  });

  it('every rule is reached by an example', () => {
    const hits = new Set<number>();
    for (const urls of Object.values(examples)) {
      for (const url of urls) {
        const n = normalizeUrl(url)!;
        const i = PAGE_TYPE_RULES.findIndex((r) => (!r.host || r.host.test(n.host)) && (!r.path || r.path.test(n.path)));
        if (i >= 0 && URL_TYPES[pageType(n.host, n.path)] === PAGE_TYPE_RULES[i].type) hits.add(i);
      }
    }
    const missed = PAGE_TYPE_RULES.map((r, i) => [i, r] as const).filter(([i]) => !hits.has(i));
    // rules only for less common hosts may go without an example here; the main ones may not
    expect(missed.length).toBeLessThanOrEqual(4);
  });
});

describe('word lists', () => {
  it('are lower-case and without duplicates', () => {
    for (const [name, list] of Object.entries(words)) {
      expect(Array.isArray(list), name).toBe(true);
      expectCleanList(list as readonly string[]);
    }
    expectCleanList(COMPETITOR_STOPLIST);
  });

  it('product cues make a common-word brand a name; name cues do after a sentence start', () => {
    expect(words.PRODUCT_CUES).toContain('crm');
    expect(words.WEB_SUFFIX_CUES).toContain('com');
    expect(words.NAME_CUE_WORDS).toContain('offers');
    expect(words.CONTRAST_WORDS).toEqual(expect.arrayContaining(['but', 'while', 'whereas', 'unlike']));
  });

  it('derived aliases drop a trailing suffix word', () => {
    const cb = compileBrands([{ id: 'x', name: 'Close CRM', aliases: ['Acme Inc.'], domain: null, isOwn: false }]);
    expect(cb.keys).toEqual(new Set(['closecrm', 'close', 'acmeinc', 'acme']));
  });
});

describe('dictionary', () => {
  it('holds common English words, days and months, and no brand names', () => {
    expect(commonWords().size).toBeGreaterThan(50_000);
    for (const w of ['close', 'apple', 'notion', 'slack', 'copper', 'monday', 'december', 'pipeline']) expect(isCommonWord(w), w).toBe(true);
    for (const w of ['hubspot', 'salesforce', 'pipedrive', 'zoho', 'freshsales', 'attio', 'zendesk']) expect(isCommonWord(w), w).toBe(false);
  });
});

describe('lexicon additions', () => {
  it('are lower-case product-review words on the VADER scale that VADER lacks', () => {
    const plain = vaderLexicon(true);
    const entries = Object.entries(LEXICON_ADDITIONS);
    expect(entries.length).toBeGreaterThan(40);
    let fresh = 0;
    for (const [w, v] of entries) {
      expect(w, w).toBe(w.toLowerCase());
      expect(Math.abs(v), w).toBeLessThanOrEqual(4);
      if (!plain.has(w)) fresh++;
    }
    expect(fresh).toBeGreaterThan(entries.length - 5);
    expect(vaderLexicon().get('clunky')).toBe(-1.5);
    expect(plain.get('clunky')).toBeUndefined();
  });

  it('overrides describe, not praise: free, popular and support are no sentiment words in product answers', () => {
    const plain = vaderLexicon(true);
    for (const [w, v] of Object.entries(LEXICON_OVERRIDES)) {
      expect(plain.has(w), w).toBe(true);
      expect(vaderLexicon().get(w), w).toBe(v === 0 ? undefined : v);
      expect(Math.abs(v), w).toBeLessThan(Math.abs(plain.get(w) ?? 0));
    }
    expect(PHRASE_VALENCES['hard to learn']).toBeLessThan(0);
  });
});
