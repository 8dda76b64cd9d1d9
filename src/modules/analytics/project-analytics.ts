import type { RequestContext } from '../../context.js';
import { loadBrandNumbers } from '../projects/brands.js';
import type { Tx } from '../../store/index.js';
import type { CompetitorMetrics } from '../competitors/service.js';
import { activeCompetitors, brandNo, presentCompetitor } from '../competitors/service.js';
import { requireProject, type ProjectRow } from '../projects/service.js';
import { brandInfo } from './brand-info.js';
import * as m from './metrics.js';
import { addInts, promptSumsAndBrands } from './prompt-metrics.js';
import { daysOf, providerFilter, wholeBuckets, type Window } from './window.js';

/** A brand's sums over a window: responses naming it, times named, position and sentiment sums and squares, days named on. */
interface BrandSums {
  mentions: number;
  mc: number;
  ps: number;
  ss: number;
  pq: number;
  sq: number;
  days: number;
}

/**
 * The window's days from project_daily, the providers summed: per day (as an offset from
 * the window's first day) the responses and, per brand number, the brand's sums (the
 * per-brand arrays, read as text and added up: addInts). One row per day and provider.
 */
async function projectDays(tx: Tx, projectId: string, providers: string[], from: string, to: string) {
  const { rows } = await tx.query<{ i: number; r: number; mn: string; mc: string; ps: string; ss: string; pq: string; sq: string }>(
    `select day - $3::date as i, responses as r, brand_mentions::text as mn, brand_counts::text as mc, brand_position_sums::text as ps,
            brand_sentiment_sums::text as ss, brand_position_sq::text as pq, brand_sentiment_sq::text as sq
       from project_daily
      where project_id = $1 and provider = any($2::text[]) and day between $3::date and $4::date`,
    [projectId, providers, from, to],
  );
  const days = new Map<number, { responses: number; brands: number[][] }>();
  for (const row of rows) {
    let day = days.get(row.i);
    if (!day) {
      day = { responses: 0, brands: [[], [], [], [], [], []] };
      days.set(row.i, day);
    }
    day.responses += row.r;
    const [mn, mc, ps, ss, pq, sq] = day.brands;
    addInts(row.mn, mn);
    addInts(row.mc, mc);
    addInts(row.ps, ps);
    addInts(row.ss, ss);
    addInts(row.pq, pq);
    addInts(row.sq, sq);
  }
  return days;
}

/** Bits set in a 32-bit mask (a bucket's days a brand was named on). */
function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Per brand number, the window's sums and the days it was named on, and the window's
 * responses: the window's whole months and weeks from project_monthly and project_weekly,
 * the days around them from project_daily (wholeBuckets: nothing subtracted, as day bits
 * cannot be). A brand's days are, per bucket, the bits of its day masks OR'd over the
 * providers read (a day named by two providers counts once), a day row's bit being
 * whether it was named; the sums simply add up.
 */
export async function brandSums(tx: Tx, projectId: string, w: Pick<Window, 'from' | 'to' | 'providers'>): Promise<{ responses: number; brands: Map<number, BrandSums> }> {
  const whole = wholeBuckets(w.from, w.to);
  const columns = `responses as r, brand_mentions::text as mn, brand_counts::text as mc, brand_position_sums::text as ps,
            brand_sentiment_sums::text as ss, brand_position_sq::text as pq, brand_sentiment_sq::text as sq`;
  const { rows } = await tx.query<{ b: string; r: number; mn: string; mc: string; ps: string; ss: string; pq: string; sq: string; bd: string | null }>(
    `select 'm' || month as b, ${columns}, brand_days::text as bd
       from project_monthly where project_id = $1 and provider = any($2::text[]) and month = any($3::date[])
     union all
     select 'w' || week, ${columns}, brand_days::text
       from project_weekly where project_id = $1 and provider = any($2::text[]) and week = any($4::date[])
     union all
     select 'd' || day, ${columns}, null
       from project_daily where project_id = $1 and provider = any($2::text[]) and day = any($5::date[])`,
    [projectId, providerFilter(w), whole.months, whole.weeks, whole.days],
  );
  let responses = 0;
  const sums: number[][] = [[], [], [], [], [], []];
  // per bucket, per brand number: the days named, OR'd over the providers' rows
  const masks = new Map<string, number[]>();
  for (const row of rows) {
    responses += row.r;
    const [mn, mc, ps, ss, pq, sq] = sums;
    addInts(row.mn, mn);
    addInts(row.mc, mc);
    addInts(row.ps, ps);
    addInts(row.ss, ss);
    addInts(row.pq, pq);
    addInts(row.sq, sq);
    let bucket = masks.get(row.b);
    if (!bucket) masks.set(row.b, (bucket = []));
    // a day row: bit 0 when the brand was named (or none is left: a prompt deleted)
    const bits = row.bd === null ? addInts(row.mn, []).map((v) => (v > 0 ? 1 : 0)) : addInts(row.bd, []);
    for (let no = 0; no < bits.length; no++) bucket[no] = (bucket[no] ?? 0) | (bits[no] ?? 0);
  }
  const days: number[] = [];
  for (const bucket of masks.values()) for (let no = 0; no < bucket.length; no++) days[no] = (days[no] ?? 0) + popcount(bucket[no] ?? 0);
  const brands = new Map<number, BrandSums>();
  const [mn, mc, ps, ss, pq, sq] = sums;
  for (let no = 0; no < days.length; no++) {
    // never named in the window: no sums to show
    if (!(days[no] > 0)) continue;
    brands.set(no, { mentions: mn[no] ?? 0, mc: mc[no] ?? 0, ps: ps[no] ?? 0, ss: ss[no] ?? 0, pq: pq[no] ?? 0, sq: sq[no] ?? 0, days: days[no] });
  }
  return { responses, brands };
}

/**
 * A brand's metrics for the window. Share of voice is over `allMentions`, the mentions of
 * every tracked brand (the active ones). No mention: 0 % visibility, no position or
 * sentiment (docs/analytics.md), yet the interval of that 0 % over the window's responses.
 */
export function brandMetrics(w: Window, responses: number, b: BrandSums | undefined, allMentions: number): CompetitorMetrics {
  const s = {
    responses,
    mentioned: b?.mentions ?? 0,
    positionSum: b?.ps ?? 0,
    sentimentSum: b?.ss ?? 0,
    positionSq: b?.pq ?? 0,
    sentimentSq: b?.sq ?? 0,
  };
  return {
    visibility: m.visibility(s) ?? 0,
    sentiment: m.sentiment(s),
    position: m.position(s),
    mention_count: b?.mc ?? 0,
    days_with_data: b?.days ?? 0,
    period: w.period,
    ...m.uncertainty(s),
    ...m.shareOfVoice(s.mentioned, allMentions),
  };
}

export async function competitorsWithMetrics(ctx: RequestContext, projectId: string, w: Window) {
  const project = await requireProject(ctx, projectId);
  const [rows, sums] = await Promise.all([activeCompetitors(ctx.store, project), brandSums(ctx.store, projectId, w)]);
  // a removed competitor's mentions stay in the rollups until the re-analysis: not tracked, not counted
  const allMentions = rows.reduce((n, r) => n + (sums.brands.get(brandNo(r))?.mentions ?? 0), 0);
  return {
    active_competitors: rows.map((r) => presentCompetitor(r, brandMetrics(w, sums.responses, sums.brands.get(brandNo(r)), allMentions))),
    total_active: rows.length,
  };
}

/**
 * Per prompt of one type: the window's figures and the competitors named with it. The
 * window is read from the daily, weekly and monthly rollups (rollup-window.ts).
 */
export async function overview(ctx: RequestContext, projectId: string, w: Window, promptType: 'active' | 'suggested') {
  await requireProject(ctx, projectId);
  const providers = providerFilter(w);
  const [prompts, sums, brands, numbers] = await Promise.all([
    ctx.store.query<{ id: string; content: string; prompt_type: string; created_at: Date; topic_id: string | null; topic_name: string | null; intent: string | null }>(
      `select p.id, p.content, p.prompt_type, p.created_at, p.topic_id, t.name as topic_name, p.intent
         from prompts p left join topics t on t.id = p.topic_id
        where p.project_id = $1 and p.prompt_type = $2
        order by p.created_at, p.id`,
      [projectId, promptType],
    ),
    promptSumsAndBrands(ctx.store, projectId, providers, w),
    brandInfo(ctx.store, projectId),
    loadBrandNumbers(ctx.store, projectId),
  ]);
  // times named per prompt and competitor (brand number > 0; the own brand is 0)
  const infoOf = new Map([...numbers].flatMap(([id, no]) => (no > 0 && brands.has(id) ? [[no, brands.get(id)!] as const] : [])));
  const named = new Map<string, Array<{ competitor_id: string; name: string; mention_count: number; icon_url: string | null; icon_urls: string[] }>>();
  for (const [promptId, { brandCounts }] of sums) {
    const list: Array<{ competitor_id: string; name: string; mention_count: number; icon_url: string | null; icon_urls: string[] }> = [];
    for (let no = 1; no < brandCounts.length; no++) {
      const mc = brandCounts[no];
      const b = infoOf.get(no); // none: a competitor removed since
      if (mc > 0 && b) list.push({ competitor_id: b.id, name: b.name, mention_count: mc, icon_url: b.icon_url, icon_urls: b.icon_urls });
    }
    if (list.length) named.set(promptId, list);
  }
  return {
    items: prompts.rows.map((p) => {
      const cur = sums.get(p.id)?.sums ?? m.EMPTY_SUMS;
      return {
        prompt_id: p.id,
        content: p.content,
        prompt_type: p.prompt_type as 'active',
        created_at: p.created_at.toISOString(),
        topic_id: p.topic_id,
        topic_name: p.topic_name,
        visibility: m.visibility(cur) ?? 0,
        sentiment: m.sentiment(cur) ?? 0,
        position: m.position(cur) ?? 0,
        volume: null,
        intent: p.intent as 'informational' | null,
        cvr: m.cvr(cur),
        ...m.uncertainty(cur),
        competitors_mentioned: (named.get(p.id) ?? []).sort((a, b) => b.mention_count - a.mention_count || a.name.localeCompare(b.name)),
      };
    }),
  };
}

/** Daily visibility, sentiment and position per active brand, aligned to every day of the window. */
export async function visibilitySeries(ctx: RequestContext, projectId: string, w: Window) {
  const project: ProjectRow = await requireProject(ctx, projectId);
  const [rows, days] = await Promise.all([activeCompetitors(ctx.store, project), projectDays(ctx.store, projectId, providerFilter(w), w.from, w.to)]);
  const dates = daysOf(w);
  const responses = new Array<number>(dates.length).fill(0);
  for (const [i, d] of days) responses[i] = d.responses;
  return {
    dates,
    period: w.period,
    series: rows.map((c) => {
      const p = presentCompetitor(c);
      const no = brandNo(c);
      const points = dates.map((_, i) => {
        const b = days.get(i)?.brands;
        return {
          responses: responses[i],
          mentioned: b?.[0][no] ?? 0,
          positionSum: b?.[2][no] ?? 0,
          sentimentSum: b?.[3][no] ?? 0,
          positionSq: b?.[4][no] ?? 0,
          sentimentSq: b?.[5][no] ?? 0,
        };
      });
      return {
        competitor_id: p.competitor_id,
        name: p.name,
        website: p.website,
        icon_url: p.icon_url,
        is_own_brand: p.is_own_brand,
        visibility: points.map(m.visibility),
        sentiment: points.map(m.sentiment),
        position: points.map(m.position),
        responses: [...responses],
        visibility_ci: points.map(m.visibilityCi),
        position_ci: points.map(m.positionCi),
        sentiment_ci: points.map(m.sentimentCi),
      };
    }),
  };
}
