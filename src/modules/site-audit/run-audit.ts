import pLimit from 'p-limit';
import robotsParserModule from 'robots-parser';
import type { ServiceContext } from '../../context.js';
import { safeRequest, type SafeResponse } from '../../ports/http/safe-request.js';
import { BROWSER_UA, FETCHING_AGENTS, ROBOTS_AGENTS } from './agents.js';
import type { Finding } from './findings.js';
import { MIN_TEXT_CHARS, pageSignals, sitemapLocations, type PageSignals } from './page-checks.js';

interface Robots {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getSitemaps(): string[];
}
// robots-parser is CommonJS: its default import is the parser function its typings fail to name.
const robotsParser = robotsParserModule as unknown as (url: string, text: string) => Robots;

/** Requests in flight at once against the audited site: polite to a small server. */
const PARALLEL = 4;
const TIMEOUT_MS = 15_000;
const SLOW_MS = 2_000;

export interface AuditedPage extends Partial<PageSignals> {
  url: string;
  status: number | null;
  ttfb_ms: number | null;
  error?: string;
  /** Status each agent's user agent got. */
  agents: Record<string, number | null>;
}

interface Fetched {
  res: SafeResponse | null;
  ms: number;
  error?: string;
}

export interface AuditInput {
  origin: string;
  /** Pages the answers cite on the site (full URLs), audited after the sitemap's home page. */
  citedUrls: string[];
  maxPages: number;
}

/**
 * Audits a site as AI agents see it. Every request goes through safeRequest (the address
 * policy, checked at connect time); redirects are not followed (a page that redirects is
 * reported with its 3xx status).
 */
export async function runAudit(ctx: ServiceContext, input: AuditInput): Promise<{ pages: AuditedPage[]; findings: Finding[] }> {
  const limit = pLimit(PARALLEL);
  const get = (url: string, userAgent: string, maxBytes = 5 * 1024 * 1024): Promise<Fetched> =>
    limit(async () => {
      const started = performance.now();
      try {
        const res = await safeRequest(url, {
          headers: { 'user-agent': userAgent, accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'accept-encoding': 'identity' },
          timeoutMs: TIMEOUT_MS,
          maxBytes,
          allowPrivate: ctx.config.allowPrivateUrls,
          tls: ctx.config.outboundCa ? { ca: ctx.config.outboundCa } : undefined,
        });
        return { res, ms: Math.round(performance.now() - started) };
      } catch (err) {
        return { res: null, ms: Math.round(performance.now() - started), error: (err as Error).message };
      }
    });
  const ok = (f: Fetched) => !!f.res && f.res.status >= 200 && f.res.status < 300;
  const findings: Finding[] = [];
  const root = `${input.origin}/`;

  const [robotsFetch, llmsFetch] = await Promise.all([get(`${input.origin}/robots.txt`, BROWSER_UA), get(`${input.origin}/llms.txt`, BROWSER_UA)]);
  const robotsText = ok(robotsFetch) ? robotsFetch.res!.body.toString('utf8') : '';
  const robots = robotsParser(`${input.origin}/robots.txt`, robotsText);
  if (!ok(llmsFetch) || llmsFetch.res!.body.toString('utf8').trim() === '') {
    findings.push({ code: 'llms_txt_missing', severity: 'low', url: `${input.origin}/llms.txt`, detail: `No llms.txt (status ${llmsFetch.res?.status ?? 'none'}).`, fix: 'Publish /llms.txt: a short Markdown guide to the pages that matter, for agents.' });
  }

  // The sitemap: named in robots.txt, else /sitemap.xml; one level of sitemap index followed.
  const sitemapUrls = robots.getSitemaps().filter((u: string) => u.startsWith(input.origin));
  const pagesFromSitemap: string[] = [];
  let sitemapFound = false;
  for (const url of (sitemapUrls.length ? sitemapUrls : [`${input.origin}/sitemap.xml`]).slice(0, 3)) {
    const f = await get(url, BROWSER_UA);
    if (!ok(f)) continue;
    sitemapFound = true;
    const locs = sitemapLocations(f.res!.body.toString('utf8'));
    pagesFromSitemap.push(...locs.pages);
    for (const child of locs.sitemaps.slice(0, 2)) {
      const c = await get(child, BROWSER_UA);
      if (ok(c)) pagesFromSitemap.push(...sitemapLocations(c.res!.body.toString('utf8')).pages);
    }
  }
  if (!sitemapFound) {
    findings.push({ code: 'sitemap_missing', severity: 'medium', url: `${input.origin}/sitemap.xml`, detail: 'No sitemap found (robots.txt names none and /sitemap.xml does not answer 200).', fix: 'Publish /sitemap.xml listing every page and name it in robots.txt (Sitemap: line).' });
  }

  const candidates = [root, ...input.citedUrls, ...pagesFromSitemap].filter((u) => u.startsWith(`${input.origin}/`));
  const urls = [...new Set(candidates.map((u) => u.split('#')[0]))].slice(0, input.maxPages);

  const pages: AuditedPage[] = await Promise.all(
    urls.map(async (url) => {
      const [browser, ...byAgent] = await Promise.all([get(url, BROWSER_UA), ...FETCHING_AGENTS.map((a) => get(url, a.userAgent, 512 * 1024))]);
      const page: AuditedPage = { url, status: browser.res?.status ?? null, ttfb_ms: browser.res ? browser.ms : null, agents: {} };
      if (browser.error) page.error = browser.error;
      FETCHING_AGENTS.forEach((a, i) => {
        page.agents[a.agent] = byAgent[i].res?.status ?? null;
      });
      if (browser.res) {
        const html = browser.res.body.toString('utf8');
        Object.assign(page, pageSignals(html, browser.res.headers['x-robots-tag'] ?? ''));
      }
      return page;
    }),
  );

  for (const a of ROBOTS_AGENTS) {
    const blocked = urls.filter((u) => robots.isAllowed(u, a.agent) === false);
    perAgent(findings, blocked, urls, root, {
      code: 'robots_disallows_agent',
      severity: a.purpose === 'training' ? 'medium' : 'high',
      agent: a.agent,
      detail: (n, site) => (site ? `robots.txt disallows ${a.agent} from the whole site.` : `robots.txt disallows ${a.agent} from this page${n > 1 ? ` (and ${n - 1} more audited pages)` : ''}.`),
      fix: `Allow ${a.agent} in robots.txt (a User-agent: ${a.agent} group with Allow: /) unless keeping it out is intended.`,
    });
  }
  for (const a of FETCHING_AGENTS) {
    const blocked = pages.filter((p) => p.status !== null && p.status >= 200 && p.status < 300 && (p.agents[a.agent] === null || (p.agents[a.agent] ?? 0) >= 400)).map((p) => p.url);
    const statuses = [...new Set(pages.filter((p) => blocked.includes(p.url)).map((p) => p.agents[a.agent] ?? 'no answer'))].join(', ');
    perAgent(findings, blocked, urls, root, {
      code: 'agent_blocked_http',
      severity: 'high',
      agent: a.agent,
      detail: (_n, site) => `${a.agent} gets ${statuses} where a browser gets 200${site ? ' on every audited page' : ''}.`,
      fix: `Let ${a.agent}'s user agent through the server, firewall or CDN bot rules (its published addresses verify it).`,
    });
  }
  for (const p of pages) {
    if (p.status === null || p.status >= 400) {
      findings.push({ code: 'page_error', severity: 'high', url: p.url, detail: p.status === null ? `The page did not answer: ${p.error ?? 'no response'}.` : `The page answers ${p.status} to a browser.`, fix: 'Make the page answer 200, or remove it from the sitemap.' });
      continue;
    }
    if (p.status >= 300) continue;
    if (p.noindex) findings.push({ code: 'noindex', severity: 'high', url: p.url, detail: 'The page asks not to be indexed (meta robots or X-Robots-Tag noindex).', fix: 'Remove noindex if the page should be found and cited.' });
    else if (p.nosnippet) findings.push({ code: 'nosnippet', severity: 'medium', url: p.url, detail: 'The page forbids snippets (nosnippet): engines may not quote it.', fix: 'Remove nosnippet, or limit it to the parts that must not be quoted (data-nosnippet).' });
    if ((p.text_chars ?? 0) < MIN_TEXT_CHARS) findings.push({ code: 'no_server_rendered_text', severity: 'high', url: p.url, detail: `Only ${p.text_chars ?? 0} characters of text without JavaScript: most AI agents do not run scripts.`, fix: 'Render the content on the server (SSR or static generation).' });
    if ((p.json_ld_types ?? []).length === 0) findings.push({ code: 'structured_data_missing', severity: 'low', url: p.url, detail: 'No JSON-LD structured data.', fix: 'Describe the page with schema.org JSON-LD (Organization, Product, Article, FAQPage, ...).' });
    if ((p.ttfb_ms ?? 0) > SLOW_MS) findings.push({ code: 'slow_response', severity: 'low', url: p.url, detail: `The page took ${p.ttfb_ms} ms to answer.`, fix: 'Cache or speed up the page: agents give up on slow pages.' });
  }
  return { pages, findings };
}

/** One finding for the whole site when every audited page is affected, else one per page. */
function perAgent(
  findings: Finding[],
  affected: string[],
  all: string[],
  root: string,
  f: { code: string; severity: Finding['severity']; agent: string; detail: (n: number, site: boolean) => string; fix: string },
): void {
  if (affected.length === 0) return;
  if (affected.length === all.length && all.length > 1) {
    findings.push({ code: f.code, severity: f.severity, url: root, agent: f.agent, detail: f.detail(affected.length, true), fix: f.fix });
    return;
  }
  for (const url of affected) findings.push({ code: f.code, severity: f.severity, url, agent: f.agent, detail: f.detail(1, false), fix: f.fix });
}
