import { withinOneEdit, type CompiledBrands, type Variant } from './brands.js';
import { isCommonWord } from './data/dictionary.js';
import { DETERMINERS, NAME_CUE_WORDS, PRODUCT_CUES, WEB_SUFFIX_CUES } from './data/words.js';
import { CAP, HEADING, LIST, SENT_START, hashRange, lowerAt, lowerCode, type Doc } from './doc.js';

/** A tracked brand named in the text: tokens `tok`..`tokEnd` (inclusive), sentence `sent`. */
export interface Mention {
  brand: number;
  tok: number;
  tokEnd: number;
  sent: number;
}

const NAME_CUES = new Set(NAME_CUE_WORDS);
const PRODUCT = new Set(PRODUCT_CUES);
const WEB_SUFFIX = new Set(WEB_SUFFIX_CUES);
const DETERMINER = new Set(DETERMINERS);
const LIST_LINK = new Set(['and', 'or', 'vs', 'versus', 'with']);

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * Separators allowed inside a written name: "Hub Spot", "Coca-Cola", "monday.com", "AT&T",
 * "Briggs & Riley", "4,500", "Zi/O", "55+ Unlimited", "Deception: Murder in Hong Kong"; a
 * trademark sign glued to a word does not count ("Discover it® Miles", "United Gateway℠ Card").
 */
function tightGap(doc: Doc, a: number, b: number): boolean {
  if (doc.sent[a] !== doc.sent[b]) return false;
  const from = doc.end[a];
  const to = doc.start[b];
  // a thousands separator inside a number of the name ("4,500 Sq. Ft")
  if (to - from === 1 && doc.clean[from] === ',') return isDigit(doc.clean.charCodeAt(from - 1)) && isDigit(doc.clean.charCodeAt(to));
  if (to - from > 4) return false;
  let len = 0;
  let amp = false;
  for (let k = from; k < to; k++) {
    const c = doc.clean[k];
    if (c === '\u00ae' || c === '\u2122' || c === '\u2120' || c === '\u00a9') continue;
    // a markdown escape ("AT\&T", as ChatGPT's web app copies it) is the character it escapes
    if (c === '\\' && k + 1 < to) continue;
    if (c !== ' ' && c !== '-' && c !== '.' && c !== '_' && c !== '&' && c !== "'" && c !== '\u2019' && c !== '/' && c !== '+' && c !== ':') return false;
    if (c === '&') amp = true;
    len++;
  }
  return len <= 2 || (amp && len === 3);
}

/** Finds the tracked brands named in the text, in order. URLs were blanked out before. */
export function findMentions(doc: Doc, cb: CompiledBrands): Mention[] {
  const out: Mention[] = [];
  const maybe: Mention[] = [];
  const { n, hash, start, end, clean } = doc;
  for (let i = 0; i < n; i++) {
    const h = hash[i];
    let v: Variant | undefined;
    let j = i;
    // 1. the exact words of a name or alias, any case
    const list = cb.byFirstHash.get(h);
    if (list && lowerAt(doc, i) === list[0].tokens[0]) {
      for (const cand of list) {
        const k = cand.tokens.length;
        if (i + k > n) continue;
        let ok = true;
        for (let t = 1; t < k && ok; t++) ok = hash[i + t] === cand.hashes[t] && tightGap(doc, i + t - 1, i + t) && lowerAt(doc, i + t) === cand.tokens[t];
        if (ok) {
          v = cand;
          j = i + k - 1;
          break;
        }
      }
    }
    // 2. spacing variants: "Hub Spot", "Pipe-Drive", "Helpscout" for "Help Scout"
    if (!v && (cb.compactPrefixes.has(h) || cb.byCompactHash.has(h))) {
      let hc = h;
      for (let k = i; k < n && k < i + 3; k++) {
        if (k > i) {
          if (!tightGap(doc, k - 1, k)) break;
          hc = hashRange(hc, clean, start[k], end[k]);
        }
        const cand = cb.byCompactHash.get(hc);
        if (cand && (k > i || cand.tokens.length > 1) && joined(doc, i, k) === cand.compact && !looseWords(doc, i, k)) {
          v = cand;
          j = k;
          break;
        }
        if (!cb.compactPrefixes.has(hc)) break;
      }
    }
    // 3. one-edit typos of names of six letters or more ("Hubspt", "Salesfroce")
    const len = end[i] - start[i];
    if (!v && len >= 5 && len <= cb.maxTypoLength) {
      const cands = cb.typos.get(lowerCode(clean.charCodeAt(start[i])));
      if (cands) {
        for (const cand of cands) {
          if (withinOneEdit(clean, start[i], end[i], cand.compact) && !isCommonWord(lowerAt(doc, i))) {
            v = cand;
            break;
          }
        }
      }
    }
    if (!v) continue;
    if (v.needsCue && !(j + 1 < n && doc.sent[j + 1] === doc.sent[j] && PRODUCT.has(lowerAt(doc, j + 1)))) continue;
    if (v.cased && i === j && !(doc.flags[i] & CAP) && isLowerWord(doc, i) && afterDeterminer(doc, i)) continue;
    if (v.common && !usedAsName(doc, i, j, v.alwaysCapitalised)) {
      if (doc.flags[i] & CAP) maybe.push({ brand: v.brand, tok: i, tokEnd: j, sent: doc.sent[i] });
      continue;
    }
    out.push({ brand: v.brand, tok: i, tokEnd: j, sent: doc.sent[i] });
    i = j;
  }
  return maybe.length && out.length ? withListed(doc, out, maybe) : out;
}

/**
 * A capitalised common-word name listed with a tracked brand ("Close and Pipedrive",
 * "Pipedrive, Close"): joined to it by "and", "or", "vs", "with" or a comma, it is a name too.
 */
function withListed(doc: Doc, out: Mention[], maybe: Mention[]): Mention[] {
  const starts = new Set(out.map((m) => m.tok));
  const ends = new Set(out.map((m) => m.tokEnd));
  const linked = (a: number, b: number) => {
    if (b >= doc.n || a < 0 || doc.sent[a] !== doc.sent[b]) return false;
    const gap = doc.clean.slice(doc.end[a], doc.start[b]).trim();
    return gap === ',' || gap === '&' || gap === '/';
  };
  const near = (a: number, b: number) => linked(a, b) || (b - a === 2 && LIST_LINK.has(lowerAt(doc, a + 1)) && doc.sent[a] === doc.sent[b]);
  const extra = maybe.filter((m) => {
    for (const s of starts) if (s > m.tokEnd && near(m.tokEnd, s)) return true;
    for (const e of ends) if (e < m.tok && near(e, m.tok)) return true;
    return false;
  });
  return extra.length ? [...out, ...extra].sort((a, b) => a.tok - b.tok) : out;
}

function isLowerWord(doc: Doc, i: number): boolean {
  return doc.clean.slice(doc.start[i], doc.end[i]) === lowerAt(doc, i);
}

/** Word i follows a determiner or a possessive ("the", "your", "company's"). */
function afterDeterminer(doc: Doc, i: number): boolean {
  if (i === 0 || doc.sent[i - 1] !== doc.sent[i]) return false;
  const prev = lowerAt(doc, i - 1);
  if (DETERMINER.has(prev)) return doc.start[i] - doc.end[i - 1] === 1;
  const q = doc.clean[doc.start[i - 1] - 1];
  return prev === 's' && (q === "'" || q === '\u2019');
}

/** A name written apart in ordinary words ("Big commerce") counts only with each word capitalised ("Big Commerce"). */
function looseWords(doc: Doc, i: number, k: number): boolean {
  let spaced = false;
  for (let t = i; t <= k; t++) {
    if (t > i && doc.clean[doc.end[t - 1]] === ' ') spaced = true;
    if (!isCommonWord(lowerAt(doc, t))) return false;
  }
  if (!spaced) return false;
  for (let t = i; t <= k; t++) if (!(doc.flags[t] & CAP)) return true;
  return false;
}

function joined(doc: Doc, i: number, k: number): string {
  let s = '';
  for (let t = i; t <= k; t++) s += lowerAt(doc, t);
  return s;
}

function nextNonSpace(s: string, i: number): number {
  while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
  return i;
}

function prevNonSpace(s: string, i: number): number {
  while (i > 0 && (s[i - 1] === ' ' || s[i - 1] === '\t')) i--;
  return i - 1;
}

/**
 * A name that is also a dictionary word ("Close", "Notion", "Monday") counts only where it
 * is used as a name: followed by a product word or web suffix (Close CRM, monday.com);
 * alone in bold, link text or a table cell, or as a list item's label ("- Close: …");
 * capitalised inside a sentence; or capitalised at a sentence start or in a heading and
 * then followed by a verb of a subject ("Close offers…"), a possessive or punctuation.
 * For a day or month name ("Monday") a capital proves nothing: only cues and markup count.
 */
export function usedAsName(doc: Doc, i: number, j: number, alwaysCapitalised = false): boolean {
  const { clean, flags } = doc;
  const s = doc.start[i];
  const e = doc.end[j];
  const hasNext = j + 1 < doc.n && doc.sent[j + 1] === doc.sent[i];
  const gap = hasNext ? clean.slice(e, doc.start[j + 1]) : '';
  const next = hasNext ? lowerAt(doc, j + 1) : '';
  if (hasNext && gap === '.' && WEB_SUFFIX.has(next)) return true;
  if (hasNext && (gap === ' ' || gap === '-') && PRODUCT.has(next)) return true;

  const before = clean.slice(Math.max(0, s - 2), s);
  const after = clean.slice(e, e + 2);
  if ((before === '**' || before === '__') && (after === '**' || after === '__')) return true;
  if (before.endsWith('[') && after.startsWith(']')) return true;
  const p = prevNonSpace(clean, s);
  const q = nextNonSpace(clean, e);
  if (clean[p] === '|' && clean[q] === '|') return true;

  const f = flags[i];
  const label = /^(\*\*|__)?\s*([:\u2013\u2014(]|- |$|\n)/.test(clean.slice(e, e + 4));
  if (f & LIST && f & SENT_START && label) return true;
  if (!(f & CAP)) return false;
  if (!(f & (SENT_START | HEADING)) && !alwaysCapitalised) return true;
  if (hasNext && (gap === ' ' || gap === "'" || gap === '\u2019') && (NAME_CUES.has(next) || (gap !== ' ' && next === 's'))) return true;
  if (alwaysCapitalised) return false;
  const c = clean[q];
  return q >= clean.length || c === '\n' || c === ',' || c === ':' || c === ';' || c === '(' || c === '.' || c === '!' || c === '?' || label;
}
