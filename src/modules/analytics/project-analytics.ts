import type { RequestContext } from '../../context.js';
import { activeCompetitors, brandNo, presentCompetitor } from '../competitors/service.js';
import { requireProject, type ProjectRow } from '../projects/service.js';
import { brandInfoByNumber } from './brand-info.js';
import * as metrics from './metrics.js';
import { projectDays } from '../rollups/project-reads.js';
import { promptSumsAndBrands } from '../rollups/prompt-reads.js';
import { rollupMarket } from '../rollups/market-totals.js';
import { daysOf, providerFilter, type Window } from './window.js';

/**
 * Per prompt of one type: the window's figures and the competitors named with it. The
 * window is read from the daily, weekly and monthly rollups (rollups/window-rows.ts).
 */
export async function overview(ctx: RequestContext, projectId: string, w: Window, promptType: 'active' | 'suggested') {
  const project = await requireProject(ctx, projectId);
  const providers = providerFilter(w);
  const [prompts, sums, { byId: brands, numbers }] = await Promise.all([
    ctx.reads.query<{ id: string; content: string; prompt_type: string; created_at: Date; topic_id: string | null; topic_name: string | null; intent: string | null }>(
      `select p.id, p.content, p.prompt_type, p.created_at, p.topic_id, t.name as topic_name, p.intent
         from prompts p left join topics t on t.id = p.topic_id
        where p.project_id = $1 and p.prompt_type = $2
        order by p.created_at, p.id`,
      [projectId, promptType],
    ),
    promptSumsAndBrands(ctx.reads, projectId, providers, w, rollupMarket(project, w.market)),
    brandInfoByNumber(ctx.reads, projectId),
  ]);
  // times named per prompt and competitor (brand number > 0; the own brand is 0)
  const infoOf = new Map([...numbers].flatMap(([id, no]) => (no > 0 && brands.has(id) ? [[no, brands.get(id)!] as const] : [])));
  const named = new Map<string, Array<{ competitor_id: string; name: string; mention_count: number; icon_url: string | null; icon_urls: string[] }>>();
  for (const [promptId, { brandCounts }] of sums) {
    const list: Array<{ competitor_id: string; name: string; mention_count: number; icon_url: string | null; icon_urls: string[] }> = [];
    for (let no = 1; no < brandCounts.length; no++) {
      const timesNamed = brandCounts[no];
      const b = infoOf.get(no); // none: a competitor removed since
      if (timesNamed > 0 && b) list.push({ competitor_id: b.id, name: b.name, mention_count: timesNamed, icon_url: b.icon_url, icon_urls: b.icon_urls });
    }
    if (list.length) named.set(promptId, list);
  }
  return {
    items: prompts.rows.map((p) => {
      const cur = sums.get(p.id)?.sums ?? metrics.EMPTY_SUMS;
      return {
        prompt_id: p.id,
        content: p.content,
        prompt_type: p.prompt_type as 'active',
        created_at: p.created_at.toISOString(),
        topic_id: p.topic_id,
        topic_name: p.topic_name,
        visibility: metrics.visibility(cur) ?? 0,
        sentiment: metrics.sentiment(cur) ?? 0,
        position: metrics.position(cur) ?? 0,
        volume: null,
        intent: p.intent as 'informational' | null,
        cvr: metrics.cvr(cur),
        ...metrics.uncertainty(cur),
        competitors_mentioned: (named.get(p.id) ?? []).sort((a, b) => b.mention_count - a.mention_count || a.name.localeCompare(b.name)),
      };
    }),
  };
}

/** Daily visibility, sentiment and position per active brand, aligned to every day of the window. */
export async function visibilitySeries(ctx: RequestContext, projectId: string, w: Window) {
  const project: ProjectRow = await requireProject(ctx, projectId);
  const [rows, days] = await Promise.all([activeCompetitors(ctx.reads, project), projectDays(ctx.reads, projectId, providerFilter(w), w.from, w.to, rollupMarket(project, w.market))]);
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
        const brands = days.get(i)?.brands;
        return {
          responses: responses[i],
          mentioned: brands?.mentions[no] ?? 0,
          positionSum: brands?.positionSums[no] ?? 0,
          sentimentSum: brands?.sentimentSums[no] ?? 0,
          positionSq: brands?.positionSquares[no] ?? 0,
          sentimentSq: brands?.sentimentSquares[no] ?? 0,
        };
      });
      return {
        competitor_id: p.competitor_id,
        name: p.name,
        website: p.website,
        icon_url: p.icon_url,
        is_own_brand: p.is_own_brand,
        visibility: points.map(metrics.visibility),
        sentiment: points.map(metrics.sentiment),
        position: points.map(metrics.position),
        responses: [...responses],
        visibility_ci: points.map(metrics.visibilityCi),
        position_ci: points.map(metrics.positionCi),
        sentiment_ci: points.map(metrics.sentimentCi),
      };
    }),
  };
}
