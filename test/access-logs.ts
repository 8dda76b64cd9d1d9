// A log with known contents, written in each supported format (combined, and the NDJSON of
// Cloudflare, Vercel and CloudFront): the crawler-logs tests and the benchmark use it.
export interface HitSpec {
  host?: string;
  address: string;
  /** Local time as the combined format writes it, e.g. `20/Nov/2026:10:00:00 +0000`. */
  time: string;
  method?: string;
  target: string;
  status?: number;
  referrer?: string;
  userAgent: string;
}

export const UA = {
  gptbot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  perplexity: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  claude: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  browser: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The instant a combined-format time names. */
export function instantOf(time: string): Date {
  const m = /^(\d{2})\/(\w{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/.exec(time);
  if (!m) throw new Error(`bad time ${time}`);
  const offset = (m[7] === '-' ? -1 : 1) * (Number(m[8]) * 60 + Number(m[9]));
  return new Date(Date.UTC(+m[3], MONTHS.indexOf(m[2]), +m[1], +m[4], +m[5], +m[6]) - offset * 60_000);
}

export function combinedLine(h: HitSpec): string {
  const vhost = h.host ? `${h.host} ` : '';
  return `${vhost}${h.address} - - [${h.time}] "${h.method ?? 'GET'} ${h.target} HTTP/1.1" ${h.status ?? 200} 5120 "${h.referrer ?? '-'}" "${h.userAgent}"`;
}

export function cloudflareLine(h: HitSpec): string {
  const [path, query] = h.target.split('?');
  return JSON.stringify({
    ClientIP: h.address,
    ClientRequestHost: h.host ?? 'acme.com',
    ClientRequestMethod: h.method ?? 'GET',
    ClientRequestURI: query ? `${path}?${query}` : path,
    ClientRequestUserAgent: h.userAgent,
    ClientRequestReferer: h.referrer ?? '',
    EdgeResponseStatus: h.status ?? 200,
    EdgeStartTimestamp: instantOf(h.time).toISOString(),
  });
}

export function vercelLine(h: HitSpec): string {
  const t = instantOf(h.time).getTime();
  return JSON.stringify({
    id: 'log1',
    message: '',
    timestamp: t,
    type: 'request',
    source: 'edge',
    proxy: {
      timestamp: t,
      method: h.method ?? 'GET',
      scheme: 'https',
      host: h.host ?? 'acme.com',
      path: h.target,
      userAgent: [h.userAgent],
      referer: h.referrer ?? '',
      statusCode: h.status ?? 200,
      clientIp: h.address,
    },
  });
}

export function cloudfrontLine(h: HitSpec): string {
  const [path, query] = h.target.split('?');
  return JSON.stringify({
    timestamp: (instantOf(h.time).getTime() / 1000).toFixed(3),
    'c-ip': h.address,
    'cs-method': h.method ?? 'GET',
    'x-host-header': h.host ?? 'acme.com',
    'cs-uri-stem': path,
    'cs-uri-query': query ?? '-',
    'sc-status': String(h.status ?? 200),
    'cs(Referer)': encodeURIComponent(h.referrer ?? '-'),
    'cs(User-Agent)': encodeURIComponent(h.userAgent),
  });
}

/** NDJSON of the three CDNs in turn, so each field naming is read. */
export const ndjsonLine = (h: HitSpec, i: number): string => [cloudflareLine, vercelLine, cloudfrontLine][i % 3](h);
