import type { RequestContext } from '../../context.js';
import { NotFound } from '../../lib/errors.js';
import { PROVIDERS } from '../../ports/providers/types.js';
import type { Interval } from '../../lib/statistics.js';
import { requireProject } from '../projects/service.js';
import { brandInfoByNumber } from './brand-info.js';
import * as metrics from './metrics.js';
import { CHAT_COLUMNS, chatItem, chatPages, type ChatRow } from './chat-item.js';
import { promptProviderDays } from '../rollups/prompt-reads.js';
import { rollupMarket } from '../rollups/market-totals.js';
import { daysOf, type Window } from './window.js';
import { marketSql } from '../../lib/markets.js';

/** The prompt, if it belongs to the project and the project to the caller's team; with the project's row. */
export async function requirePrompt(ctx: RequestContext, projectId: string, promptId: string) {
  const project = await requireProject(ctx, projectId);
  const { rows } = await ctx.reads.query<{ id: string; content: string }>(
    `select id, content from prompts where id = $1 and project_id = $2`,
    [promptId, projectId],
  );
  if (!rows[0]) throw new NotFound('Prompt not found');
  return { ...rows[0], project };
}

export const realProviders = (w: Window): string[] => w.providers ?? [...PROVIDERS];

/** Daily charts per provider for one prompt; every day of the window is a key. */
export async function promptAnalytics(ctx: RequestContext, projectId: string, promptId: string, w: Window) {
  // The prompt's check beside the read of its rollups rather than before it (one round trip
  // less), as promptChats does; the project's row (cached) says which market rows to read.
  const project = await requireProject(ctx, projectId);
  const [prompt, { providers, sums }] = await Promise.all([
    requirePrompt(ctx, projectId, promptId),
    promptProviderDays(ctx.reads, promptId, realProviders(w), w.from, w.to, rollupMarket(project, w.market)),
  ]);
  // n: the responses a point rests on (all for visibility, the mentioning ones for the means)
  type Point = { provider: string; value: number; n: number; ci: Interval | null };
  const visibility: Record<string, Point[]> = {};
  const positionChart: Record<string, Point[]> = {};
  const sentimentChart: Record<string, Point[]> = {};
  const total = { ...metrics.EMPTY_SUMS };
  const days = daysOf(w);
  for (let d = 0; d < days.length; d++) {
    const dayVisibility: Point[] = [];
    const dayPosition: Point[] = [];
    const daySentiment: Point[] = [];
    for (let p = 0; p < providers.length; p++) {
      const s = sums[d * providers.length + p];
      if (!s) continue;
      const provider = providers[p];
      total.responses += s.responses;
      total.mentioned += s.mentioned;
      total.positionSum += s.positionSum;
      total.sentimentSum += s.sentimentSum;
      total.positionSq += s.positionSq;
      total.sentimentSq += s.sentimentSq;
      const v = metrics.visibility(s);
      if (v !== null) dayVisibility.push({ provider, value: v, n: s.responses, ci: metrics.visibilityCi(s) });
      const position = metrics.position(s);
      if (position !== null) dayPosition.push({ provider, value: position, n: s.mentioned, ci: metrics.positionCi(s) });
      const sentiment = metrics.sentiment(s);
      if (sentiment !== null) daySentiment.push({ provider, value: sentiment, n: s.mentioned, ci: metrics.sentimentCi(s) });
    }
    visibility[days[d]] = dayVisibility;
    positionChart[days[d]] = dayPosition;
    sentimentChart[days[d]] = daySentiment;
  }
  return {
    prompt_id: prompt.id,
    prompt_content: prompt.content,
    volume: total.responses,
    sentiment: metrics.sentimentInt(total),
    sentiment_ci: metrics.sentimentCi(total),
    visibility_chart: visibility,
    position_chart: positionChart,
    sentiment_chart: sentimentChart,
  };
}

/** The prompt's answers in the window, newest first, a page at a time. */
export async function promptChats(ctx: RequestContext, projectId: string, promptId: string, w: Window, page: number, pageSize: number) {
  // The prompt's check beside the reads rather than before them (one round trip less): what
  // they read is shown only once it has passed.
  const [prompt, { rows }, brands] = await Promise.all([
    requirePrompt(ctx, projectId, promptId),
    ctx.reads.query<ChatRow>(
      // A response belongs to its (UTC) day: `date` is when it was collected if that was on
      // its day, else the start of its day (an answer stored later for a past day, as a
      // backfill, a retry after midnight or the seed does, is still that day's answer).
      // The page lies in the days from the day of its last answer (its place in day order,
      // read off the index alone) on: only those rows are read, not the window's (1,825 of a
      // prompt's over a year, each on its own heap page, for a page of 50). That day is the
      // ($7 + 1)-th latest among each provider's $7 + 1 latest: each provider's read walks
      // its index backwards from the newest month and stops there, where one read of all
      // providers had to sort every day of the window.
      `select ${CHAT_COLUMNS},
              case when (collected_at at time zone 'UTC')::date = day then collected_at
                   else day::timestamp at time zone 'UTC' end as at
         from responses
        where prompt_id = $1 and provider = any($2::text[]) and day between $3::date and $4::date and ${marketSql(w.market, 8)}
          and day >= coalesce((select latest.day
                                 from (select distinct unnest($2::text[]) as provider) asked
                                 cross join lateral (select r.day from responses r
                                                      where r.prompt_id = $1 and r.provider = asked.provider and r.day between $3::date and $4::date
                                                        and ${marketSql(w.market, 8, 'r.market')}
                                                      order by r.day desc limit $7 + 1) latest
                                order by latest.day desc offset $7 limit 1), $3::date)
        order by day desc, at desc, provider, sample, market, id
        limit $5 offset $6`,
      [promptId, realProviders(w), w.from, w.to, pageSize, (page - 1) * pageSize, page * pageSize - 1, w.market],
    ),
    brandInfoByNumber(ctx.reads, projectId),
  ]);
  const pages = await chatPages(ctx, rows);
  const items = rows.map((r) => chatItem(r, brands.byNumber, prompt.content, pages));
  return { items };
}
