import { getDomain, parse } from 'tldts';

/** True for an absolute http(s) URL with a real host name (or IP). */
export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0 && !/\s/.test(value);
  } catch {
    return false;
  }
}

export function isHttpsUrl(value: string): boolean {
  return isHttpUrl(value) && value.toLowerCase().startsWith('https://');
}

/** Registrable domain (public suffix list), `www.` dropped; IPs and localhost as they are. */
export function registrableDomain(hostOrUrl: string): string | null {
  const info = parse(hostOrUrl);
  if (info.isIp) return info.hostname;
  if (info.hostname === 'localhost') return 'localhost';
  return info.isIcann || info.domain ? getDomain(hostOrUrl) : null;
}

/**
 * A competitor or brand website, given as a bare domain or a URL, as an https URL:
 * scheme forced to https, host lower-cased, `www.` kept as given, no trailing slash,
 * query and fragment dropped. Null when it does not name a real public domain.
 */
export function normalizeWebsite(input: string): { website: string; domain: string } | null {
  const raw = input.trim();
  if (!raw || /\s/.test(raw)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (u.username || u.password) return null;
  const info = parse(u.hostname);
  if (!info.domain || !info.publicSuffix || info.isIp || !info.isIcann) return null;
  const path = u.pathname.replace(/\/+$/, '');
  return { website: `https://${u.hostname.toLowerCase()}${u.port ? `:${u.port}` : ''}${path}`, domain: info.domain };
}

export function faviconUrls(domain: string): string[] {
  return [`https://${domain}/favicon.ico`, `https://${domain}/apple-touch-icon.png`];
}
