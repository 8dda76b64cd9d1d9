import { parse } from 'tldts';
import { COMPANY_DOMAINS } from './data/company-domains.js';
import { EDITORIAL_DOMAINS } from './data/editorial-domains.js';
import { INSTITUTIONAL_DOMAINS, INSTITUTIONAL_SECOND_LEVELS, INSTITUTIONAL_TLDS } from './data/institutional-domains.js';
import { PAGE_TYPE_RULES } from './data/page-types.js';
import { PLACEHOLDER_HOSTS, PLACEHOLDER_TLDS } from './data/placeholders.js';
import { REFERENCE_DOMAINS, REFERENCE_SUBDOMAINS } from './data/reference-domains.js';
import { UGC_DOMAINS, UGC_SUBDOMAINS } from './data/ugc-domains.js';
import { CATEGORY_IDS, URL_TYPES, type UrlTypeName } from './types.js';

/** What the rules need to know about a host, computed once per host name. */
export interface HostInfo {
  host: string;
  /** Registrable domain, `www.` dropped (gov.uk for www.gov.uk). */
  domain: string;
  /** The domain without its public suffix ("hubspot" for hubspot.com). */
  label: string;
  publicSuffix: string;
  /** Leftmost label of the sub-domain other than www ("docs" for docs.stripe.com), or "". */
  sub: string;
  /** A curated list's category for this host or one of its parents, or -1. */
  listed: number;
  placeholder: boolean;
}

/** The curated lists as one map: host or domain → category. */
export const CURATED = new Map<string, number>();
for (const [list, cat] of [
  [EDITORIAL_DOMAINS, CATEGORY_IDS.editorial],
  [INSTITUTIONAL_DOMAINS, CATEGORY_IDS.institutional],
  [REFERENCE_DOMAINS, CATEGORY_IDS.reference],
  [UGC_DOMAINS, CATEGORY_IDS.ugc],
] as const) {
  for (const d of list) CURATED.set(d, cat);
}
const COMPANIES = new Set(COMPANY_DOMAINS);
const PLACEHOLDERS = new Set(PLACEHOLDER_HOSTS);
const PLACEHOLDER_TLD = new Set(PLACEHOLDER_TLDS);
const INST_TLD = new Set(INSTITUTIONAL_TLDS);
const INST_SECOND = new Set(INSTITUTIONAL_SECOND_LEVELS);
const REF_SUB = new Set(REFERENCE_SUBDOMAINS);
const UGC_SUB = new Set(UGC_SUBDOMAINS);

const hostCache = new Map<string, HostInfo | null>();

/** Host facts, or null when the host is no public site (IP address, unknown suffix). Cached. */
export function hostInfo(host: string): HostInfo | null {
  let info = hostCache.get(host);
  if (info !== undefined) return info;
  info = computeHostInfo(host);
  if (hostCache.size > 20_000) hostCache.clear();
  hostCache.set(host, info);
  return info;
}

function computeHostInfo(host: string): HostInfo | null {
  const tld = host.slice(host.lastIndexOf('.') + 1);
  const p = parse(host);
  if (p.isIp) return null;
  const placeholder = PLACEHOLDER_TLD.has(tld) || isPlaceholderHost(host);
  if (!p.publicSuffix || (!p.isIcann && !placeholder)) return null;
  const domain = (p.domain ?? (host === p.publicSuffix ? host : null))?.replace(/^www\./, '');
  if (!domain) return null;
  const subLabels = host.length > domain.length ? host.slice(0, host.length - domain.length - 1).split('.') : [];
  const sub = subLabels.find((l) => l !== 'www') ?? '';
  let listed = -1;
  for (let h = host; h.length >= domain.length; h = h.slice(h.indexOf('.') + 1)) {
    const c = CURATED.get(h);
    if (c !== undefined) {
      listed = c;
      break;
    }
    if (h.indexOf('.') === -1) break;
  }
  const label = domain === p.publicSuffix ? domain.split('.')[0] : domain.slice(0, domain.length - p.publicSuffix.length - 1);
  return { host, domain, label, publicSuffix: p.publicSuffix, sub, listed, placeholder };
}

function isPlaceholderHost(host: string): boolean {
  for (let h = host; ; h = h.slice(h.indexOf('.') + 1)) {
    if (PLACEHOLDERS.has(h)) return true;
    if (h.indexOf('.') === -1) return false;
  }
}

function institutionalSuffix(suffix: string): boolean {
  const labels = suffix.split('.');
  if (INST_TLD.has(labels[labels.length - 1])) return true;
  return labels.length >= 2 && INST_SECOND.has(labels[labels.length - 2]);
}

/**
 * Category of a cited page (docs/analytics.md), first rule that applies:
 * 1. a tracked brand's domain (own or competitor) → corporate;
 * 2. the curated lists (host or a parent domain) → editorial, institutional, reference, ugc;
 * 3. government and academic suffixes (.gov, .edu, .mil, .int, gov.xx, ac.xx…) → institutional;
 * 4. documentation and help sub-domains (docs., developer., support., help.…) → reference,
 *    community sub-domains (forum., community.…) → ugc;
 * 5. other company sites → corporate: the curated company list, a domain whose name is a
 *    name written in the answer (zoho.com when the answer says "Zoho"), or a product page
 *    (pricing, plans, features) on a site no list knows;
 * 6. everything else → other.
 */
export function categorize(info: HostInfo, urlType: number, tracked: boolean, namedInAnswer: (label: string) => boolean): number {
  if (tracked) return CATEGORY_IDS.corporate;
  if (info.listed !== -1) return info.listed;
  if (institutionalSuffix(info.publicSuffix)) return CATEGORY_IDS.institutional;
  if (REF_SUB.has(info.sub)) return CATEGORY_IDS.reference;
  if (UGC_SUB.has(info.sub)) return CATEGORY_IDS.ugc;
  if (COMPANIES.has(info.domain) || namedInAnswer(info.label)) return CATEGORY_IDS.corporate;
  if (urlType === PRODUCT_TYPE) return CATEGORY_IDS.corporate;
  return CATEGORY_IDS.other;
}

const TYPE_INDEX = new Map<UrlTypeName, number>(URL_TYPES.map((t, i) => [t, i]));
const PRODUCT_TYPE = TYPE_INDEX.get('product')!;
const HOMEPAGE = TYPE_INDEX.get('homepage')!;
const OTHER = TYPE_INDEX.get('other')!;

/** Page type (index into URL_TYPES) from the host and the lower-case path plus query. */
export function pageType(host: string, path: string): number {
  const q = path.indexOf('?');
  const pathname = q === -1 ? path : path.slice(0, q);
  if (pathname === '' || pathname === '/') return HOMEPAGE;
  for (const rule of PAGE_TYPE_RULES) {
    if (rule.host && !rule.host.test(host)) continue;
    if (rule.path && !rule.path.test(path)) continue;
    return TYPE_INDEX.get(rule.type)!;
  }
  return OTHER;
}
