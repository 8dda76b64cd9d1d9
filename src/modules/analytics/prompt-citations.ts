import type { RequestContext } from '../../context.js';
import { URL_TYPES } from '../../analysis/types.js';
import { faviconUrls } from '../../lib/url.js';
import { citedPagesById, type CitedPage } from '../answers/cited-pages.js';
import { brandInfoByNumber, publicBrand, type BrandInfo } from './brand-info.js';
import * as metrics from './metrics.js';
import { realProviders, requirePrompt } from './prompt-analytics.js';
import { rollupMarket } from '../rollups/market-totals.js';
import { wholeBuckets } from '../rollups/buckets.js';
import { promptDomainMonthsSql, promptResponses } from '../rollups/prompt-reads.js';
import { daysOf, providerFilter, type Window } from './window.js';
import { marketSql } from '../../lib/markets.js';

// The domains and URLs a prompt's answers cite (docs/analytics.md DomainItem, UrlItem).

/** Brands named beside a page travel as an int whose bit i stands for bitIds[i]; 31 bits. */
const MASK_BITS = 31;
/** Fills the bits that stand for no tracked brand (never an answer's brand id). */
const NO_BRAND = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

/**
 * The prompt's answers that cite anything, on the days `days` (SQL over $3), as `a` (id, day,
 * collected_at, provider, sample, mentioned, cited, mask): `mask` has bit i set when the
 * answer names the brand bitIds[i] (`$4`: bitNumbers of them), of one market (`$6`) or all, so the brands named beside a page are an OR of
 * integers rather than a gathering of arrays per citation. One test per tracked brand
 * (a dozen at most): less time at a year of data than unnesting each answer's brands.
 */
const citingAnswersSql = (days: string, bitIds: string[], market: string | null, marketParam = 6) => {
  const tests = bitIds.flatMap((id, i) => (id === NO_BRAND ? [] : [`case when ($4::int[])[${i + 1}] = any(r.brand_nos) then ${1 << i} else 0 end`]));
  return `a as materialized (
         select r.id, r.day, r.collected_at, r.provider, r.sample, r.mentioned, r.cited, (${tests.join(' | ') || '0'}) as mask
           from responses r
          where r.prompt_id = $1 and r.provider = any($2::text[]) and ${days} and cardinality(r.cited) > 0
            and ${marketSql(market, marketParam, 'r.market')})`;
};

/** The brand number (responses.brand_nos) of each bit's brand; -1, which no answer names, for a bit of none. */
const bitNumbers = (bitIds: string[], numbers: Map<string, number>) => bitIds.map((id) => (id === NO_BRAND ? -1 : (numbers.get(id) ?? -1)));

/** The brands of a mask, in uuid order (as SQL's array_agg(distinct uuid) gave them), as BrandInfo. */
function brandsOfMask(mask: number, bitIds: string[], brands: Map<string, BrandInfo>) {
  const named: BrandInfo[] = [];
  for (let i = 0; i < bitIds.length; i++) {
    const b = mask & (1 << i) ? brands.get(bitIds[i]) : undefined;
    if (b) named.push(b);
  }
  return named.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map(publicBrand);
}

/**
 * The bits of the domain rollups (brand number n: bit n) when every tracked brand's number
 * fits in them, else null (the window is then read from the answers, bits by brand order).
 */
function rollupBits(numbers: Map<string, number>, brands: Map<string, BrandInfo>): string[] | null {
  const bitIds: string[] = Array.from({ length: MASK_BITS }, () => NO_BRAND);
  for (const id of brands.keys()) {
    const no = numbers.get(id);
    if (no === undefined || no >= MASK_BITS) return null;
    bitIds[no] = id;
  }
  return bitIds;
}

/** Domains cited in the prompt's answers (docs/analytics.md DomainItem), most cited first. */
export async function promptDomains(ctx: RequestContext, projectId: string, promptId: string, w: Window) {
  const { project } = await requirePrompt(ctx, projectId, promptId);
  const { byId: brands, numbers } = await brandInfoByNumber(ctx.reads, projectId);
  let bitIds = rollupBits(numbers, brands);
  // the window's whole months from the prompt domain rollup, the other days from the answers
  const whole = wholeBuckets(w.from, w.to);
  let months = whole.months;
  let days = [...whole.days, ...whole.weeks.flatMap((monday) => daysOf({ from: monday, days: 7 }))];
  if (!bitIds) {
    if (brands.size > MASK_BITS) throw new Error(`a brand mask holds ${MASK_BITS} brands, the project tracks ${brands.size}`);
    bitIds = [...brands.keys()];
    months = [];
    days = daysOf(w);
  }
  // the rollups' market: the totals ('*') where the project keeps them; the answers' is w.market
  const rowsMarket = rollupMarket(project, w.market);
  const providers = realProviders(w);
  const [answers, monthRows, total] = await Promise.all([
    days.length === 0
      ? []
      : ctx.reads
          .query<{ mentioned: boolean; mask: number; cited: string }>(
            `with ${citingAnswersSql('r.day = any($3::date[])', bitIds, w.market, 5)}
             select a.mentioned, a.mask, array_to_string(a.cited, ',') as cited from a`,
            [promptId, providers, days, bitNumbers(bitIds, numbers), w.market],
          )
          .then((r) => r.rows),
    months.length === 0
      ? []
      : ctx.reads
          .query<{ domain: string; category: number; citations: number; responses: number; mentioned: number; brands: number }>(
            promptDomainMonthsSql(1, 2, 3, 4, rowsMarket),
            [promptId, providers, months, rowsMarket],
          )
          .then((r) => r.rows),
    promptResponses(ctx.reads, promptId, providerFilter(w), w.from, w.to, rowsMarket),
  ]);
  // From the answers: a citation is one id in an answer's `cited` (an answer cites a URL once),
  // counted per (domain, answer) so an answer citing two pages of a domain counts once among
  // its responses; the pages' domains from the process's page rows (pagesById), not looked up
  // by id in every request. Days and months do not overlap: their sums add up.
  const cited = answers.map((a) => (a.cited ? a.cited.split(',').map(Number) : []));
  const pages = await pagesById(ctx, [...new Set(cited.flat())]);
  const byDomain = new Map<string, { domain: string; category: number; n: number; responses: number; mentioned: boolean; mask: number }>();
  const add = (domain: string, category: number, n: number, responses: number, mentioned: boolean, mask: number) => {
    const d = byDomain.get(domain);
    if (!d) byDomain.set(domain, { domain, category, n, responses, mentioned, mask });
    else {
      d.category = Math.min(d.category, category);
      d.n += n;
      d.responses += responses;
      d.mentioned ||= mentioned;
      d.mask |= mask;
    }
  };
  answers.forEach((answer, i) => {
    const inAnswer = new Map<string, { category: number; n: number }>();
    for (const id of cited[i]) {
      const page = pages.get(id)!;
      const d = inAnswer.get(page.domain);
      if (!d) inAnswer.set(page.domain, { category: page.category, n: 1 });
      else {
        d.category = Math.min(d.category, page.category);
        d.n++;
      }
    }
    for (const [domain, d] of inAnswer) add(domain, d.category, d.n, 1, answer.mentioned, answer.mask);
  });
  for (const m of monthRows) add(m.domain, m.category, m.citations, m.responses, m.mentioned > 0, m.brands);
  const items = [...byDomain.values()]
    .map((r) => {
      const icons = faviconUrls(r.domain);
      return {
        domain: r.domain,
        domain_type: r.category,
        citation_count: r.n,
        avg_citations: metrics.ratio(r.n, r.responses),
        used_percentage: metrics.share(r.responses, total),
        mentioned: r.mentioned,
        brands_appeared: brandsOfMask(r.mask, bitIds, brands),
        favicon_url: icons[0] ?? null,
        favicon_urls: icons,
      };
    })
    .sort((a, b) => b.citation_count - a.citation_count || a.domain.localeCompare(b.domain));
  return { items };
}

type Page = CitedPage;

/** The process's cited_pages rows (answers/cited-pages.ts), read from the request's reads. */
const pagesById = (ctx: RequestContext, ids: number[]) => citedPagesById(ctx.reads, ids, ctx.store);

interface PageCount {
  page: number;
  n: number;
  mask: number;
  first: string;
  last: string;
  /** The rank of the page's newest citation among the window's answers (1 = newest). */
  rank: number;
}

/** Each page's citations, from the citing answers newest first (`cited`: page ids, comma-separated). */
export function countPages(answers: Array<{ day: string; mask: number; cited: string }>): PageCount[] {
  const byPage = new Map<number, PageCount>();
  answers.forEach((answer, index) => {
    for (const text of answer.cited.split(',')) {
      const page = Number(text);
      const counted = byPage.get(page);
      if (!counted) {
        byPage.set(page, { page, n: 1, mask: answer.mask, first: answer.day, last: answer.day, rank: index + 1 });
        continue;
      }
      counted.n++;
      counted.mask |= answer.mask;
      counted.first = answer.day; // older or the same: the answers come newest first
    }
  });
  return [...byPage.values()];
}

interface PageRow extends Page {
  n: number;
  mask: number;
  first: string;
  last: string;
  /** The rank of the page's newest citation among the window's answers (1 = newest). */
  rank: number;
}

/** URLs cited in the prompt's answers (docs/analytics.md UrlItem), most cited first. */
export async function promptUrls(ctx: RequestContext, projectId: string, promptId: string, w: Window) {
  await requirePrompt(ctx, projectId, promptId);
  const { byId: brands, numbers } = await brandInfoByNumber(ctx.reads, projectId);
  if (brands.size > MASK_BITS) throw new Error(`a brand mask holds ${MASK_BITS} brands, the project tracks ${brands.size}`);
  const bitIds = [...brands.keys()];
  // Per page (an id: one url under one title and category), then per url here: the title of
  // the url's newest citation (answers ranked by day, time collected, engine and sample, so a
  // page cited under two titles shows one), its counts summed and its brands OR-ed.
  // The citing answers come newest first, each with its pages as text; the pages are counted
  // here (a year of a prompt in three markets: 5,000 answers and 30,000 citations), which
  // costs less than unnesting and grouping them in SQL.
  const { rows: answers } = await ctx.reads.query<{ day: string; mask: number; cited: string }>(
    `with ${citingAnswersSql('r.day between $3::date and $5::date', bitIds, w.market)}
     select to_char(a.day, 'YYYY-MM-DD') as day, a.mask, array_to_string(a.cited, ',') as cited
       from a order by a.day desc, a.collected_at desc, a.provider, a.sample, a.id`,
    [promptId, realProviders(w), w.from, bitNumbers(bitIds, numbers), w.to, w.market],
  );
  const counted = countPages(answers);
  const pages = await pagesById(ctx, counted.map((r) => r.page));
  const rows: PageRow[] = counted.map((r) => ({ ...pages.get(r.page)!, n: r.n, mask: r.mask, first: r.first, last: r.last, rank: r.rank }));
  const byUrl = new Map<string, PageRow>();
  for (const r of rows) {
    const u = byUrl.get(r.url);
    if (!u) {
      byUrl.set(r.url, { ...r });
      continue;
    }
    if (r.rank < u.rank) {
      u.rank = r.rank;
      u.title = r.title;
    }
    u.n += r.n;
    u.mask |= r.mask;
    if (r.domain < u.domain) u.domain = r.domain;
    if (r.url_type !== null && (u.url_type === null || r.url_type < u.url_type)) u.url_type = r.url_type;
    if (r.first < u.first) u.first = r.first;
    if (r.last > u.last) u.last = r.last;
  }
  // A year of a prompt's URLs is thousands of items over a few dozen brand sets: each set is
  // built (and sorted) once, and the items share it.
  const brandSets = new Map<number, ReturnType<typeof brandsOfMask>>();
  const brandsOf = (mask: number) => {
    let set = brandSets.get(mask);
    if (!set) brandSets.set(mask, (set = brandsOfMask(mask, bitIds, brands)));
    return set;
  };
  const items = [...byUrl.values()]
    .map((r) => ({
      url: r.url,
      title: r.title,
      domain: r.domain,
      url_type: r.url_type,
      url_type_name: r.url_type === null ? 'unknown' : (URL_TYPES[r.url_type] ?? 'unknown'),
      mentioned_count: r.n,
      brands_appear: brandsOf(r.mask),
      first_seen: `${r.first}T00:00:00.000Z`,
      last_seen: `${r.last}T00:00:00.000Z`,
    }))
    .sort((a, b) => b.mentioned_count - a.mentioned_count || a.url.localeCompare(b.url));
  return { items };
}
