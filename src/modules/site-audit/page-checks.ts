/**
 * What one fetched page says to an AI agent: index directives (meta robots and
 * X-Robots-Tag), the text present without running JavaScript, and the JSON-LD types.
 * Regular expressions over the HTML suffice: nothing here needs a DOM, and the page is
 * untrusted data that is only read, never run.
 */
export interface PageSignals {
  noindex: boolean;
  nosnippet: boolean;
  /** Characters of visible text in the HTML as served (scripts, styles and tags removed). */
  text_chars: number;
  json_ld_types: string[];
}

/** Below this much served text, a page is taken as rendered by JavaScript only. */
export const MIN_TEXT_CHARS = 100;

function directives(html: string, header: string): Set<string> {
  const out = new Set<string>();
  const add = (value: string) => {
    for (const d of value.toLowerCase().split(',')) out.add(d.trim().replace(/^[\w-]+:\s*(?=(noindex|nosnippet|none)$)/, ''));
  };
  // X-Robots-Tag may name a bot (`googlebot: noindex`); any such directive is reported
  if (header) add(header);
  for (const m of html.matchAll(/<meta\b[^>]*>/gi)) {
    const tag = m[0];
    const name = /\bname\s*=\s*["']?([\w-]+)/i.exec(tag)?.[1]?.toLowerCase();
    if (!name || !(name === 'robots' || name.endsWith('bot') || name === 'gptbot')) continue;
    const content = /\bcontent\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
    if (content) add(content[2] ?? content[3] ?? content[4] ?? '');
  }
  return out;
}

function jsonLdTypes(html: string): string[] {
  const types = new Set<string>();
  const visit = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    const t = o['@type'];
    for (const x of [t].flat()) if (typeof x === 'string' && x.length < 100) types.add(x);
    if (o['@graph']) visit(o['@graph']);
  };
  for (const m of html.matchAll(/<script\b[^>]*type\s*=\s*["']?application\/ld\+json["']?[^>]*>([\s\S]*?)<\/script>/gi)) {
    try {
      visit(JSON.parse(m[1]));
    } catch {
      // invalid JSON-LD gives no type
    }
  }
  return [...types].sort();
}

function visibleText(html: string): string {
  const body = /<body\b[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  return body
    .replace(/<(script|style|noscript|template|svg)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[#\w]+;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function pageSignals(html: string, robotsHeader: string): PageSignals {
  const d = directives(html, robotsHeader);
  return {
    noindex: d.has('noindex') || d.has('none'),
    nosnippet: d.has('nosnippet') || d.has('none'),
    text_chars: visibleText(html).length,
    json_ld_types: jsonLdTypes(html),
  };
}

/** `<loc>` entries of a sitemap (or of a sitemap index: those are sitemaps, not pages). */
export function sitemapLocations(xml: string): { pages: string[]; sitemaps: string[] } {
  const locs = [...xml.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/gi)].map((m) => m[1].replace(/&amp;/g, '&'));
  return /<sitemapindex\b/i.test(xml) ? { pages: [], sitemaps: locs } : { pages: locs, sitemaps: [] };
}
