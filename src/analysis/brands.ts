import { parse } from 'tldts';
import { isCommonWord } from './data/dictionary.js';
import { hashLower, lowerCode } from './doc.js';
import { ALWAYS_CAPITALISED, DERIVED_ALIAS_SUFFIXES } from './data/words.js';
import type { BrandSpec, CompiledBrands, Variant } from './types.js';

export type { CompiledBrands, Variant } from './types.js';

const DERIVED = new Set(DERIVED_ALIAS_SUFFIXES);
const ALWAYS_CAP = new Set(ALWAYS_CAPITALISED);
const TYPO_MIN = 6;

/** Lower-case words of a name, split like answer text is (letters and digits). */
export function nameTokens(name: string): string[] {
  return name.toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
}

/** Registrable domain of a brand's website setting ("https://www.HubSpot.com/x" → hubspot.com). */
export function brandDomain(domain: string | null): string | null {
  if (!domain) return null;
  const host = domain.trim().toLowerCase().replace(/^[a-z]+:\/\//, '').split(/[/?#:]/)[0];
  const p = parse(host);
  return (p.domain ?? host).replace(/^www\./, '') || null;
}

export function isCompiled(x: unknown): x is CompiledBrands {
  return typeof x === 'object' && x !== null && (x as CompiledBrands).kind === 'compiled-brands';
}

export function compileBrands(brands: readonly BrandSpec[]): CompiledBrands {
  const byFirst = new Map<string, Variant[]>();
  const byFirstHash = new Map<number, Variant[]>();
  const byCompactHash = new Map<number, Variant>();
  const compactPrefixes = new Set<number>();
  const typos = new Map<number, Variant[]>();
  const domains = new Map<string, number[]>();
  const keys = new Set<string>();
  const seen = new Set<string>();
  let maxTypoLength = 0;

  const add = (brand: number, tokens: string[], webName: boolean, needsCue = false, cased = false) => {
    const compact = tokens.join('');
    if (compact.length < 2 || seen.has(tokens.join(' '))) return;
    seen.add(tokens.join(' '));
    const v: Variant = {
      brand, tokens, hashes: tokens.map(hashLower), compact, common: !webName && tokens.every(isCommonWord),
      alwaysCapitalised: !webName && tokens.some((t) => ALWAYS_CAP.has(t)),
      needsCue,
      cased,
    };
    keys.add(compact);
    const list = byFirst.get(tokens[0]) ?? [];
    list.push(v);
    list.sort((a, b) => b.tokens.length - a.tokens.length);
    byFirst.set(tokens[0], list);
    byFirstHash.set(v.hashes[0], list);
    const ch = hashLower(compact);
    if (!byCompactHash.has(ch)) byCompactHash.set(ch, v);
    for (let k = 2; k < compact.length; k++) compactPrefixes.add(hashLower(compact.slice(0, k)));
    if (!v.common && compact.length >= TYPO_MIN && /^[a-z]+$/.test(compact)) {
      const t = typos.get(compact.charCodeAt(0)) ?? [];
      t.push(v);
      typos.set(compact.charCodeAt(0), t);
      maxTypoLength = Math.max(maxTypoLength, compact.length + 1);
    }
  };

  brands.forEach((b, i) => {
    for (const name of [b.name, ...(b.aliases ?? [])]) {
      const tokens = nameTokens(name ?? '');
      if (!tokens.length) continue;
      // a name written as a web address (monday.com) is never an ordinary word
      add(i, tokens, /\.[a-z]{2,}$/i.test(name.trim()), false, /\p{Lu}/u.test(name));
      // "Close CRM" → Close, "monday.com" → monday: the short form is also the brand
      if (tokens.length >= 2 && DERIVED.has(tokens[tokens.length - 1])) add(i, tokens.slice(0, -1), false);
    }
    const d = brandDomain(b.domain);
    if (d) domains.set(d, [...(domains.get(d) ?? []), i]);
  });
  // the vendor's family name (freshworks.com → "Freshworks CRM" for Freshsales), when one
  // brand owns the domain and the label is no ordinary word
  for (const [d, owners] of domains) {
    const label = d.slice(0, d.indexOf('.'));
    if (owners.length === 1 && label.length >= 4 && /^[a-z]+$/.test(label) && !isCommonWord(label)) add(owners[0], [label], false, true);
  }
  return {
    kind: 'compiled-brands',
    brands,
    own: brands.findIndex((b) => b.isOwn),
    byFirst, byFirstHash, byCompactHash, compactPrefixes, typos, domains, keys, maxTypoLength,
    nameCache: new Map(),
  };
}

/**
 * The text's s[from, to), in lower case, is within one edit of `b` (optimal string
 * alignment: one insertion, deletion, substitution or swap of neighbours). No allocation.
 */
export function withinOneEdit(s: string, from: number, to: number, b: string): boolean {
  const la = to - from;
  const lb = b.length;
  if (la - lb > 1 || lb - la > 1) return false;
  let i = 0;
  while (i < la && i < lb && lowerCode(s.charCodeAt(from + i)) === b.charCodeAt(i)) i++;
  if (i === la && i === lb) return true;
  if (la === lb) {
    // substitution, or a swap of two neighbours
    if (sameRest(s, from, la, i + 1, b, i + 1)) return true;
    return (
      i + 1 < la && lowerCode(s.charCodeAt(from + i)) === b.charCodeAt(i + 1) &&
      lowerCode(s.charCodeAt(from + i + 1)) === b.charCodeAt(i) && sameRest(s, from, la, i + 2, b, i + 2)
    );
  }
  return la > lb ? sameRest(s, from, la, i + 1, b, i) : sameRest(s, from, la, i, b, i + 1);
}

/** s[from + ai, from + la) in lower case equals b[bi, end). */
function sameRest(s: string, from: number, la: number, ai: number, b: string, bi: number): boolean {
  if (la - ai !== b.length - bi) return false;
  for (; ai < la; ai++, bi++) if (lowerCode(s.charCodeAt(from + ai)) !== b.charCodeAt(bi)) return false;
  return true;
}
