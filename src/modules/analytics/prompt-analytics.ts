import type { RequestContext } from '../../context.js';
import { NotFound } from '../../lib/errors.js';
import { PROVIDERS } from '../../ports/providers/types.js';
import { URL_TYPES } from '../../analysis/types.js';
import { chatPreview } from '../../analysis/preview.js';
import { decodeAnswerBody } from '../answers/answer-body.js';
import { brandsOfColumns } from '../answers/answer-brands.js';
import { faviconUrls } from '../../lib/url.js';
import type { Interval } from '../../lib/statistics.js';
import { iso } from '../common.js';
import { requireProject } from '../projects/service.js';
import { brandInfo, publicBrand, type BrandInfo } from './brand-info.js';
import * as m from './metrics.js';
import { daysOf, providerFilter, type Window } from './window.js';

async function requirePrompt(ctx: RequestContext, projectId: string, promptId: string) {
  await requireProject(ctx, projectId);
  const { rows } = await ctx.store.query<{ id: string; content: string }>(
    `select id, content from prompts where id = $1 and project_id = $2`,
    [promptId, projectId],
  );
  if (!rows[0]) throw new NotFound('Prompt not found');
  return rows[0];
}

const realProviders = (w: Window): string[] => w.providers ?? [...PROVIDERS];

/** Daily charts per provider for one prompt; every day of the window is a key. */
export async function promptAnalytics(ctx: RequestContext, projectId: string, promptId: string, w: Window) {
  const prompt = await requirePrompt(ctx, projectId, promptId);
  const { rows } = await ctx.store.query<{ provider: string; day: string; r: number; mn: number; ps: number; ss: number; pq: number; sq: number }>(
    `select provider, to_char(day, 'YYYY-MM-DD') as day, responses as r, mentioned as mn, position_sum as ps, sentiment_sum as ss,
            position_sq as pq, sentiment_sq as sq
       from prompt_daily
      where prompt_id = $1 and provider = any($2::text[]) and day between $3::date and $4::date
      order by day, provider`,
    [promptId, realProviders(w), w.from, w.to],
  );
  // n: the responses a point rests on (all for visibility, the mentioning ones for the means)
  type Point = { provider: string; value: number; n: number; ci: Interval | null };
  const visibility: Record<string, Point[]> = {};
  const positionChart: Record<string, Point[]> = {};
  const sentimentChart: Record<string, Point[]> = {};
  for (const day of daysOf(w)) {
    visibility[day] = [];
    positionChart[day] = [];
    sentimentChart[day] = [];
  }
  const total = { ...m.EMPTY_SUMS };
  for (const r of rows) {
    const s = { responses: r.r, mentioned: r.mn, positionSum: r.ps, sentimentSum: r.ss, positionSq: r.pq, sentimentSq: r.sq };
    total.responses += s.responses;
    total.mentioned += s.mentioned;
    total.positionSum += s.positionSum;
    total.sentimentSum += s.sentimentSum;
    total.positionSq += s.positionSq;
    total.sentimentSq += s.sentimentSq;
    const v = m.visibility(s);
    if (v !== null) visibility[r.day].push({ provider: r.provider, value: v, n: s.responses, ci: m.visibilityCi(s) });
    const p = m.position(s);
    if (p !== null) positionChart[r.day].push({ provider: r.provider, value: p, n: s.mentioned, ci: m.positionCi(s) });
    const se = m.sentiment(s);
    if (se !== null) sentimentChart[r.day].push({ provider: r.provider, value: se, n: s.mentioned, ci: m.sentimentCi(s) });
  }
  return {
    prompt_id: prompt.id,
    prompt_content: prompt.content,
    volume: total.responses,
    sentiment: m.sentimentInt(total),
    sentiment_ci: m.sentimentCi(total),
    visibility_chart: visibility,
    position_chart: positionChart,
    sentiment_chart: sentimentChart,
  };
}

interface ChatRow {
  id: string;
  at: Date;
  provider: string;
  sample: number;
  model: string;
  body: Uint8Array;
  mentioned: boolean;
  position: number | null;
  sentiment: number | null;
  brand_ids: string[];
  brand_stats: number[];
}

/** The prompt's answers in the window, newest first, a page at a time. */
export async function promptChats(ctx: RequestContext, projectId: string, promptId: string, w: Window, page: number, pageSize: number) {
  const prompt = await requirePrompt(ctx, projectId, promptId);
  const [{ rows }, brands] = await Promise.all([
    ctx.store.query<ChatRow>(
      // A response belongs to its (UTC) day: `date` is when it was collected if that was on
      // its day, else the start of its day (an answer stored later for a past day, as a
      // backfill, a retry after midnight or the seed does, is still that day's answer).
      `select id, provider, sample, model, body, mentioned, position, sentiment, brand_ids, brand_stats,
              case when (collected_at at time zone 'UTC')::date = day then collected_at
                   else day::timestamp at time zone 'UTC' end as at
         from responses
        where prompt_id = $1 and provider = any($2::text[]) and day between $3::date and $4::date
        order by day desc, at desc, provider, sample, id
        limit $5 offset $6`,
      [promptId, realProviders(w), w.from, w.to, pageSize, (page - 1) * pageSize],
    ),
    brandInfo(ctx.store, projectId),
  ]);
  const items = rows.map((r) => {
    const { text, references } = decodeAnswerBody(r.body);
    const named = Object.entries(brandsOfColumns(r.brand_ids, r.brand_stats))
      .map(([id, b]) => ({ info: brands.get(id), ...b }))
      .filter((b): b is typeof b & { info: BrandInfo } => !!b.info)
      .sort((a, b) => a.position - b.position);
    return {
      id: r.id,
      date: iso(r.at),
      mentioned: r.mentioned,
      position: r.position,
      all_mentions: named.map((b) => publicBrand(b.info)),
      chat_preview: chatPreview(text),
      platform: r.provider,
      sample: r.sample,
      model: r.model,
      full_content: text,
      prompt_content: prompt.content,
      // in the contract's key order (stored in jsonb's: answer-body.ts), for the plain serializer
      references: references.map((r) => ({ title: r.title, link: r.link, snippet: r.snippet, reference_index: r.reference_index })),
      brands_mentioned: Object.fromEntries(named.map((b) => [b.info.name, { position: b.position, count: b.count }])),
      sentiment: r.sentiment,
      sentiment_by_brands: Object.fromEntries(named.map((b) => [b.info.name, b.sentiment])),
    };
  });
  return { items };
}

async function promptResponses(ctx: RequestContext, promptId: string, w: Window): Promise<number> {
  const { rows } = await ctx.store.query<{ n: number }>(
    `select coalesce(sum(responses), 0)::int as n from prompt_daily
      where prompt_id = $1 and provider = any($2::text[]) and day between $3::date and $4::date`,
    [promptId, providerFilter(w), w.from, w.to],
  );
  return rows[0].n;
}

/**
 * The prompt's answers in the window that cite anything, as `a` (id, day, collected_at,
 * provider, sample, mentioned, cited, mask): `mask` has bit i set when the answer names the
 * i-th brand of `$5` (the project's tracked brands), so the brands named beside a page are
 * an OR of integers rather than a gathering of uuid arrays per citation.
 */
const ANSWERS_A = `a as materialized (
         select r.id, r.day, r.collected_at, r.provider, r.sample, r.mentioned, r.cited,
                coalesce((select bit_or(1 << (array_position($5::uuid[], b) - 1)) from unnest(r.brand_ids) as b), 0) as mask
           from responses r
          where r.prompt_id = $1 and r.provider = any($2::text[]) and r.day between $3::date and $4::date and cardinality(r.cited) > 0)`;

/** The brand ids of brandInfo in mask bit order (an int's 31 bits: own brand + MAX_ACTIVE_COMPETITORS fit). */
function maskIds(brands: Map<string, BrandInfo>): string[] {
  const ids = [...brands.keys()];
  if (ids.length > 31) throw new Error(`brand mask holds 31 brands, the project tracks ${ids.length}`);
  return ids;
}

/** The brands of a mask, in uuid order (as SQL's array_agg(distinct uuid) gave them), as BrandInfo. */
function brandsOfMask(mask: number, ids: string[], brands: Map<string, BrandInfo>) {
  const named: string[] = [];
  for (let i = 0; i < ids.length; i++) if (mask & (1 << i)) named.push(ids[i]);
  return named.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((id) => publicBrand(brands.get(id)!));
}

/** Domains cited in the prompt's answers (DECISIONS 5 DomainItem), most cited first. */
export async function promptDomains(ctx: RequestContext, projectId: string, promptId: string, w: Window) {
  await requirePrompt(ctx, projectId, promptId);
  const brands = await brandInfo(ctx.store, projectId);
  const ids = maskIds(brands);
  const [{ rows }, total] = await Promise.all([
    ctx.store.query<{ domain: string; category: number; n: number; responses: number; mentioned: boolean; mask: number }>(
      // A citation is one id in an answer's `cited` (an answer cites a URL once), so those
      // count the citations; grouped per (domain, answer) first, so an answer citing two
      // pages of a domain counts once among its responses.
      `with ${ANSWERS_A},
       x as (select k.id as page, a.id, a.mentioned, a.mask from a cross join unnest(a.cited) as k(id)),
       pages as materialized (select id, domain, category from cited_pages where id = any(array(select distinct page from x))),
       per_answer as (
         select p.domain, min(p.category) as category, count(*) as n, bool_or(x.mentioned) as mentioned, bit_or(x.mask) as mask
           from x join pages p on p.id = x.page
          group by p.domain, x.id)
       select domain, min(category)::int as category, sum(n)::int as n, count(*)::int as responses,
              bool_or(mentioned) as mentioned, bit_or(mask) as mask
         from per_answer group by domain`,
      [promptId, realProviders(w), w.from, w.to, ids],
    ),
    promptResponses(ctx, promptId, w),
  ]);
  const items = rows
    .map((r) => {
      const icons = faviconUrls(r.domain);
      return {
        domain: r.domain,
        domain_type: r.category,
        citation_count: r.n,
        avg_citations: m.ratio(r.n, r.responses),
        used_percentage: m.share(r.responses, total),
        mentioned: r.mentioned,
        brands_appeared: brandsOfMask(r.mask, ids, brands),
        favicon_url: icons[0] ?? null,
        favicon_urls: icons,
      };
    })
    .sort((a, b) => b.citation_count - a.citation_count || a.domain.localeCompare(b.domain));
  return { items };
}

interface PageRow {
  url: string;
  title: string;
  domain: string;
  url_type: number | null;
  n: number;
  mask: number;
  first: string;
  last: string;
  /** The rank of the page's newest citation among the window's answers (1 = newest). */
  rank: number;
}

/** URLs cited in the prompt's answers (DECISIONS 5 UrlItem), most cited first. */
export async function promptUrls(ctx: RequestContext, projectId: string, promptId: string, w: Window) {
  await requirePrompt(ctx, projectId, promptId);
  const brands = await brandInfo(ctx.store, projectId);
  const ids = maskIds(brands);
  // Per page (an id: one url under one title and category), then per url here: the title of
  // the url's newest citation (answers ranked by day, time collected, engine and sample, so a
  // page cited under two titles shows one), its counts summed and its brands OR-ed.
  const { rows } = await ctx.store.query<PageRow>(
    `with ${ANSWERS_A},
     ranked as (select a.*, row_number() over (order by a.day desc, a.collected_at desc, a.provider, a.sample) as rank from a),
     per_page as (
       select k.id as page, count(*)::int as n, bit_or(r.mask) as mask, min(r.day) as first, max(r.day) as last, min(r.rank)::int as rank
         from ranked r cross join unnest(r.cited) as k(id)
        group by k.id)
     select p.url, p.title, p.domain, p.url_type::int as url_type, x.n, x.mask,
            to_char(x.first, 'YYYY-MM-DD') as first, to_char(x.last, 'YYYY-MM-DD') as last, x.rank
       from per_page x join cited_pages p on p.id = x.page`,
    [promptId, realProviders(w), w.from, w.to, ids],
  );
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
  const items = [...byUrl.values()]
    .map((r) => ({
      url: r.url,
      title: r.title,
      domain: r.domain,
      url_type: r.url_type,
      url_type_name: r.url_type === null ? 'unknown' : (URL_TYPES[r.url_type] ?? 'unknown'),
      mentioned_count: r.n,
      brands_appear: brandsOfMask(r.mask, ids, brands),
      first_seen: `${r.first}T00:00:00.000Z`,
      last_seen: `${r.last}T00:00:00.000Z`,
    }))
    .sort((a, b) => b.mentioned_count - a.mentioned_count || a.url.localeCompare(b.url));
  return { items };
}
