import type { SiteInfo } from '../pages/extract.js';
import { MARKETS, type Market } from './markets.js';

// Reads what market a brand is in from the words on its home page (or, without a site,
// from its name): the catalogue first, then a phrase the site uses about itself.

export type Inferred =
  | { kind: 'catalogue'; market: Market; score: number }
  | { kind: 'phrase'; offering: string }
  | { kind: 'unknown' };

const MIN_SCORE = 3;
const FIELD_WEIGHTS = { title: 3, description: 2, brand: 2, siteName: 1, headings: 1, text: 0.5 } as const;

function fields(brandName: string, site: SiteInfo | null): Array<[string, number]> {
  const out: Array<[string, number]> = [[brandName, FIELD_WEIGHTS.brand]];
  if (!site) return out;
  out.push(
    [site.title ?? '', FIELD_WEIGHTS.title],
    [site.description ?? '', FIELD_WEIGHTS.description],
    [site.siteName ?? '', FIELD_WEIGHTS.siteName],
    [site.headings.join('\n'), FIELD_WEIGHTS.headings],
    [site.text.slice(0, 3000), FIELD_WEIGHTS.text],
  );
  return out;
}

/** Every catalogue market's score for this brand, best first (ties: catalogue order). */
export function scoreMarkets(brandName: string, site: SiteInfo | null): Array<{ market: Market; score: number }> {
  const texts = fields(brandName, site);
  return MARKETS.map((market) => {
    let score = 0;
    for (const [text, fieldWeight] of texts) {
      for (const [pattern, weight] of market.keywords) if (pattern.test(text)) score += weight * fieldWeight;
    }
    return { market, score };
  }).sort((a, b) => b.score - a.score);
}

const FILLER = /^(?:the|a|an|your|our|simple|simply|smart|modern|leading|best|better|easy|easiest|powerful|trusted|premier|only|all-in-one|#1|no\.? ?1|world's|official|online|new)\s+/i;
const NOT_A_MARKET = /^(home|homepage|welcome|official site|official website|shop|store|blog|about us?|index)$/i;
const STOP_AFTER = /\s+(?:for|that|which|to|with|in|from|by|and more|built|made|designed|you|near)\b.*$/i;

function cleanPhrase(raw: string, brandName: string): string | null {
  let phrase = raw.replace(/[®™©]/g, '').replace(STOP_AFTER, '').trim();
  for (let i = 0; i < 4 && FILLER.test(phrase); i++) phrase = phrase.replace(FILLER, '');
  phrase = phrase.replace(/[\s.,:;!?'"-]+$/, '').trim();
  const words = phrase.split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > 5) return null;
  if (NOT_A_MARKET.test(phrase) || phrase.toLowerCase().includes(brandName.toLowerCase())) return null;
  if (!/^[\p{L}][\p{L}\p{N}&' -]*$/u.test(phrase)) return null;
  // Keep acronyms and brand-like capitals (CRM, SaaS); lower-case ordinary words.
  return words.map((w) => (/^[\p{Lu}\p{N}]{2,}$/u.test(w) || /\p{Ll}\p{Lu}/u.test(w) ? w : w.toLowerCase())).join(' ');
}

/** "Acme is the simple X for Y." → "X"; title segments that do not name the brand. */
export function offeringPhrase(brandName: string, site: SiteInfo): string | null {
  const candidates: string[] = [];
  const self = site.description?.match(/\b(?:is|are)\s+(?:an?|the|your)\s+([^.,;:!?]+)/i);
  if (self) candidates.push(self[1]);
  const segments = (site.title ?? '').split(/\s+[|–—:·•-]\s+/);
  for (const segment of segments) {
    if (segment.toLowerCase().includes(brandName.toLowerCase())) continue;
    if (site.siteName && segment.toLowerCase() === site.siteName.toLowerCase()) continue;
    candidates.push(segment);
  }
  for (const candidate of candidates) {
    const phrase = cleanPhrase(candidate, brandName);
    if (phrase) return phrase;
  }
  return null;
}

export function inferMarket(brandName: string, site: SiteInfo | null): Inferred {
  const [best] = scoreMarkets(brandName, site);
  if (best && best.score >= MIN_SCORE) return { kind: 'catalogue', market: best.market, score: best.score };
  const offering = site ? offeringPhrase(brandName, site) : null;
  return offering ? { kind: 'phrase', offering } : { kind: 'unknown' };
}

const NEEDS_THE = /^(United |Netherlands$|Philippines$|Bahamas$|Gambia$|Czech Republic$|Dominican Republic$|Maldives$|Central African Republic$)/;

/** A place to write after "in": a region code becomes its English name ("US" → "the United States"). */
export function placeName(location: string | null | undefined): string | null {
  const raw = location?.trim();
  if (!raw) return null;
  let name = raw;
  if (/^[A-Za-z]{2}$/.test(raw)) {
    try {
      name = new Intl.DisplayNames(['en'], { type: 'region' }).of(raw.toUpperCase()) ?? raw;
    } catch {
      name = raw;
    }
  }
  return NEEDS_THE.test(name) ? `the ${name}` : name;
}

/** A local business's town from its title or description: "Artisan Bakery in Portland". */
export function placeFromSite(site: SiteInfo | null): string | null {
  for (const text of [site?.title, site?.description]) {
    const m = text?.match(/\bin ((?:[\p{Lu}][\p{L}'-]+)(?:,? [\p{Lu}][\p{L}'-]+){0,2})/u);
    if (m) return m[1];
  }
  return null;
}
