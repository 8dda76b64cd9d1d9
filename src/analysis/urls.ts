import { parse } from 'tldts';
import { TRACKING_PARAMS, TRACKING_PARAM_PREFIXES } from './data/tracking-params.js';

/** A URL written in the answer's text, with its markdown link text when it is a link target. */
export interface UrlSpan {
  start: number;
  end: number;
  raw: string;
  linkText: string | null;
  /**
   * What the text-reading steps blank out: the URL, or for a citation chip (a link whose
   * text is a bare host, `([hubspot.com](https://…))` as ChatGPT writes where a url_citation
   * sits) the whole chip with its brackets: a brand named only there is cited, not named.
   */
  blankStart: number;
  blankEnd: number;
  /** The URL is the text of a markdown link (`[hubspot.com/pricing](https://…)`): the link's target is the citation, not this. */
  display: boolean;
}

// link text that is only a host name ("hubspot.com", "www.g2.com", "academy.hubspot.com")
const CHIP_TEXT = /^(?:www\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}$/i;

// URL characters: anything but white space, quotes, angle brackets, general punctuation
// (dashes, ellipsis, curly quotes: "vendor.com/pricing—and" ends before the dash) and CJK punctuation.
function isUrlChar(c: number): boolean {
  return c > 32 && c !== 34 && c !== 39 && c !== 60 && c !== 62 && c !== 96 && c !== 0xa0 && !(c >= 0x2000 && c <= 0x206f) && !(c >= 0x3000 && c <= 0x303f) && c !== 0xff08 && c !== 0xff09;
}
function isHostChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 46;
}
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', '*', '_', '~', '>', '\u2019']);
const BARE_HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}$/i;

function trimUrl(raw: string): string {
  let end = raw.length;
  let open = -1; // bracket counts, made on first need
  let close = 0;
  let openSq = 0;
  let closeSq = 0;
  for (;;) {
    const last = raw[end - 1];
    if (TRAILING.has(last)) {
      end--;
      continue;
    }
    if (last !== ')' && last !== ']') break;
    if (open === -1) {
      open = count(raw, '(');
      close = count(raw, ')');
      openSq = count(raw, '[');
      closeSq = count(raw, ']');
    }
    if (last === ')' && open < close) close--;
    else if (last === ']' && openSq < closeSq) closeSq--;
    else break;
    end--;
  }
  return raw.slice(0, end);
}

function count(s: string, ch: string): number {
  let n = 0;
  for (let i = s.indexOf(ch); i !== -1; i = s.indexOf(ch, i + 1)) n++;
  return n;
}

/** The text of a markdown link `[text](url)` whose target starts at `urlStart`, or null. */
function linkTextBefore(text: string, urlStart: number): string | null {
  if (text.charCodeAt(urlStart - 1) !== 40 /* ( */ || text.charCodeAt(urlStart - 2) !== 93 /* ] */) return null;
  let depth = 0;
  for (let i = urlStart - 3, min = Math.max(0, urlStart - 300); i >= min; i--) {
    const c = text[i];
    if (c === '\n') return null;
    if (c === ']') depth++;
    else if (c === '[') {
      if (depth === 0) return text.slice(i + 1, urlStart - 2);
      depth--;
    }
  }
  return null;
}

/** Where a URL may start: "http://", "https://", "www." at a word start, or a host name right before a "/". */
function urlStarts(text: string): number[] {
  const starts: number[] = [];
  for (let i = text.indexOf('/'); i !== -1; i = text.indexOf('/', i + 1)) {
    if (text.charCodeAt(i + 1) === 47 && text.charCodeAt(i - 1) === 58) {
      // scheme: http:// or https://
      const s = text[i - 2] === 's' || text[i - 2] === 'S' ? i - 6 : i - 5;
      if (s >= 0 && /^https?:$/i.test(text.slice(s, i)) && (s === 0 || !isWordChar(text.charCodeAt(s - 1)))) starts.push(s);
      i += 1;
      continue;
    }
    // bare host name followed by a path: hubspot.com/pricing
    let s = i;
    while (s > 0 && isHostChar(text.charCodeAt(s - 1))) s--;
    if (s < i && text.charCodeAt(s - 1) !== 47 && text.charCodeAt(s - 1) !== 64) {
      const host = text.slice(s, i);
      // a real public suffix: "Node.js/Deno" is no link
      if (BARE_HOST.test(host) && parse(host).isIcann) starts.push(s);
    }
  }
  for (let i = text.indexOf('www.'); i !== -1; i = text.indexOf('www.', i + 4)) {
    if (i === 0 || !isWordChar(text.charCodeAt(i - 1)) && text.charCodeAt(i - 1) !== 47 && text.charCodeAt(i - 1) !== 46) starts.push(i);
  }
  return starts.sort((a, b) => a - b);
}

export function findUrls(text: string): UrlSpan[] {
  const out: UrlSpan[] = [];
  if (text.indexOf('.') === -1) return out;
  let covered = -1;
  for (const start of urlStarts(text)) {
    if (start < covered) continue;
    let end = start;
    // a URL ends at a markdown link's "](": "[hubspot.com/pricing](https://…)" is two URLs
    while (end < text.length && isUrlChar(text.charCodeAt(end)) && !(text.charCodeAt(end) === 93 && text.charCodeAt(end + 1) === 40)) end++;
    const raw = trimUrl(text.slice(start, end));
    if (raw.length < 4 || raw.indexOf('.') === -1) continue;
    const linkText = linkTextBefore(text, start);
    let blankStart = start;
    let blankEnd = start + raw.length;
    if (linkText !== null && CHIP_TEXT.test(linkText.trim()) && text.charCodeAt(blankEnd) === 41 /* ) */) {
      blankStart = start - linkText.length - 3;
      blankEnd++;
      if (text.charCodeAt(blankStart - 1) === 40 /* ( */ && text.charCodeAt(blankEnd) === 41) {
        blankStart--;
        blankEnd++;
      }
    }
    const display = text.charCodeAt(start - 1) === 91 /* [ */ && text.startsWith('](', start + raw.length);
    out.push({ start, end: start + raw.length, raw, linkText, blankStart, blankEnd, display });
    covered = start + raw.length;
  }
  return out;
}

export interface NormalizedUrl {
  url: string;
  host: string;
  /** Lower-case path plus query, for page-type rules. */
  path: string;
}

function isTrackingParam(name: string): boolean {
  const n = name.toLowerCase();
  if (TRACKING_SET.has(n)) return true;
  for (const p of TRACKING_PARAM_PREFIXES) if (n.startsWith(p)) return true;
  return false;
}
const TRACKING_SET = new Set(TRACKING_PARAMS);

/**
 * Normalises a cited URL: http(s) only, scheme and host lower-case (the URL parser does
 * that and drops default ports), fragment and tracking parameters dropped, trailing slash
 * dropped except for the root path. A URL without a scheme gets https. Null when unusable.
 */
export function normalizeUrl(raw: string): NormalizedUrl | null {
  let s = raw.trim();
  if (!s) return null;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(s)) s = s.startsWith('//') ? `https:${s}` : `https://${s}`;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (!u.hostname) return null;
  u.hash = '';
  if (u.search) {
    const kept = u.search
      .slice(1)
      .split('&')
      .filter((kv) => kv !== '' && !isTrackingParam(decodeSafe(kv.split('=', 1)[0])));
    u.search = kept.length ? `?${kept.join('&')}` : '';
  }
  if (u.pathname.length > 1 && u.pathname.endsWith('/')) u.pathname = u.pathname.replace(/\/+$/, '') || '/';
  const host = u.hostname.replace(/\.$/, '');
  return { url: u.href, host, path: (u.pathname + u.search).toLowerCase() };
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
