import type { Reference } from '../ports/providers/types.js';

/** A tracked brand: the project's own brand or one of its competitors. */
export interface BrandSpec {
  /** Competitor id, or the all-zero UUID for the own brand when it is not a competitor record. */
  id: string;
  name: string;
  aliases: string[];
  domain: string | null;
  isOwn: boolean;
}

export interface AnalysisInput {
  text: string;
  references: Reference[];
  /** Raw specs (compiled once per array object) or `compileBrands(specs)` for the fast path. */
  brands: BrandSpec[] | CompiledBrands;
}

/** Source categories (spec section 2, Category ids). */
export const CATEGORY_IDS = { corporate: 0, editorial: 1, institutional: 2, reference: 3, ugc: 4, other: 5 } as const;
export type CategoryName = keyof typeof CATEGORY_IDS;
export const CATEGORY_NAMES = Object.keys(CATEGORY_IDS) as CategoryName[];

/** Page types of a cited URL (docs/analytics.md); `url_type` is the index here. */
export const URL_TYPES = [
  'homepage',
  'article',
  'listicle',
  'comparison',
  'product',
  'documentation',
  'forum_thread',
  'video',
  'other',
] as const;
export type UrlTypeName = (typeof URL_TYPES)[number];

/**
 * The themes an answer can speak of for a brand (themes.ts). The per-prompt theme rollup
 * stores a theme as its index here (migration 0032), so the list only grows at its end.
 */
export const THEMES = [
  'price',
  'ease_of_use',
  'support',
  'features',
  'integrations',
  'reliability',
  'security',
  'performance',
  'scalability',
  'customization',
] as const;
export type ThemeName = (typeof THEMES)[number];

export type Band = 'positive' | 'neutral' | 'negative';

export interface Citation {
  /** Normalised URL (scheme and host lower-case, fragment and tracking parameters dropped). */
  url: string;
  /** Registrable domain, `www.` dropped. */
  domain: string;
  title: string;
  snippet: string;
  /** CATEGORY_IDS value. */
  category: number;
  /** Index into URL_TYPES, or null when unknown. */
  urlType: number | null;
  /** Position of the citation in the answer, 1-based, in order of first appearance. */
  referenceIndex: number;
  /** True when the domain is the own brand's. */
  isOwn: boolean;
  /** Brand ids whose domain this is (own or competitor). */
  brandIds: string[];
}

export interface BrandResult {
  /** Rank by first mention among the tracked brands named in the text, 1 = first. */
  position: number;
  /** Number of times named. */
  count: number;
  /** 0..100, 50 neutral: the sentiment about this brand in the sentences that name it. */
  sentiment: number;
}

export interface Analysis {
  /** The own brand is named in the text (not only cited). */
  mentioned: boolean;
  /** The own brand's rank among tracked brands named, or null. */
  position: number | null;
  /** The own brand's sentiment 0..100, or null when not mentioned. */
  sentiment: number | null;
  /** Tracked brands named in the text, by brand id. */
  brands: Record<string, BrandResult>;
  /** Deduplicated citations: the references plus URLs written in the text; placeholders dropped. */
  citations: Citation[];
  /** At least one citation is on the own brand's domain. */
  citesOwn: boolean;
  /** Brand-like names that are not tracked, with how often they appear (for competitor detection). */
  otherBrands: Array<{ name: string; count: number; domain: string | null }>;
  /** Per tracked brand named and theme its clauses speak of (themes.ts): once per answer, with the band and an excerpt. */
  themes?: BrandThemeResult[];
}

/** What an answer says of a brand on one theme (price, ease of use, support…). */
export interface BrandThemeResult {
  brandId: string;
  /** One of THEMES (themes.ts). */
  theme: string;
  band: 'positive' | 'neutral' | 'negative';
  excerpt: string;
}

/** One written form of a brand: its name, an alias, or a name with "CRM"/".com" dropped. */
export interface Variant {
  brand: number;
  /** Lower-case words, as the tokenizer splits them ("monday.com" → monday, com). */
  tokens: string[];
  /** hashLower of each word. */
  hashes: number[];
  /** The words joined ("hubspot"): matches "Hub Spot", "Hub-Spot" and "HubSpot" alike. */
  compact: string;
  /** Every word is a dictionary word: counts only where used as a name. */
  common: boolean;
  /** A day or month name: a capital letter is no sign of the brand. */
  alwaysCapitalised: boolean;
  /** The vendor's family name from the brand's domain ("Freshworks" for freshworks.com): a name only before a product word ("Freshworks CRM"). */
  needsCue: boolean;
  /** The name has capitals ("Salesforce"): all lower-case after a determiner ("a company's salesforce") it is an ordinary word. */
  cased: boolean;
}

/** Brand matchers compiled once per project and reused for every answer. */
export interface CompiledBrands {
  readonly kind: 'compiled-brands';
  readonly brands: readonly BrandSpec[];
  /** Index of the own brand in `brands`, or -1. */
  readonly own: number;
  /** Variants by first word, longest first. */
  readonly byFirst: Map<string, Variant[]>;
  /** The same by the hash of the first word (what the matcher looks up for every word). */
  readonly byFirstHash: Map<number, Variant[]>;
  /** Variants by the hash of their compact form, for spacing variants. */
  readonly byCompactHash: Map<number, Variant>;
  /** Hashes of every prefix of a compact form (a word that may start a spaced-out name). */
  readonly compactPrefixes: Set<number>;
  /** Variants eligible for one-edit typos (not common, 6+ letters), by the code of the first letter. */
  readonly typos: Map<number, Variant[]>;
  /** Registrable domain → indices of the brands that own it. */
  readonly domains: Map<string, number[]>;
  /** Compact forms of every variant (to tell tracked brands from new names). */
  readonly keys: Set<string>;
  readonly maxTypoLength: number;
  /** Verdicts on brand-like names seen in answers (competitors.ts), kept across answers. */
  readonly nameCache: Map<string, unknown>;
}
