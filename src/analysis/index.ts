import type { Reference } from '../ports/providers/types.js';
import { compileBrands, isCompiled, type CompiledBrands } from './brands.js';
import { buildCitations } from './citations.js';
import { extractCandidates, rankCandidates, tallyCandidates, type CandidateTally } from './competitors.js';
import { parseDoc } from './doc.js';
import { findMentions } from './mentions.js';
import { brandSentiments } from './sentiment.js';
import { brandThemes, type BrandUnit } from './themes.js';
import type { Analysis, AnalysisInput, BrandResult, BrandSpec, Citation } from './types.js';

export { compileBrands, isCompiled, type CompiledBrands } from './brands.js';
export { categorize, hostInfo, pageType } from './categories.js';
export { chatPreview } from './preview.js';
export { normalizeUrl } from './urls.js';
export { vaderCompound } from './vader.js';
export { THEMES, type Band, type ThemeName } from './types.js';
export * from './types.js';
export type { CandidateTally } from './competitors.js';

/** Analyses one answer with brands compiled beforehand: the fast path for batches. */
export type Analyzer = (text: string, references?: readonly Reference[]) => Analysis;

/**
 * Compiles the project's brands once and returns a function that analyses answers with
 * them. Use this for every batch (the matchers, typo index and domain map are built once).
 */
export function createAnalyzer(brands: readonly BrandSpec[] | CompiledBrands): Analyzer {
  const cb = isCompiled(brands) ? brands : compileBrands(brands);
  return (text, references = []) => analyze(cb, text ?? '', references ?? []);
}

// Raw brand arrays passed to analyzeAnswer are compiled once per array object.
const compiledCache = new WeakMap<readonly BrandSpec[], CompiledBrands>();

/** Analyses one answer. `input.brands` may be raw specs (compiled once per array) or compiled ones. */
export function analyzeAnswer(input: AnalysisInput): Analysis {
  let cb: CompiledBrands;
  if (isCompiled(input.brands)) cb = input.brands;
  else {
    cb = compiledCache.get(input.brands) ?? compileBrands(input.brands);
    compiledCache.set(input.brands, cb);
  }
  return analyze(cb, input.text ?? '', input.references ?? []);
}

function analyze(cb: CompiledBrands, text: string, references: readonly Reference[]): Analysis {
  const doc = parseDoc(text);
  const mentions = findMentions(doc, cb);
  const drafts = buildCitations(doc, references, cb);

  const brands: Record<string, BrandResult> = {};
  const themes: Analysis['themes'] = [];
  if (mentions.length) {
    const units: BrandUnit[] = [];
    const sentiments = brandSentiments(doc, mentions, cb.brands.length, units);
    for (const t of brandThemes(units, (s) => doc.clean.slice(doc.sentStart[s], doc.sentEnd[s]))) {
      themes.push({ brandId: cb.brands[t.brand].id, theme: t.theme, band: t.band, excerpt: t.excerpt });
    }
    const counts = new Array<number>(cb.brands.length).fill(0);
    const order: number[] = [];
    for (const m of mentions) {
      if (counts[m.brand]++ === 0) order.push(m.brand);
    }
    order.forEach((b, k) => {
      brands[cb.brands[b].id] = { position: k + 1, count: counts[b], sentiment: Math.round(sentiments[b]) };
    });
  }
  const own = cb.own >= 0 ? brands[cb.brands[cb.own].id] : undefined;
  const citations: Citation[] = drafts.map((c) => ({
    url: c.url, domain: c.domain, title: c.title, snippet: c.snippet, category: c.category, urlType: c.urlType,
    referenceIndex: c.referenceIndex, isOwn: c.isOwn, brandIds: c.brandIds,
  }));
  return {
    mentioned: own !== undefined,
    position: own?.position ?? null,
    sentiment: own?.sentiment ?? null,
    brands,
    citations,
    citesOwn: citations.some((c) => c.isOwn),
    otherBrands: extractCandidates(doc, cb, drafts).map(({ name, count, domain }) => ({ name, count, domain })),
    themes,
  };
}

/**
 * Brands that recur in the answers and are not tracked: ranked by the number of answers
 * naming them (`count`), then by total mentions. With three answers or more a name must
 * appear in at least two. Excludes the own brand, its aliases, the known competitors, the
 * stoplist, curated source names and dictionary words (see competitors.ts).
 */
export function detectCompetitors(
  answers: ReadonlyArray<{ text: string; references?: readonly Reference[] }>,
  ownBrand: BrandSpec,
  known: readonly BrandSpec[],
  limit = 10,
): Array<{ name: string; domain: string | null; count: number }> {
  const cb = compileBrands([ownBrand, ...known]);
  const perAnswer = answers.map((a) => {
    const doc = parseDoc(a.text ?? '');
    return extractCandidates(doc, cb, buildCitations(doc, a.references ?? [], cb), true);
  });
  return rankCandidates(perAnswer, limit, answers.length >= 3 ? 2 : 1);
}

/**
 * Untracked brands that recur in a project's answers (the dashboard's competitor
 * suggestions): detectCompetitors' rules against every tracked brand of the project,
 * with each name's mention total beside the answers naming it.
 */
export function recurringBrands(
  answers: ReadonlyArray<{ text: string; references?: readonly Reference[] }>,
  brands: readonly BrandSpec[] | CompiledBrands,
  limit = 10,
): CandidateTally[] {
  const cb = isCompiled(brands) ? brands : compileBrands(brands);
  const perAnswer = answers.map((a) => {
    const doc = parseDoc(a.text ?? '');
    return extractCandidates(doc, cb, buildCitations(doc, a.references ?? [], cb), true);
  });
  return tallyCandidates(perAnswer, limit, answers.length >= 3 ? 2 : 1);
}
