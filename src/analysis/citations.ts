import type { Reference } from '../ports/providers/types.js';
import type { CompiledBrands } from './brands.js';
import { categorize, hostInfo, pageType, type HostInfo } from './categories.js';
import { CAP, lowerAt, type Doc } from './doc.js';
import { normalizeUrl, type NormalizedUrl } from './urls.js';
import type { Citation } from './types.js';

/** A citation with the host facts the other steps reuse. */
export interface CitationDraft extends Citation {
  label: string;
}

function isUsefulTitle(title: string, url: string): boolean {
  const t = title.trim();
  return t.length > 1 && !/^\[?\d+\]?$/.test(t) && !t.startsWith('http') && t !== url;
}

/**
 * The answer's citations: its references (by reference_index) and then the URLs in its
 * text, normalised, placeholders and non-web hosts dropped, one per URL. A URL cited twice
 * keeps its first reference_index and the best title (a reference's title, else the link
 * text). URLs found only in the text are numbered after the highest reference_index.
 */
export function buildCitations(doc: Doc, references: readonly Reference[], cb: CompiledBrands): CitationDraft[] {
  const byUrl = new Map<string, CitationDraft>();
  const out: CitationDraft[] = [];
  let names: Set<string> | null = null;
  const namedInAnswer = (label: string) => {
    if (cb.keys.has(label)) return true;
    names ??= capitalisedNames(doc);
    return names.has(label);
  };

  const refs = references.length > 1 ? [...references].sort((a, b) => (a.reference_index ?? 0) - (b.reference_index ?? 0)) : references;
  let nextIndex = 1;
  for (const r of refs) if (Number.isInteger(r.reference_index) && r.reference_index >= nextIndex) nextIndex = r.reference_index + 1;

  const take = (link: string, title: string, snippet: string, index: number | null) => {
    const parsed = parseLink(link);
    if (!parsed) return;
    const { norm, info, urlType } = parsed;
    const seen = byUrl.get(norm.url);
    if (seen) {
      if (!isUsefulTitle(seen.title, seen.url) && isUsefulTitle(title, norm.url)) seen.title = title.trim();
      if (!seen.snippet && snippet) seen.snippet = snippet;
      return;
    }
    const brandIds: string[] = [];
    let isOwn = false;
    for (const b of cb.domains.get(info.domain) ?? []) {
      brandIds.push(cb.brands[b].id);
      if (cb.brands[b].isOwn) isOwn = true;
    }
    const c: CitationDraft = {
      url: norm.url,
      domain: info.domain,
      title: isUsefulTitle(title, norm.url) ? title.trim() : '',
      snippet: snippet ?? '',
      category: categorize(info, urlType, brandIds.length > 0, namedInAnswer),
      urlType,
      referenceIndex: index ?? nextIndex++,
      isOwn,
      brandIds,
      label: info.label,
    };
    byUrl.set(norm.url, c);
    out.push(c);
  };

  for (const [k, r] of refs.entries()) {
    take(r.link ?? '', r.title ?? '', r.snippet ?? '', Number.isInteger(r.reference_index) ? r.reference_index : k + 1);
  }
  for (const u of doc.urls) if (!u.display) take(u.raw, u.linkText ?? '', '', null);
  return out;
}

interface ParsedLink {
  norm: NormalizedUrl;
  info: HostInfo;
  urlType: number;
}

// The answer-independent facts of a link, kept across answers: the same sources come back
// again and again (bounded; cleared when full).
const linkCache = new Map<string, ParsedLink | null>();

function parseLink(link: string): ParsedLink | null {
  let p = linkCache.get(link);
  if (p !== undefined) return p;
  const norm = normalizeUrl(link);
  const info = norm ? hostInfo(norm.host) : null;
  p = norm && info && !info.placeholder ? { norm, info, urlType: pageType(info.host, norm.path) } : null;
  if (linkCache.size >= 20_000) linkCache.clear();
  linkCache.set(link, p);
  return p;
}

/** Lower-case capitalised words, alone and joined with the next one or two ("Help Scout" → helpscout). */
function capitalisedNames(doc: Doc): Set<string> {
  const set = new Set<string>();
  const joins = (i: number) => i + 1 < doc.n && doc.flags[i + 1] & CAP && doc.start[i + 1] - doc.end[i] === 1;
  for (let i = 0; i < doc.n; i++) {
    if (!(doc.flags[i] & CAP)) continue;
    let name = lowerAt(doc, i);
    set.add(name);
    for (let k = i; k < i + 2 && joins(k); k++) set.add((name += lowerAt(doc, k + 1)));
  }
  return set;
}
