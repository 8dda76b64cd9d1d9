import type { Rng } from '../../lib/random.js';
import { MARKETS, NEWS, REVIEW_SITES, type Market } from './simulated-data.js';

export type RefKind = 'own' | 'competitor' | 'brand' | 'news' | 'review' | 'reference' | 'forum' | 'institutional';

export interface SimBrand {
  name: string;
  slug: string;
  domain: string | null;
  kind: 'own' | 'competitor' | 'brand';
}

export interface SimRef {
  link: string;
  title: string;
  snippet: string;
  kind: RefKind;
}

/** FNV-1a, 32 bits: a stable seed from a string. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)];
export const between = (rng: Rng, [lo, hi]: readonly [number, number]) => lo + Math.floor(rng() * (hi - lo + 1));

export function slugify(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

// the few nouns and features of the markets, title-cased once each
const titleCased = new Map<string, string>();
function titleCase(s: string): string {
  let t = titleCased.get(s);
  if (t === undefined) {
    t = s.replace(/\b([a-z])/g, (c) => c.toUpperCase());
    if (titleCased.size < 1_000) titleCased.set(s, t);
  }
  return t;
}

/** The market a prompt is about, from its wording (and the brands' names); a generic one otherwise. */
export function findMarket(text: string): Market {
  const t = text.toLowerCase();
  for (const m of MARKETS) if (m.keywords.some((k) => t.includes(k))) return m;
  return MARKETS[MARKETS.length - 1];
}

/** One plausible page citing `brand` (or the market in general when null). */
export function makeRef(
  rng: Rng,
  market: Market,
  day: string,
  brand: SimBrand | null,
  listed: SimBrand[],
  own: SimBrand | null,
): SimRef {
  const year = day.slice(0, 4);
  const month = String(1 + Math.floor(rng() * Number(day.slice(5, 7) || '12'))).padStart(2, '0');
  const r = rng();
  if (brand) {
    if (brand.domain && r < 0.45) return sitePage(rng, market, year, brand, listed);
    if (r < 0.65) return newsPage(rng, market, year, month, brand);
    if (r < 0.8) return reviewPage(rng, market, year, brand);
    if (r < 0.9) return forumPage(rng, market, year, brand);
    return referencePage(rng, market, brand);
  }
  if (r < 0.3) return newsPage(rng, market, year, month, null);
  if (r < 0.42) return reviewPage(rng, market, year, null);
  if (r < 0.62) return forumPage(rng, market, year, null);
  if (r < 0.76) return referencePage(rng, market, null);
  if (r < 0.9 || !own?.domain) return institutionalPage(rng, market);
  // The own site cited in passing, sometimes without the brand being named.
  return sitePage(rng, market, year, own, listed);
}

function sitePage(rng: Rng, market: Market, year: string, b: SimBrand, listed: SimBrand[]): SimRef {
  const host = `https://${b.domain}`;
  const other = pick(rng, listed.filter((x) => x !== b).concat(listed.length > 1 ? [] : [b]));
  const feature = pick(rng, market.features);
  // one of six pages, the one drawn made alone
  const page = (which: number): [string, string, string] => {
    switch (which) {
      case 0: return ['/', `${b.name} | ${titleCase(market.noun)} for Growing Teams`, `${b.name} helps teams with ${feature} in one place.`];
      case 1: return ['/pricing', `${b.name} Pricing: Plans and Features`, `Compare ${b.name} plans, from a free starter tier to enterprise.`];
      case 2: return [`/compare/${b.slug}-vs-${other.slug}`, `${b.name} vs ${other.name}: Side-by-Side Comparison`, `See how ${b.name} compares with ${other.name} on ${feature}.`];
      case 3: return [`/features/${slugify(feature)}`, `${titleCase(feature)} | ${b.name}`, `${titleCase(feature)} built for busy teams.`];
      case 4: return [`/blog/best-${market.slug}-${year}`, `The Best ${titleCase(market.noun)} in ${year} - ${b.name} Blog`, `A buyer's guide to ${market.noun} in ${year}.`];
      default: return ['/customers', `Customer Stories | ${b.name}`, `How teams use ${b.name} for ${feature}.`];
    }
  };
  const [path, title, snippet] = page(Math.floor(rng() * 6));
  return { link: host + path, title, snippet, kind: b.kind };
}

function newsPage(rng: Rng, market: Market, year: string, month: string, b: SimBrand | null): SimRef {
  const site = pick(rng, NEWS);
  const count = 5 + Math.floor(rng() * 8);
  const [slug, title] = b
    ? pick(rng, [
        [`${b.slug}-review`, `${b.name} Review ${year}: Pros, Cons and Pricing`],
        [`${b.slug}-launches-ai-features`, `${b.name} launches new AI features for ${market.noun}`],
        [`${b.slug}-raises-prices`, `${b.name} raises prices as competition heats up`],
      ] as const)
    : [`best-${market.slug}`, `The ${count} Best ${titleCase(market.noun)} of ${year}`];
  const link = `https://${site.host}${site.path(year, month, slug)}`;
  return { link, title: `${title} | ${site.name}`, snippet: `${site.name} tested the leading ${market.noun} on price, features and support.`, kind: 'news' };
}

function reviewPage(rng: Rng, market: Market, year: string, b: SimBrand | null): SimRef {
  const site = pick(rng, REVIEW_SITES);
  if (b) {
    return { link: `https://${site.host}${site.product(b.slug)}`, title: `${b.name} Reviews ${year}: Details, Pricing, & Features | ${site.name}`, snippet: `Read verified user reviews of ${b.name}.`, kind: 'review' };
  }
  return { link: `https://${site.host}${site.category(market.slug)}`, title: `Best ${titleCase(market.noun)} ${year} | ${site.name}`, snippet: `Compare top-rated ${market.noun} by user satisfaction.`, kind: 'review' };
}

function forumPage(rng: Rng, market: Market, year: string, b: SimBrand | null): SimRef {
  const id = Math.floor(rng() * 36 ** 6).toString(36).padStart(6, '0');
  const question = b ? `Anyone using ${b.name}? Honest opinions` : `What ${market.noun} are you using in ${year}?`;
  const r = rng();
  if (r < 0.55) {
    const sub = pick(rng, market.subreddits);
    return { link: `https://www.reddit.com/r/${sub}/comments/1${id}/${slugify(question).replace(/-/g, '_')}/`, title: `${question} : r/${sub}`, snippet: 'We switched last year and the difference in day-to-day use was noticeable.', kind: 'forum' };
  }
  if (r < 0.75) {
    const q = b ? `Is ${b.name} worth it` : `What are the best ${market.noun} for small businesses`;
    return { link: `https://www.quora.com/${q.replace(/[^A-Za-z0-9]+/g, '-')}`, title: `${q}? - Quora`, snippet: 'It depends on your budget and how much customization you need.', kind: 'forum' };
  }
  if (r < 0.9) {
    return { link: `https://news.ycombinator.com/item?id=${38000000 + Math.floor(rng() * 4000000)}`, title: `Ask HN: ${question}`, snippet: 'Most of the comments recommend starting simple and migrating later.', kind: 'forum' };
  }
  const vid = `${Math.floor(rng() * 36 ** 8).toString(36).padStart(8, '0')}xQ_`;
  return { link: `https://www.youtube.com/watch?v=${vid}`, title: b ? `${b.name} Tutorial for Beginners (${year})` : `Best ${titleCase(market.noun)} Compared (${year})`, snippet: 'A walkthrough of setup, key features and pricing.', kind: 'forum' };
}

function referencePage(rng: Rng, market: Market, b: SimBrand | null): SimRef {
  if (b?.domain && (b.kind === 'brand' || rng() < 0.5)) {
    return { link: `https://help.${b.domain}/articles/getting-started`, title: `Getting started with ${b.name} | Help Center`, snippet: `Set up your ${b.name} workspace in a few steps.`, kind: 'reference' };
  }
  if (b && b.kind !== 'brand') {
    return { link: `https://en.wikipedia.org/wiki/${encodeURIComponent(b.name.replace(/ /g, '_'))}`, title: `${b.name} - Wikipedia`, snippet: `${b.name} is a software company.`, kind: 'reference' };
  }
  return rng() < 0.7
    ? { link: `https://en.wikipedia.org/wiki/${market.wiki}`, title: `${market.wiki.replace(/_/g, ' ')} - Wikipedia`, snippet: `${market.wiki.replace(/_/g, ' ')} refers to the practices and tools businesses use.`, kind: 'reference' }
    : { link: `https://www.investopedia.com/terms/b/${market.slug}.asp`, title: `What Is ${titleCase(market.noun)}? Definition and Examples`, snippet: `An overview of how ${market.noun} work and who uses them.`, kind: 'reference' };
}

function institutionalPage(rng: Rng, market: Market): SimRef {
  const page = pick(rng, market.institutional);
  return { link: page.url, title: page.title, snippet: 'Guidance for small businesses choosing and securing software.', kind: 'institutional' };
}
