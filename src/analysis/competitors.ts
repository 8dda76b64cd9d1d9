import { nameTokens, type CompiledBrands } from './brands.js';
import { CURATED } from './categories.js';
import type { CitationDraft } from './citations.js';
import { COMPETITOR_STOPLIST } from './data/competitor-stoplist.js';
import { isCommonWord } from './data/dictionary.js';
import { DERIVED_ALIAS_SUFFIXES } from './data/words.js';
import { CAP, LIST, SENT_START, TABLE, hashLower, lowerAt, type Doc } from './doc.js';
import { CATEGORY_IDS } from './types.js';

/** A brand-like name in one answer that is not a tracked brand. */
export interface Candidate {
  name: string;
  /** Compact lower-case name without a trailing "CRM", ".com"…: what merges "Zoho" and "Zoho CRM". */
  key: string;
  count: number;
  domain: string | null;
  /** Only dictionary words: a brand only where some cited domain carries the name. */
  needsDomain: boolean;
}

const STOP = new Set(COMPETITOR_STOPLIST);
const JOINER_WORDS = new Set(['&', 'and', 'of', 'for', 'de', 'by', 'the', '+']);
const DERIVED = new Set(DERIVED_ALIAS_SUFFIXES);
// Names of curated sources (reddit, g2, forbes, wikipedia…): sources, not competitors.
const SOURCE_NAMES = new Set<string>();
for (const [d, cat] of CURATED) if (cat !== CATEGORY_IDS.corporate) SOURCE_NAMES.add(d.split('.').slice(-2)[0]);

export function candidateKey(tokens: string[]): string {
  const t = tokens.length > 1 && DERIVED.has(tokens[tokens.length - 1]) ? tokens.slice(0, -1) : tokens;
  return t.join('');
}

/** Cleans a raw name (markdown, possessive, trailing punctuation), or null when it cannot be a brand. */
export function cleanName(raw: string): string | null {
  const s = raw
    .replace(/[*_`"\u201c\u201d[\]]/g, '')
    .replace(/['\u2019]s\b/g, '')
    .replace(/[\s:;,.!?\u2013\u2014-]+$/, '')
    .replace(/^[\s:;,.!?\u2013\u2014-]+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (s.length < 2 || s.length > 40 || !/\p{L}/u.test(s)) return null;
  const words = s.split(' ');
  if (words.length > 4) return null;
  // a name starts with a capital or a digit, or is written as a web address (monday.com)
  // a name is written in capitals (Zoho CRM, Help Scout, iPhone) or as a web address (monday.com)
  if (/\.[a-z]{2,}$/.test(s)) return s;
  for (const w of words) if (!/^[\p{Lu}\p{N}]/u.test(w) && !/\p{Lu}/u.test(w) && !JOINER_WORDS.has(w)) return null;
  return s;
}

/**
 * Brand-like names in the answer that are not tracked: list-item labels ("- Zoho CRM: …"),
 * bold names, link text, first cells of table rows, and capitalised words that are the name
 * of a cited company domain ("Freshworks" with freshworks.com cited). Dropped: tracked
 * brands and their sub-products, the stoplist, names of curated sources (Reddit, G2),
 * and names made only of dictionary words unless a cited domain carries the name
 * (`keepUntied` keeps those, for detectCompetitors to decide across answers).
 */
export function extractCandidates(doc: Doc, cb: CompiledBrands, citations: readonly CitationDraft[], keepUntied = false): Candidate[] {
  const raw: string[] = [];
  const { clean } = doc;
  if (clean.indexOf('**') !== -1 || clean.indexOf('__') !== -1) {
    for (const m of clean.matchAll(/\*\*([^*\n]{2,60}?)\*\*|__([^_\n]{2,60}?)__/g)) raw.push(m[1] ?? m[2]);
  }
  for (const u of doc.urls) if (u.linkText) raw.push(u.linkText);
  for (let s = 0; s < doc.sentTok.length; s++) {
    const t = doc.sentTok[s];
    if (t >= doc.n || !(doc.flags[t] & SENT_START)) continue;
    const f = doc.flags[t];
    const line = clean.slice(doc.start[t], doc.sentEnd[s]);
    if (f & LIST) {
      const m = /^([^:\n\u2013\u2014(]{2,60}?)(?:\*\*)?\s*(?::|\s[-\u2013\u2014]\s|\u2013|\u2014|\(|$)/.exec(line);
      if (m) raw.push(m[1]);
    } else if (f & TABLE && !isHeaderRow(clean, doc.sentEnd[s])) {
      raw.push(line.split('|')[0]);
    }
  }
  const companyLabels = new Map<string, string>();
  for (const c of citations) if (c.category === CATEGORY_IDS.corporate || c.category === CATEGORY_IDS.other) companyLabels.set(c.label, c.domain);
  if (companyLabels.size) {
    const hashes = new Set([...companyLabels.keys()].map(hashLower));
    for (let i = 0; i < doc.n; i++) {
      if (doc.flags[i] & CAP && hashes.has(doc.hash[i]) && companyLabels.has(lowerAt(doc, i))) raw.push(clean.slice(doc.start[i], doc.end[i]));
    }
  }

  const byKey = new Map<string, Candidate>();
  for (const r of raw) {
    let info = cb.nameCache.get(r) as NameInfo | null | undefined;
    if (info === undefined) {
      info = classifyName(r, cb);
      if (cb.nameCache.size >= 10_000) cb.nameCache.clear();
      cb.nameCache.set(r, info);
    }
    if (!info || byKey.has(info.key)) continue;
    const domain = companyLabels.get(info.key) ?? companyLabels.get(info.tokens.join('')) ?? null;
    if (!domain && info.needsDomain && !keepUntied) continue;
    byKey.set(info.key, { name: info.name, key: info.key, count: countOccurrences(doc, info.tokens), domain, needsDomain: info.needsDomain });
  }
  return [...byKey.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

interface NameInfo {
  name: string;
  key: string;
  tokens: string[];
  /** Made only of dictionary words: a brand only when a cited domain carries the name. */
  needsDomain: boolean;
}

/** The answer-independent verdict on a raw name: null when it is never a candidate. */
function classifyName(raw: string, cb: CompiledBrands): NameInfo | null {
  const name = cleanName(raw);
  if (!name) return null;
  const tokens = nameTokens(name);
  const key = candidateKey(tokens);
  if (!key || /^\d+$/.test(key)) return null;
  if (isTracked(cb, tokens, key) || STOP.has(name.toLowerCase()) || STOP.has(key) || SOURCE_NAMES.has(key)) return null;
  const acronym = /^[\p{Lu}\d&]{2,6}$/u.test(name);
  const needsDomain = !acronym && !/\.[a-z]{2,}$/.test(name) && tokens.every(isCommonWord);
  return { name, key, tokens, needsDomain };
}

function isHeaderRow(clean: string, lineEnd: number): boolean {
  const next = clean.slice(lineEnd + 1, clean.indexOf('\n', lineEnd + 1) >>> 0);
  return /^\s*\|?\s*:?-{3,}/.test(next);
}

/** A tracked brand, one of its variants, or a phrase that names one ("HubSpot Sales Hub", "See HubSpot"). */
function isTracked(cb: CompiledBrands, tokens: string[], key: string): boolean {
  if (cb.keys.has(key) || cb.keys.has(tokens.join(''))) return true;
  for (let i = 0; i < tokens.length; i++) {
    for (const v of cb.byFirst.get(tokens[i]) ?? []) {
      if (i + v.tokens.length <= tokens.length && v.tokens.every((t, k) => tokens[i + k] === t)) return true;
    }
  }
  return false;
}

function countOccurrences(doc: Doc, tokens: string[]): number {
  let n = 0;
  const hashes = tokens.map(hashLower);
  for (let i = 0; i + tokens.length <= doc.n; i++) {
    if (doc.hash[i] !== hashes[0]) continue;
    let ok = true;
    for (let k = 0; k < tokens.length && ok; k++) ok = doc.hash[i + k] === hashes[k] && lowerAt(doc, i + k) === tokens[k];
    if (ok) {
      n++;
      i += tokens.length - 1;
    }
  }
  return Math.max(n, 1);
}

/** A name's tally across answers: answers naming it (`count`), total mentions, likeliest spelling and domain. */
export interface CandidateTally {
  name: string;
  domain: string | null;
  count: number;
  mentions: number;
}

/**
 * Tallies names across answers and ranks them: by the number of answers naming them, then
 * total mentions. A name made of dictionary words ("Folk") counts only if some answer
 * cites a domain carrying it (folk.app).
 */
export function tallyCandidates(perAnswer: Candidate[][], limit: number, minAnswers: number): CandidateTally[] {
  const agg = new Map<string, { names: Map<string, number>; domains: Map<string, number>; answers: number; total: number; needsDomain: boolean }>();
  for (const cands of perAnswer) {
    for (const c of cands) {
      const a = agg.get(c.key) ?? { names: new Map(), domains: new Map(), answers: 0, total: 0, needsDomain: c.needsDomain };
      a.answers++;
      a.total += c.count;
      a.names.set(c.name, (a.names.get(c.name) ?? 0) + 1);
      if (c.domain) a.domains.set(c.domain, (a.domains.get(c.domain) ?? 0) + 1);
      agg.set(c.key, a);
    }
  }
  const top = (m: Map<string, number>) => [...m].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))[0]?.[0] ?? null;
  return [...agg.values()]
    .filter((a) => a.answers >= minAnswers && (!a.needsDomain || a.domains.size > 0))
    .sort((x, y) => y.answers - x.answers || y.total - x.total || top(x.names)!.localeCompare(top(y.names)!))
    .slice(0, limit)
    .map((a) => ({ name: top(a.names)!, domain: top(a.domains), count: a.answers, mentions: a.total }));
}

/** tallyCandidates without the mention totals (what the bootstrap's detection returns). */
export function rankCandidates(perAnswer: Candidate[][], limit: number, minAnswers: number): Array<{ name: string; domain: string | null; count: number }> {
  return tallyCandidates(perAnswer, limit, minAnswers).map(({ name, domain, count }) => ({ name, domain, count }));
}
