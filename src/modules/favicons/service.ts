import crypto from 'node:crypto';
import { isIP } from 'node:net';
import robotsParserModule from 'robots-parser';
import { parse } from 'tldts';
import type { ServiceContext } from '../../context.js';
import { safeRequest, type SafeResponse } from '../../ports/http/safe-request.js';

// Brand icons for the dashboard (issue 24, docs/dashboard.md "Brand icons"): fetched from the
// brand's own site by the server, kept in the store for a day (a site without a usable icon
// too), served same-origin by the dashboard at /favicons/{domain}. The viewer's browser never
// talks to the brand's site, and the dashboard's CSP keeps `img-src 'self' data:`.

/** How long an icon, or the lack of one, is trusted. */
export const FAVICON_TTL_MS = 24 * 3600 * 1000;
/** Largest icon kept; a bigger one is refused (not cut). */
export const FAVICON_MAX_BYTES = 100 * 1024;
/** One request's time limit, and the whole search's. */
const REQUEST_TIMEOUT_MS = 5_000;
const SEARCH_TIMEOUT_MS = 12_000;
const HOME_MAX_BYTES = 256 * 1024;
const ROBOTS_MAX_BYTES = 64 * 1024;
const MAX_REDIRECTS = 3;
/** The robots.txt token the proxy answers to (the user agent the page fetcher sends). */
export const FAVICON_AGENT = 'SightlineBot';
const USER_AGENT = 'Mozilla/5.0 (compatible; SightlineBot/0.1)';

interface Robots {
  isAllowed(url: string, ua?: string): boolean | undefined;
}
// robots-parser is CommonJS: its default import is the parser function its typings fail to name.
const robotsParser = robotsParserModule as unknown as (url: string, text: string) => Robots;

export interface Favicon {
  domain: string;
  /** Null: a negative entry (the site has no usable icon). */
  contentType: string | null;
  body: Buffer | null;
  etag: string | null;
  fetchedAt: Date;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The host name a favicon may be asked for: lower-case ASCII letters, digits and hyphens in
 * dot-separated labels (an international name in its xn-- form), under a known public
 * suffix; no IP address, port, path, user or trailing dot. Null for anything else.
 */
export function faviconDomain(input: string): string | null {
  const host = input.toLowerCase();
  if (host.length > 253 || isIP(host)) return null;
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  const info = parse(host);
  if (!info.domain || !info.publicSuffix || info.isIp || info.hostname !== host) return null;
  return host;
}

/** What the first bytes say the file is; SVG (a document that may carry script) is never accepted. */
export function sniffImage(body: Buffer): string | null {
  if (body.length >= 4 && body[0] === 0 && body[1] === 0 && body[2] === 1 && body[3] === 0) return 'image/x-icon';
  if (body.length >= 8 && body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (body.length >= 6 && /^GIF8[79]a$/.test(body.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (body.length >= 3 && body[0] === 0xff && body[1] === 0xd8 && body[2] === 0xff) return 'image/jpeg';
  if (body.length >= 12 && body.subarray(0, 4).toString('latin1') === 'RIFF' && body.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}

/** The icon links of a home page, best first: `icon` before `apple-touch-icon`, SVG left out. */
export function iconLinks(html: string, base: string): string[] {
  const found: Array<{ url: string; touch: boolean }> = [];
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const attr = (name: string) => new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag)?.slice(1).find((v) => v !== undefined);
    const rel = (attr('rel') ?? '').toLowerCase().split(/\s+/);
    const href = attr('href')?.replace(/&amp;/g, '&').trim();
    const type = (attr('type') ?? '').toLowerCase();
    if (!href || (!rel.includes('icon') && !rel.includes('apple-touch-icon'))) continue;
    if (type.includes('svg') || /\.svg(\?|#|$)/i.test(href) || href.startsWith('data:')) continue;
    try {
      const url = new URL(href, base);
      if (url.protocol === 'https:' || url.protocol === 'http:') found.push({ url: url.href, touch: !rel.includes('icon') });
    } catch {
      // an href that is not a URL: skipped
    }
  }
  return [...new Set([...found.filter((f) => !f.touch), ...found.filter((f) => f.touch)].map((f) => f.url))].slice(0, 3);
}

/** The stored entry for `domain` while it is fresh, else null. */
export async function cachedFavicon(ctx: ServiceContext, domain: string): Promise<Favicon | null> {
  const { rows } = await ctx.store.query<{ content_type: string | null; body: Uint8Array | null; etag: string | null; fetched_at: Date }>(
    'select content_type, body, etag, fetched_at from favicons where domain = $1',
    [domain],
  );
  const r = rows[0];
  if (!r || new Date(r.fetched_at).getTime() + FAVICON_TTL_MS <= ctx.clock.now().getTime()) return null;
  return { domain, contentType: r.content_type, body: r.body ? Buffer.from(r.body) : null, etag: r.etag, fetchedAt: new Date(r.fetched_at) };
}

/** Searches in flight in this process, by domain: a second asker waits for the first search. */
const inFlight = new Map<string, Promise<Favicon>>();

/** Fetches `domain`'s icon from its site (once at a time per process) and stores the outcome. */
export function fetchFavicon(ctx: ServiceContext, domain: string): Promise<Favicon> {
  let search = inFlight.get(domain);
  if (!search) {
    search = searchAndStore(ctx, domain).finally(() => inFlight.delete(domain));
    inFlight.set(domain, search);
  }
  return search;
}

async function searchAndStore(ctx: ServiceContext, domain: string): Promise<Favicon> {
  const found = await searchIcon(ctx, domain).catch((err: unknown) => {
    ctx.log.warn({ err, domain }, 'favicon search failed');
    return null;
  });
  const etag = found ? `"${crypto.createHash('sha256').update(found.body).digest('base64url').slice(0, 22)}"` : null;
  const { rows } = await ctx.store.query<{ fetched_at: Date }>(
    `insert into favicons (domain, content_type, body, etag, fetched_at) values ($1, $2, decode($3, 'base64'), $4, $5)
     on conflict (domain) do update set content_type = excluded.content_type, body = excluded.body, etag = excluded.etag, fetched_at = excluded.fetched_at
     returning fetched_at`,
    [domain, found?.contentType ?? null, found ? found.body.toString('base64') : null, etag, ctx.clock.now()],
  );
  // Entries nobody asked for in a month are dropped (the table holds what the dashboards show).
  await ctx.store.query(`delete from favicons where fetched_at < $1`, [new Date(ctx.clock.now().getTime() - 30 * FAVICON_TTL_MS)]);
  return { domain, contentType: found?.contentType ?? null, body: found?.body ?? null, etag, fetchedAt: new Date(rows[0].fetched_at) };
}

/**
 * The site's icon: /favicon.ico, else the home page's `<link rel="icon">` (then
 * apple-touch-icon) links, else /apple-touch-icon.png. Each must answer 200 with an image
 * type whose bytes are ICO, PNG, GIF, JPEG or WebP, within FAVICON_MAX_BYTES. Paths of the
 * site that its robots.txt disallows to SightlineBot are not fetched. Null: no usable icon.
 */
async function searchIcon(ctx: ServiceContext, domain: string): Promise<{ contentType: string; body: Buffer } | null> {
  const site = `https://${domain}`;
  const deadline = Date.now() + SEARCH_TIMEOUT_MS;
  // Tests fetch from a local fake site: the URL's origin is swapped, the Host header names the domain.
  const origin = ctx.config.faviconOrigin;
  let robots: Robots | null = null;
  // robots.txt speaks for its own host only: an icon on a CDN host is not checked against it.
  const allowed = (url: string) => !robots || new URL(url).host !== domain || robots.isAllowed(url, FAVICON_AGENT) !== false;
  const get = async (url: string, accept: string, maxBytes: number, overflow: 'truncate' | 'error'): Promise<{ res: SafeResponse; url: string } | null> => {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const left = deadline - Date.now();
      if (left <= 0) return null;
      const target = new URL(current);
      const local = origin && target.host === domain;
      const res = await safeRequest(local ? `${origin}${target.pathname}${target.search}` : current, {
        headers: { 'user-agent': USER_AGENT, accept, 'accept-encoding': 'identity', ...(local ? { host: domain } : {}) },
        timeoutMs: Math.min(REQUEST_TIMEOUT_MS, left),
        maxBytes,
        onOverflow: overflow,
        allowPrivate: ctx.config.allowPrivateUrls,
        tls: ctx.config.outboundCa ? { ca: ctx.config.outboundCa } : undefined,
      }).catch(() => null);
      if (!res) return null;
      const location = res.headers.location;
      if (res.status < 300 || res.status >= 400 || !location) return { res, url: current };
      try {
        current = new URL(location, current).href;
      } catch {
        return null;
      }
      if (!/^https?:$/.test(new URL(current).protocol) || !allowed(current)) return null;
    }
    return null;
  };

  const robotsFetch = await get(`${site}/robots.txt`, 'text/plain,*/*;q=0.5', ROBOTS_MAX_BYTES, 'truncate');
  // No robots.txt (or not a 200): no rules.
  robots = robotsParser(`${site}/robots.txt`, robotsFetch?.res.status === 200 ? robotsFetch.res.body.toString('utf8') : '');

  const tryIcon = async (url: string) => {
    if (!allowed(url)) return null;
    const got = await get(url, 'image/avif,image/webp,image/png,image/x-icon,image/*;q=0.8', FAVICON_MAX_BYTES, 'error');
    if (got?.res.status !== 200) return null;
    const declared = (got.res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const sniffed = sniffImage(got.res.body);
    if (!declared.startsWith('image/') || declared.includes('svg') || !sniffed) return null;
    return { contentType: sniffed, body: got.res.body };
  };

  const ico = await tryIcon(`${site}/favicon.ico`);
  if (ico) return ico;
  if (allowed(`${site}/`)) {
    const home = await get(`${site}/`, 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5', HOME_MAX_BYTES, 'truncate');
    if (home && home.res.status === 200 && /html/i.test(home.res.headers['content-type'] ?? '')) {
      for (const link of iconLinks(home.res.body.toString('utf8'), home.url)) {
        const icon = await tryIcon(link);
        if (icon) return icon;
      }
    }
  }
  return tryIcon(`${site}/apple-touch-icon.png`);
}
