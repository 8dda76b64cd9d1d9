import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { LEXICON_ADDITIONS, LEXICON_OVERRIDES } from './data/lexicon-additions.js';
import { FNV_SEED, hashLower, lowerCode } from './doc.js';

// The input side of VADER: its lexicon, and a text cut into words the way VADER cuts it.

let lexicon: Map<string, number> | null = null;

/**
 * The VADER lexicon (about 7,500 words and emoticons, read once from the package) plus the
 * product-review words and overrides of data/lexicon-additions.ts; `plain` leaves them out.
 */
export function vaderLexicon(plain = false): Map<string, number> {
  if (plain) return readLexicon();
  if (lexicon) return lexicon;
  const map = readLexicon();
  // Emoticons are not read in product answers: markdown leaves tokens such as "):" behind
  // (a blanked link target before a colon), which VADER would read as a frown.
  for (const w of [...map.keys()]) if (!/[\p{L}\p{N}]/u.test(w)) map.delete(w);
  for (const [w, v] of [...Object.entries(LEXICON_ADDITIONS), ...Object.entries(LEXICON_OVERRIDES)]) {
    if (v === 0) map.delete(w);
    else map.set(w, v);
  }
  lexicon = map;
  return map;
}

function readLexicon(): Map<string, number> {
  const require = createRequire(import.meta.url);
  const file = path.join(path.dirname(require.resolve('vader-sentiment/package.json')), 'vader_lexicon.txt');
  const map = new Map<string, number>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const tab = line.indexOf('\t');
    if (tab <= 0) continue;
    const tab2 = line.indexOf('\t', tab + 1);
    map.set(line.slice(0, tab), Number(line.slice(tab + 1, tab2 === -1 ? undefined : tab2)));
  }
  return map;
}

// ASCII punctuation, curly quotes, dashes and the ellipsis
function isPunct(c: number): boolean {
  return (
    (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126) ||
    (c >= 0x2013 && c <= 0x2014) || (c >= 0x2018 && c <= 0x201d) || c === 0x2026
  );
}

/**
 * Words as VADER sees them: split on white space, one-character tokens dropped, outer
 * punctuation stripped (unless that leaves one character). Kept as offsets with the hash of
 * the lower-case word (’ read as '), so no string is made for a word that is not looked at.
 */
export class Words {
  n = 0;
  from: number[] = [];
  to: number[] = [];
  hash: number[] = [];
  upper: boolean[] = [];
  private raw: Array<string | undefined> = [];
  private low: Array<string | undefined> = [];

  /** `slash`: a slash parts words too ("Avoid/review", "price/feature"), as product answers write them. */
  constructor(readonly text: string, slash = false) {
    const len = text.length;
    let i = 0;
    while (i < len) {
      while (i < len && (isSpaceCode(text.charCodeAt(i)) || (slash && text.charCodeAt(i) === 47))) i++;
      const start = i;
      while (i < len && !isSpaceCode(text.charCodeAt(i)) && !(slash && text.charCodeAt(i) === 47)) i++;
      if (i - start <= 1) continue;
      let a = start;
      let b = i;
      while (a < b && isPunct(text.charCodeAt(a))) a++;
      while (b > a && isPunct(text.charCodeAt(b - 1))) b--;
      if (b - a <= 1) {
        a = start;
        b = i;
      }
      let h = FNV_SEED;
      let hasUpper = false;
      let hasLower = false;
      for (let k = a; k < b; k++) {
        let c = text.charCodeAt(k);
        if (c >= 65 && c <= 90) hasUpper = true;
        else if (c >= 97 && c <= 122) hasLower = true;
        if (c === 0x2019) c = 39;
        h = Math.imul(h ^ lowerCode(c), 16777619);
      }
      this.from.push(a);
      this.to.push(b);
      this.hash.push(h);
      this.upper.push(hasUpper && !hasLower);
      this.n++;
    }
  }

  /** The word as written (’ read as '). */
  rawAt(k: number): string {
    let w = this.raw[k];
    if (w === undefined) {
      w = this.text.slice(this.from[k], this.to[k]);
      if (w.indexOf('\u2019') !== -1) w = w.replace(/\u2019/g, "'");
      this.raw[k] = w;
    }
    return w;
  }

  lowAt(k: number): string {
    let w = this.low[k];
    if (w === undefined) {
      w = this.rawAt(k).toLowerCase();
      this.low[k] = w;
    }
    return w;
  }

  /** Word k is `lower` (lower-case comparison). */
  is(k: number, lower: string, h: number): boolean {
    return k >= 0 && k < this.n && this.hash[k] === h && this.lowAt(k) === lower;
  }
}

function isSpaceCode(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 0xa0 || c === 0x3000 || (c >= 0x2000 && c <= 0x200a);
}

/** A lexicon keyed by the hash of its words; a hit is confirmed on the word itself. */
export class HashedLexicon {
  private byHash = new Map<number, Array<[string, number]>>();
  constructor(entries: Iterable<[string, number]>) {
    for (const [w, v] of entries) {
      const h = hashLower(w);
      const list = this.byHash.get(h);
      if (list) list.push([w, v]);
      else this.byHash.set(h, [[w, v]]);
    }
  }
  get(words: Words, k: number): number | undefined {
    const list = this.byHash.get(words.hash[k]);
    if (!list) return undefined;
    const w = words.lowAt(k);
    for (const [key, v] of list) if (key === w) return v;
    return undefined;
  }
}
