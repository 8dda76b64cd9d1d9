import { agentOfUserAgent, engineOfReferrer } from './agents.js';
import { parseLine } from './parse.js';
import type { RangeSet } from './ranges.js';

/** Counts of one ingested log, and its daily aggregates (the only thing stored of it). */
export interface LogCounts {
  lines: number;
  parsed: number;
  rejected: number;
  bot_hits: number;
  referrals: number;
  /** Parsed lines for another host than the project's: read, not counted. */
  other_hosts: number;
}

/** Paths are stored up to this length: longer ones are cut (a query-string flood is not a page). */
const MAX_PATH = 512;
/** Requests that are no page a person lands on. */
const ASSET = /\.(?:css|js|mjs|map|png|jpe?g|gif|webp|avif|svg|ico|woff2?|ttf|otf|eot|mp4|webm|mp3|json|xml|txt)$/i;

/** The page a request target names: no query or fragment, bounded, no NUL. */
export function pageOf(target: string): string | null {
  let end = target.length;
  const q = target.indexOf('?');
  if (q >= 0) end = q;
  const h = target.indexOf('#');
  if (h >= 0 && h < end) end = h;
  const path = target.slice(0, Math.min(end, MAX_PATH));
  if (!path.startsWith('/') || path.includes('\u0000')) return null;
  return path;
}

/** `utm_source=chatgpt.com` (ChatGPT adds it to the links it shows): a referral whose Referer was dropped. */
function engineOfQuery(target: string): string | null {
  const i = target.indexOf('utm_source=');
  if (i < 0) return null;
  const value = target.slice(i + 11).split('&')[0];
  return engineOfReferrer(value);
}

/** The project's host and its subdomains match; `www.` is the same site. Null domain: every host. */
export function hostMatcher(domain: string | null): (host: string) => boolean {
  if (!domain) return () => true;
  const d = domain.toLowerCase().replace(/^www\./, '');
  return (host) => host === d || host.endsWith(`.${d}`);
}

export class LogTally {
  readonly counts: LogCounts = { lines: 0, parsed: 0, rejected: 0, bot_hits: 0, referrals: 0, other_hosts: 0 };
  /** `day \t path \t agent` → [hits, verified hits]. */
  readonly bots = new Map<string, [number, number]>();
  /** `day \t path \t engine` → visits. */
  readonly referrals = new Map<string, number>();

  constructor(
    private readonly ownHost: (host: string) => boolean,
    private readonly ranges: RangeSet,
  ) {}

  add(line: string): void {
    if (line.length === 0 || (line.length < 3 && line.trim() === '')) return;
    this.counts.lines++;
    const hit = parseLine(line);
    const path = hit ? pageOf(hit.target) : null;
    if (!hit || path === null) {
      this.counts.rejected++;
      return;
    }
    this.counts.parsed++;
    if (hit.host !== null && !this.ownHost(hit.host)) {
      this.counts.other_hosts++;
      return;
    }
    const agent = hit.userAgent ? agentOfUserAgent(hit.userAgent) : null;
    if (agent) {
      this.counts.bot_hits++;
      const key = `${hit.day}\t${path}\t${agent}`;
      const cell = this.bots.get(key) ?? [0, 0];
      cell[0]++;
      if (this.ranges.verify(agent, hit.address)) cell[1]++;
      this.bots.set(key, cell);
      return;
    }
    if (hit.status >= 400 || (hit.method !== 'GET' && hit.method !== 'HEAD') || ASSET.test(path)) return;
    const engine = engineOfReferrer(hit.referrer) ?? engineOfQuery(hit.target);
    if (!engine) return;
    this.counts.referrals++;
    const key = `${hit.day}\t${path}\t${engine}`;
    this.referrals.set(key, (this.referrals.get(key) ?? 0) + 1);
  }
}
