// The encodings of the rollups' packed columns, in one place (README.md beside this file
// describes every column):
// - per-brand arrays: int[] indexed by brand number (0 = the own brand), shipped to and from
//   PostgreSQL as their text ('{3,0,-12}') and added up element by element;
// - day bits: an int per brand number whose bit d is set when the brand was named on day d
//   of a week (Monday = bit 0) or month (the 1st = bit 0);
// - domain entries: project_domain_daily.domains, DOMAIN_FIELDS ints per domain cited,
//   comma-separated decimal text, by domain number ascending.

/** A window's sums of the main columns of a rollup (what the metrics are computed from). */
export interface Sums {
  responses: number;
  mentioned: number;
  positionSum: number;
  sentimentSum: number;
  citesOwn: number;
  /** Sums of squares over the same responses as positionSum and sentimentSum. */
  positionSq: number;
  sentimentSq: number;
}

export const EMPTY_SUMS: Sums = { responses: 0, mentioned: 0, positionSum: 0, sentimentSum: 0, citesOwn: 0, positionSq: 0, sentimentSq: 0 };

/** The per-brand arrays of a project rollup row, by brand number (a missing index is 0). */
export interface BrandArrays {
  /** brand_mentions: responses naming the brand. */
  mentions: number[];
  /** brand_counts: times the brand was named. */
  timesNamed: number[];
  /** brand_position_sums: its rank among the brands named, summed over the responses naming it. */
  positionSums: number[];
  /** brand_sentiment_sums: the sentiment around it (0..100), summed likewise. */
  sentimentSums: number[];
  /** brand_position_sq and brand_sentiment_sq: the sums of squares, for the intervals. */
  positionSquares: number[];
  sentimentSquares: number[];
}

/** The columns of BrandArrays, in the order the project rollups keep them. */
export const PROJECT_BRAND_COLUMNS = ['brand_mentions', 'brand_counts', 'brand_position_sums', 'brand_sentiment_sums', 'brand_position_sq', 'brand_sentiment_sq'] as const;

/** A row with the per-brand arrays read as text (PROJECT_BRAND_COLUMNS_AS_TEXT). */
export type BrandArrayTexts = Record<(typeof PROJECT_BRAND_COLUMNS)[number], string>;

/** SQL select list: each per-brand array as its text, under its own name. */
export const PROJECT_BRAND_COLUMNS_AS_TEXT = PROJECT_BRAND_COLUMNS.map((column) => `${column}::text as ${column}`).join(', ');

export const emptyBrandArrays = (): BrandArrays => ({ mentions: [], timesNamed: [], positionSums: [], sentimentSums: [], positionSquares: [], sentimentSquares: [] });

/** Adds a row's per-brand arrays (as text) into `into`. */
export function addBrandArrayTexts(row: BrandArrayTexts, into: BrandArrays): void {
  addIntArrayText(row.brand_mentions, into.mentions);
  addIntArrayText(row.brand_counts, into.timesNamed);
  addIntArrayText(row.brand_position_sums, into.positionSums);
  addIntArrayText(row.brand_sentiment_sums, into.sentimentSums);
  addIntArrayText(row.brand_position_sq, into.positionSquares);
  addIntArrayText(row.brand_sentiment_sq, into.sentimentSquares);
}

/**
 * Adds a one-dimensional int array read as text ('{3,0,-12}'), times `weight`, into
 * `into`, element by element (a missing element counts 0), without splitting the text into
 * strings and arrays: how the rollups' per-brand arrays, shipped as text (a fraction of
 * node-postgres' general array parser), are summed.
 */
export function addIntArrayText(text: string, into: number[], weight = 1): number[] {
  addIntArrayAt(text, 0, into, weight);
  return into;
}

/** addIntArrayText of the array whose '{' is at `open` in `text`; returns the position after its '}'. */
function addIntArrayAt(text: string, open: number, into: number[], weight: number): number {
  let index = 0;
  let value = 0;
  let negative = false;
  let digits = false;
  for (let at = open + 1; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code >= 48 && code <= 57) {
      value = value * 10 + (code - 48);
      digits = true;
    } else if (code === 45) negative = true;
    else {
      // ',' or the closing '}'
      if (digits) into[index] = (into[index] ?? 0) + (negative ? -value : value) * weight;
      index++;
      value = 0;
      negative = false;
      digits = false;
      if (code === 125) return at + 1;
    }
  }
  return text.length;
}

/**
 * Adds int arrays read as text, each after its weight ('1{3,0,2}-1{1,0,1}': how a read joins
 * a window's cover rows with string_agg), into `into`, as addIntArrayText does each.
 */
export function addWeightedIntArrayTexts(text: string, into: number[]): number[] {
  let at = 0;
  while (at < text.length) {
    let negative = false;
    if (text.charCodeAt(at) === 45) {
      negative = true;
      at++;
    }
    let weight = 0;
    for (let code = text.charCodeAt(at); code >= 48 && code <= 57; code = text.charCodeAt(++at)) weight = weight * 10 + (code - 48);
    // `at` is on the array's '{'
    at = addIntArrayAt(text, at, into, negative ? -weight : weight);
  }
  return into;
}

/** A sparse array of sums as PostgreSQL's int[] text, holes as 0. */
export function intArrayText(values: number[]): string {
  let out = '{';
  for (let index = 0; index < values.length; index++) out += `${index ? ',' : ''}${values[index] ?? 0}`;
  return `${out}}`;
}

/**
 * Per brand number, the day bits of a bucket row (`brandDays`, the text of brand_days), or
 * for a day row (brandDays null) bit 0 when the brand was named (`brandMentions` > 0).
 */
export function namedOnDayBits(brandDays: string | null, brandMentions: string): number[] {
  return brandDays === null ? addIntArrayText(brandMentions, []).map((mentions) => (mentions > 0 ? 1 : 0)) : addIntArrayText(brandDays, []);
}

/** Bits set in a 32-bit mask (a bucket's days a brand was named on). */
export function countBits(mask: number): number {
  let v = mask - ((mask >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Ints per domain in project_domain_daily.domains: number, category, citations, responses, citations_unmentioned. */
export const DOMAIN_FIELDS = 5;

/** One domain's entry of a day row. */
export interface DomainEntry {
  /** The domain's number in the project's dictionary (project_domains). */
  domainNo: number;
  /** Its lowest category id among the citations counted. */
  category: number;
  citations: number;
  /** Responses citing it (an answer citing two of its pages counts once). */
  responses: number;
  /** Its citations in responses that do not name the brand. */
  unmentioned: number;
}

/** Decimal ints, comma-separated, as numbers: V8's JSON parser reads them faster than a loop over the characters. */
export const parseInts = (text: string): number[] => JSON.parse(`[${text}]`) as number[];

/** A day row's domain entries (DomainEntry each), as ints in DOMAIN_FIELDS order, by domain number ascending. */
export function domainEntriesText(entries: DomainEntry[]): string {
  const sorted = [...entries].sort((a, b) => a.domainNo - b.domainNo);
  return sorted.map((e) => `${e.domainNo},${e.category},${e.citations},${e.responses},${e.unmentioned}`).join(',');
}
