import { safeRequest, type HostResolver } from '../http/safe-request.js';

// Fetches one HTML page for reading. Redirects are followed here, not in safeRequest, so
// every hop goes through the address check again (a public page may redirect to a
// private address). Network and address failures surface as safeRequest's OutboundError;
// what is wrong with the page itself as PageFetchError.

export type PageFetchErrorCode = 'too_many_redirects' | 'bad_redirect' | 'http_status' | 'not_html';

export class PageFetchError extends Error {
  readonly code: PageFetchErrorCode;
  readonly status?: number;
  constructor(code: PageFetchErrorCode, message: string, status?: number) {
    super(message);
    this.name = 'PageFetchError';
    this.code = code;
    this.status = status;
  }
}

export interface FetchPageOptions {
  allowPrivate: boolean;
  /** For the whole fetch, redirects included. */
  timeoutMs?: number;
  maxBytes?: number;
  /** Test hooks, passed to safeRequest. */
  tls?: { ca?: string | Buffer; rejectUnauthorized?: boolean };
  resolve?: HostResolver;
}

export interface FetchedPage {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  html: string;
  contentType: string;
  /** The page was larger than maxBytes and was cut there. */
  truncated: boolean;
}

export const MAX_REDIRECTS = 3;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const REQUEST_HEADERS = {
  'user-agent': 'Mozilla/5.0 (compatible; SightlineBot/0.1)',
  accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
  'accept-encoding': 'identity',
};

function charsetOf(contentType: string, body: Buffer): string {
  const declared = contentType.match(/charset\s*=\s*"?([\w.:-]+)/i)?.[1];
  if (declared) return declared;
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  const head = body.subarray(0, 2048).toString('latin1');
  return head.match(/<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i)?.[1] ?? 'utf-8';
}

export function decodeHtml(body: Buffer, contentType: string): string {
  try {
    return new TextDecoder(charsetOf(contentType, body)).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body); // unknown charset label
  }
}

function looksLikeHtml(body: Buffer): boolean {
  return /^\s*(<!doctype html|<html|<head|<body)/i.test(body.subarray(0, 512).toString('latin1').replace(/^\uFEFF/, ''));
}

/** GET an http(s) page that must be HTML; follows up to 3 redirects, each re-checked. */
export async function fetchPage(url: string, options: FetchPageOptions): Promise<FetchedPage> {
  const { allowPrivate, timeoutMs = 10_000, maxBytes = 2_000_000, tls, resolve } = options;
  const deadline = Date.now() + timeoutMs;
  let current = url;
  for (let hop = 0; ; hop++) {
    const res = await safeRequest(current, {
      method: 'GET',
      headers: REQUEST_HEADERS,
      timeoutMs: Math.max(1, deadline - Date.now()),
      maxBytes,
      allowPrivate,
      tls,
      resolve,
    });
    if (res.status >= 300 && res.status < 400) {
      if (hop === MAX_REDIRECTS) {
        throw new PageFetchError('too_many_redirects', `More than ${MAX_REDIRECTS} redirects from ${url}`, res.status);
      }
      const location = res.headers.location;
      let next: URL;
      try {
        next = new URL(location ?? '', current);
      } catch {
        throw new PageFetchError('bad_redirect', `Redirect from ${current} to an invalid location`, res.status);
      }
      if (!location || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
        throw new PageFetchError('bad_redirect', `Redirect from ${current} without an http(s) location`, res.status);
      }
      current = next.href;
      continue;
    }
    if (res.status < 200 || res.status >= 300) {
      throw new PageFetchError('http_status', `${current} answered HTTP ${res.status}`, res.status);
    }
    const declared = res.headers['content-type'] ?? '';
    const mime = declared.split(';')[0].trim().toLowerCase();
    const isHtml = mime ? HTML_TYPES.has(mime) : looksLikeHtml(res.body);
    if (!isHtml) {
      throw new PageFetchError('not_html', `${current} is ${mime || 'of an unknown type'}, not an HTML page`, res.status);
    }
    return {
      url: current,
      status: res.status,
      html: decodeHtml(res.body, declared),
      contentType: mime || 'text/html',
      truncated: res.truncated,
    };
  }
}
