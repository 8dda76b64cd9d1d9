import { ABBREVIATIONS } from './data/words.js';
import { findUrls, type UrlSpan } from './urls.js';

/** Token flags. */
export const CAP = 1; // first letter upper-case
export const SENT_START = 2; // first word of a sentence, a list item or a table cell
export const HEADING = 4; // in a markdown heading (title case is no evidence of a name)
export const LIST = 8; // in a list item
export const TABLE = 16; // in a table row

/**
 * An answer read once: URLs found and blanked out (`clean` has the same offsets as
 * `text`), words with their flags, and sentences. Every line is a sentence of its own
 * (list items, table rows, headings); inside a line, sentences end at . ! ? followed by
 * a space, except after abbreviations and initials.
 */
export interface Doc {
  text: string;
  clean: string;
  urls: UrlSpan[];
  n: number;
  start: number[];
  end: number[];
  /** FNV-1a hash of each word in lower case (see `hashLower`): matching without a string per word. */
  hash: number[];
  /** Lower-case words made on demand by `lowerAt`. */
  lowerCache: Array<string | undefined>;
  flags: number[];
  /** Sentence index of each token. */
  sent: number[];
  sentStart: number[];
  sentEnd: number[];
  /** First token of each sentence, and one past its last. */
  sentTok: number[];
  sentTokEnd: number[];
}

const ABBREV = new Set(ABBREVIATIONS);

// Letters and digits outside ASCII, decided once per code unit.
const wordCache = new Uint8Array(65536); // 0 unknown, 1 word, 2 not
const WORD_RE = /[\p{L}\p{M}\p{N}]/u;

function isWord(c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
  let v = wordCache[c];
  if (v === 0) {
    v = c >= 0xd800 && c <= 0xdfff ? 2 : WORD_RE.test(String.fromCharCode(c)) ? 1 : 2;
    wordCache[c] = v;
  }
  return v === 1;
}

/** Han and kana: written without spaces, so a run of them is a token of its own. */
function isCjk(c: number): boolean {
  return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff);
}

function isUpper(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return c >= 65 && c <= 90;
  const ch = text[i];
  return ch !== ch.toLowerCase();
}

// Lower-case code units, decided once per code unit outside ASCII.
const lowerCache = new Uint16Array(65536);

export function lowerCode(c: number): number {
  if (c < 128) return c >= 65 && c <= 90 ? c + 32 : c;
  let v = lowerCache[c];
  if (v === 0) {
    v = String.fromCharCode(c).toLowerCase().charCodeAt(0);
    lowerCache[c] = v;
  }
  return v;
}

export const FNV_SEED = 0x811c9dc5 | 0;

/** Continues an FNV-1a hash over s[from, to) in lower case. */
export function hashRange(h: number, s: string, from: number, to: number): number {
  for (let k = from; k < to; k++) h = Math.imul(h ^ lowerCode(s.charCodeAt(k)), 16777619);
  return h;
}

/** Hash of a lower-case string, as the tokenizer computes it for words. */
export function hashLower(s: string): number {
  return hashRange(FNV_SEED, s, 0, s.length);
}

/** Word `i` in lower case. */
export function lowerAt(doc: Doc, i: number): string {
  let w = doc.lowerCache[i];
  if (w === undefined) {
    w = doc.clean.slice(doc.start[i], doc.end[i]).toLowerCase();
    doc.lowerCache[i] = w;
  }
  return w;
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 13 || c === 0xa0;
// closing quotes, brackets and emphasis that may follow a sentence's final stop
const CLOSERS = new Set(['"', "'", ')', ']', '*', '_', '\u201d', '\u2019', '`']);

export function parseDoc(text: string): Doc {
  const urls = findUrls(text);
  let clean = text;
  if (urls.length) {
    const parts: string[] = [];
    let at = 0;
    for (const u of urls) {
      if (u.blankStart < at) continue;
      parts.push(text.slice(at, u.blankStart), ' '.repeat(u.blankEnd - u.blankStart));
      at = u.blankEnd;
    }
    parts.push(text.slice(at));
    clean = parts.join('');
  }
  const doc: Doc = {
    text, clean, urls, n: 0, start: [], end: [], hash: [], lowerCache: [], flags: [], sent: [],
    sentStart: [], sentEnd: [], sentTok: [], sentTokEnd: [],
  };
  const { start, end, hash, flags, sent, sentStart, sentEnd, sentTok, sentTokEnd } = doc;
  const len = clean.length;
  let lineFlags = 0;
  let atLineStart = true;
  let sentOpen = false; // the current sentence has a word
  let cellStart = false; // next word starts a table cell
  let n = 0;

  let i = 0;
  while (i < len) {
    if (atLineStart) {
      atLineStart = false;
      i = skipLineMarkers(clean, i, len);
      lineFlags = markerFlags;
      if (lineFlags & TABLE) cellStart = true;
      continue;
    }
    const c = clean.charCodeAt(i);
    if (isWord(c)) {
      const cjk = c >= 0x3040 && isCjk(c);
      let h = Math.imul(FNV_SEED ^ lowerCode(c), 16777619);
      let j = i + 1;
      while (j < len) {
        const d = clean.charCodeAt(j);
        if (!isWord(d) || (d >= 0x3040 && isCjk(d)) !== cjk) break;
        h = Math.imul(h ^ lowerCode(d), 16777619);
        j++;
      }
      let f = lineFlags & (HEADING | LIST | TABLE);
      if (c < 128 ? c >= 65 && c <= 90 : isUpper(clean, i)) f |= CAP;
      if (!sentOpen) {
        sentOpen = true;
        f |= SENT_START;
        sentStart.push(i);
        sentTok.push(n);
      } else if (cellStart) f |= SENT_START;
      cellStart = false;
      start.push(i);
      end.push(j);
      hash.push(h);
      flags.push(f);
      sent.push(sentStart.length - 1);
      n++;
      i = j;
      continue;
    }
    let close = -1;
    if (c === 10) {
      close = i;
      atLineStart = true;
    } else if (c === 124 /* | */ && lineFlags & TABLE) {
      cellStart = true;
    } else if (c === 46 || c === 33 || c === 63 || c === 0x2026) {
      doc.n = n;
      close = sentenceEndAt(clean, i, len, doc, c === 46);
    } else if (c === 0x3002 || c === 0xff01 || c === 0xff1f) {
      close = i + 1;
    } else if (c === 41 /* ) */ && gluedAfterCount(clean, i)) {
      close = i + 1;
    }
    if (close >= 0) {
      if (sentOpen) {
        sentEnd.push(close);
        sentTokEnd.push(n);
        sentOpen = false;
      }
      if (close > i) {
        i = close;
        continue;
      }
    }
    i++;
  }
  if (sentOpen) {
    sentEnd.push(len);
    sentTokEnd.push(n);
  }
  doc.n = n;
  return doc;
}

let markerFlags = 0;

/** Skips list, heading, quote and table markers at a line's start; sets `markerFlags` to what the line is. */
function skipLineMarkers(s: string, i: number, len: number): number {
  markerFlags = 0;
  while (i < len && isSpace(s.charCodeAt(i))) i++;
  while (s[i] === '>') {
    i++;
    while (i < len && isSpace(s.charCodeAt(i))) i++;
  }
  const c = s[i];
  if (c === '#') {
    while (s[i] === '#') i++;
    markerFlags = HEADING;
  } else if ((c === '-' || c === '*' || c === '+' || c === '\u2022') && isSpace(s.charCodeAt(i + 1))) {
    i += 2;
    markerFlags = LIST;
  } else if (c === '|') {
    markerFlags = TABLE;
  } else if (c >= '0' && c <= '9') {
    let j = i;
    while (s[j] >= '0' && s[j] <= '9') j++;
    if ((s[j] === '.' || s[j] === ')') && isSpace(s.charCodeAt(j + 1)) && j - i <= 3) {
      i = j + 2;
      markerFlags = LIST;
    }
  }
  return i;
}

const isLowerAscii = (c: number) => c >= 97 && c <= 122;
const isUpperAscii = (c: number) => c >= 65 && c <= 90;

/**
 * A stop with no space after it that still ends a sentence: a lower-case word, the stop,
 * then a capitalised or camel-case word ("…cooling features.DreamCloud: This mattress…"), as scraped
 * pages that lost their line breaks write it. Domains and file names keep their dot:
 * their next letter is lower-case ("monday.com") or the word before is capitals ("ASP.NET").
 */
function gluedSentence(s: string, i: number): boolean {
  if (i < 2) return false;
  const a = s.charCodeAt(i + 1);
  const b = s.charCodeAt(i + 2);
  const p = s.charCodeAt(i - 1);
  // "…under $600.Reviews and…": a figure, the stop, a capitalised word
  if (p >= 48 && p <= 57) return isUpperAscii(a) && isLowerAscii(b) && isLowerAscii(s.charCodeAt(i + 3));
  if (!isLowerAscii(p) || !isLowerAscii(s.charCodeAt(i - 2))) return false;
  // "…certified.hOmeLabs 4,500…", "…today.iPhone…", "…options.TP-Link…": a name in camel case or capitals
  return (isUpperAscii(a) && (isLowerAscii(b) || isUpperAscii(b))) || (isLowerAscii(a) && isUpperAscii(b));
}

/**
 * A shopping card's rating count glued to what follows ("…4.6(1k+)Factors to Consider…",
 * "…4.8(9k+)TP-Link Tapo…"), as Google AI Mode's scraped pages write it: the sentence ends
 * after the count when a capitalised word follows.
 */
function gluedAfterCount(s: string, i: number): boolean {
  const a = s.charCodeAt(i + 1);
  if (!isUpperAscii(a)) return false;
  const open = s.lastIndexOf('(', i);
  return open >= 0 && i - open <= 8 && /^\(\d[\d.,]*k?\+?$/.test(s.slice(open, i));
}

/** Where the sentence ends if the stop at `i` ends it (after closers), else -1. */
function sentenceEndAt(s: string, i: number, len: number, doc: Doc, isDot: boolean): number {
  let j = i + 1;
  while (j < len && (s[j] === '.' || s[j] === '!' || s[j] === '?')) j++;
  while (j < len && CLOSERS.has(s[j])) j++;
  if (j < len && !isSpace(s.charCodeAt(j)) && s[j] !== '\n' && !(isDot && j === i + 1 && gluedSentence(s, i))) return -1;
  if (isDot && j === i + 1 && doc.n > 0 && doc.end[doc.n - 1] === i) {
    // "e.g.", "Inc.", "J." do not end a sentence
    if (doc.end[doc.n - 1] - doc.start[doc.n - 1] === 1 && isUpper(s, i - 1)) return -1;
    let k = doc.start[doc.n - 1];
    while (k >= 2 && s[k - 1] === '.' && isWord(s.charCodeAt(k - 2))) {
      k -= 2;
      while (k > 0 && isWord(s.charCodeAt(k - 1))) k--;
    }
    if (ABBREV.has(s.slice(k, i).toLowerCase())) return -1;
  }
  return j;
}
