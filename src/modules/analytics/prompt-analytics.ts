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
 * The cited_pages rows of the citations in `x`, looked up by id (a generic plan, which a
 * prepared statement gets after a few runs, would otherwise hash the whole dictionary).
 */
const PAGES_OF_X = (columns: string) => `select id, ${columns} from cited_pages where id = any(array(select distinct page from x))`;

function brandsOf(ids: string[] | null, brands: Map<string, BrandInfo>) {
  return [...new Set(ids ?? [])].map((id) => brands.get(id)).filter((b): b is BrandInfo => !!b).map(publicBrand);
}

/** Domains cited in the prompt's answers (DECISIONS 5 DomainItem), most cited first. */
export async function promptDomains(ctx: RequestContext, projectId: string, promptId: string, w: Window) {
  await requirePrompt(ctx, projectId, promptId);
  const [{ rows }, total, brands] = await Promise.all([
    ctx.store.query<{ domain: string; category: number; n: number; responses: number; mentioned: boolean; brand_ids: string[] | null }>(
      // A citation is one id in an answer's `cited` (an answer cites a URL once), so those
      // count the citations; the brands named are gathered apart, from the distinct
      // (page, brand) pairs, rather than multiplying every citation by its brands.
      `with x as materialized (
         select k.id as page, r.id, r.mentioned, r.brand_ids
           from responses r cross join unnest(r.cited) as k(id)
          where r.prompt_id = $1 and r.provider = any($2::text[]) and r.day between $3::date and $4::date),
       pages as materialized (${PAGES_OF_X('domain, category')}),
       named as (
         select p.domain, array_agg(distinct y.b order by y.b) as brand_ids
           from (select distinct page, b from x cross join unnest(x.brand_ids) as b) y join pages p on p.id = y.page
          group by p.domain)
       select p.domain, min(p.category)::int as category, count(*)::int as n, count(distinct x.id)::int as responses,
              bool_or(x.mentioned) as mentioned, named.brand_ids
         from x join pages p on p.id = x.page left join named on named.domain = p.domain
        group by p.domain, named.brand_ids`,
      [promptId, realProviders(w), w.from, w.to],
    ),
    promptResponses(ctx, promptId, w),
    brandInfo(ctx.store, projectId),
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
        brands_appeared: brandsOf(r.brand_ids, brands),
        favicon_url: icons[0] ?? null,
        favicon_urls: icons,
      };
    })
    .sort((a, b) => b.citation_count - a.citation_count || a.domain.localeCompare(b.domain));
  return { items };
}

/** URLs cited in the prompt's answers (DECISIONS 5 UrlItem), most cited first. */
export async function promptUrls(ctx: RequestContext, projectId: string, promptId: string, w: Window) {
  await requirePrompt(ctx, projectId, promptId);
  const [{ rows }, brands] = await Promise.all([
    ctx.store.query<{ url: string; title: string; domain: string; url_type: number | null; n: number; brand_ids: string[] | null; first: string; last: string }>(
      // The title of the newest citation (answers of one day, of other engines or samples,
      // in a fixed order, so a page cited under two titles shows one); the brands named
      // gathered apart, from the distinct (page, brand) pairs.
      `with x as materialized (
         select k.id as page, r.day, r.collected_at, r.provider, r.sample, r.brand_ids
           from responses r cross join unnest(r.cited) as k(id)
          where r.prompt_id = $1 and r.provider = any($2::text[]) and r.day between $3::date and $4::date),
       pages as materialized (${PAGES_OF_X('url, title, domain, url_type')}),
       named as (
         select p.url, array_agg(distinct y.b) as brand_ids
           from (select distinct page, b from x cross join unnest(x.brand_ids) as b) y join pages p on p.id = y.page
          group by p.url)
       select p.url, (array_agg(p.title order by x.day desc, x.collected_at desc, x.provider, x.sample))[1] as title,
              min(p.domain) as domain, min(p.url_type)::int as url_type, count(*)::int as n, named.brand_ids,
              to_char(min(x.day), 'YYYY-MM-DD') as first, to_char(max(x.day), 'YYYY-MM-DD') as last
         from x join pages p on p.id = x.page left join named on named.url = p.url
        group by p.url, named.brand_ids`,
      [promptId, realProviders(w), w.from, w.to],
    ),
    brandInfo(ctx.store, projectId),
  ]);
  const items = rows
    .map((r) => ({
      url: r.url,
      title: r.title,
      domain: r.domain,
      url_type: r.url_type,
      url_type_name: r.url_type === null ? 'unknown' : (URL_TYPES[r.url_type] ?? 'unknown'),
      mentioned_count: r.n,
      brands_appear: brandsOf(r.brand_ids, brands),
      first_seen: `${r.first}T00:00:00.000Z`,
      last_seen: `${r.last}T00:00:00.000Z`,
    }))
    .sort((a, b) => b.mentioned_count - a.mentioned_count || a.url.localeCompare(b.url));
  return { items };
}
