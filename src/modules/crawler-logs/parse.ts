/**
 * One access-log line to the fields Sightline counts by. Two shapes are read, chosen per
 * line: a JSON object (NDJSON of Cloudflare Logpush, Vercel log drains, CloudFront
 * real-time / JSON standard logs) or the combined format of nginx and Apache (with an
 * optional leading virtual host, as nginx `$host` or Apache `%v` prefixes write it).
 */
export interface LogHit {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** The requested host, when the line carries one (lower case, no port). */
  host: string | null;
  method: string;
  /** The request target as sent (path and query). */
  target: string;
  status: number;
  address: string;
  userAgent: string;
  referrer: string;
}

const MONTHS: Record<string, string> = { Jan: '01', Feb: '02', Mar: '03', Apr: '04', May: '05', Jun: '06', Jul: '07', Aug: '08', Sep: '09', Oct: '10', Nov: '11', Dec: '12' };

// [time] "request" status bytes ["referrer" "user agent"], from the `[`; what comes before it
// (`[vhost] address ident user`) is split by hand: an optional leading group in the regular
// expression made it backtrack over every token, a third of the parse time.
const COMBINED_REST = /^\[(\d{2})\/([A-Z][a-z]{2})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-]\d{4})\] "((?:[^"\\]|\\.)*)" (\d{3}) \S+(?: "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)")?/;

/** The UTC day of a local time with its offset; most lines of a log share their hour, so days are remembered. */
const dayCache = new Map<string, string>();
function utcDayOf(d: string, mon: string, y: string, h: string, mi: string, s: string, tz: string): string | null {
  const key = `${y}${mon}${d}${h}${tz}`;
  const hit = dayCache.get(key);
  if (hit) return hit;
  const mm = MONTHS[mon];
  if (!mm) return null;
  const sign = tz[0] === '-' ? -1 : 1;
  const offsetMin = sign * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(3, 5)));
  const t = Date.UTC(Number(y), Number(mm) - 1, Number(d), Number(h), Number(mi), Number(s)) - offsetMin * 60_000;
  if (Number.isNaN(t) || Number(d) > 31 || Number(h) > 23) return null;
  // the minutes can cross midnight only when the offset is not whole hours: not cached then
  const day = new Date(t).toISOString().slice(0, 10);
  if (offsetMin % 60 === 0) {
    if (dayCache.size > 10_000) dayCache.clear();
    dayCache.set(key, day);
  }
  return day;
}

export function parseCombined(line: string): LogHit | null {
  const bracket = line.indexOf(' [');
  if (bracket < 0) return null;
  const head = line.slice(0, bracket).split(' ');
  if (head.length !== 3 && head.length !== 4) return null;
  const m = COMBINED_REST.exec(line.slice(bracket + 1));
  if (!m) return null;
  const vhost = head.length === 4 ? head[0] : null;
  const address = head[head.length - 3];
  const day = utcDayOf(m[1], m[2], m[3], m[4], m[5], m[6], m[7]);
  if (!day) return null;
  const request = m[8];
  const sp1 = request.indexOf(' ');
  if (sp1 <= 0) return null;
  const sp2 = request.indexOf(' ', sp1 + 1);
  const method = request.slice(0, sp1);
  let target = sp2 < 0 ? request.slice(sp1 + 1) : request.slice(sp1 + 1, sp2);
  let host = vhost ? hostOf(vhost) : null;
  if (!target.startsWith('/')) {
    // an absolute URL in the request line (a proxy's log) names its host
    const abs = /^[a-z]+:\/\/([^/]+)(\/.*)?$/i.exec(target);
    if (!abs) return null;
    host = hostOf(abs[1]);
    target = abs[2] ?? '/';
  }
  return { day, host, method, target, status: Number(m[9]), address, userAgent: m[11] ?? '', referrer: m[10] ?? '' };
}

/** Host without port or trailing dot, lower case. */
export function hostOf(value: string): string {
  let h = value.toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']'));
  const colon = h.indexOf(':');
  if (colon >= 0 && h.indexOf(':', colon + 1) < 0) h = h.slice(0, colon);
  return h.endsWith('.') ? h.slice(0, -1) : h;
}

/** A time as Cloudflare (RFC 3339, Unix s / ms / ns), Vercel (ms) or CloudFront (s.ms) writes it. */
function dayOfTime(v: unknown): string | null {
  let t: number;
  if (typeof v === 'number' || (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v))) {
    const n = Number(v);
    t = n > 1e17 ? n / 1e6 : n > 1e14 ? n / 1e3 : n > 1e11 ? n : n * 1000;
  } else if (typeof v === 'string') {
    t = Date.parse(v);
  } else return null;
  if (!Number.isFinite(t) || t < 0 || t > 8.64e15) return null;
  return new Date(t).toISOString().slice(0, 10);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined);
const pick = (o: Record<string, unknown>, ...names: string[]): string | undefined => {
  for (const n of names) {
    const v = str(o[n]) ?? (typeof o[n] === 'number' ? String(o[n]) : undefined);
    if (v !== undefined && v !== '') return v;
  }
  return undefined;
};
/** CloudFront writes user agents and referrers URL-encoded (`Mozilla/5.0%20(...)`). */
function decoded(v: string): string {
  if (!v.includes('%')) return v;
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

export function parseJsonLine(line: string): LogHit | null {
  let doc: unknown;
  try {
    doc = JSON.parse(line);
  } catch {
    return null;
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return null;
  const top = doc as Record<string, unknown>;
  // Vercel nests the request under `proxy`
  const o = top.proxy && typeof top.proxy === 'object' ? { ...top, ...(top.proxy as Record<string, unknown>) } : top;
  const target = pick(o, 'ClientRequestURI', 'ClientRequestPath', 'path', 'cs-uri-stem');
  const day = dayOfTime(o.EdgeStartTimestamp ?? o.timestamp ?? (typeof o.date === 'string' && typeof o.time === 'string' ? `${o.date}T${o.time}Z` : undefined));
  if (!target || !day) return null;
  const query = pick(o, 'cs-uri-query');
  const host = pick(o, 'ClientRequestHost', 'host', 'x-host-header', 'cs(Host)');
  return {
    day,
    host: host ? hostOf(host) : null,
    method: pick(o, 'ClientRequestMethod', 'method', 'cs-method') ?? 'GET',
    target: query && query !== '-' ? `${target}?${query}` : target,
    status: Number(pick(o, 'EdgeResponseStatus', 'statusCode', 'sc-status') ?? 0),
    address: pick(o, 'ClientIP', 'clientIp', 'c-ip') ?? '',
    userAgent: decoded(pick(o, 'ClientRequestUserAgent', 'userAgent', 'cs(User-Agent)') ?? ''),
    referrer: decoded(pick(o, 'ClientRequestReferer', 'referer', 'cs(Referer)') ?? ''),
  };
}

export function parseLine(line: string): LogHit | null {
  return line.charCodeAt(0) === 123 /* { */ ? parseJsonLine(line) : parseCombined(line);
}
