import type { Tx } from '../../store';
import type { PromptMetrics } from '../prompts/service';
import * as m from './metrics';
import { providerFilter, type Window } from './window';

interface Row {
  prompt_id: string;
  r: number;
  mn: number;
  ps: number;
  ss: number;
  co: number;
  pr: number;
  pm: number;
}

/**
 * Window metrics of a project's prompts (or of the given ones) from prompt_daily, with the
 * previous window's visibility for the trend, in one pass over the rollup.
 */
export async function promptMetrics(tx: Tx, projectId: string, w: Window, promptIds?: string[]): Promise<Map<string, PromptMetrics>> {
  const { rows } = await tx.query<Row>(
    `select prompt_id,
            coalesce(sum(responses) filter (where day >= $4::date), 0)::int as r,
            coalesce(sum(mentioned) filter (where day >= $4::date), 0)::int as mn,
            coalesce(sum(position_sum) filter (where day >= $4::date), 0)::int as ps,
            coalesce(sum(sentiment_sum) filter (where day >= $4::date), 0)::int as ss,
            coalesce(sum(cites_own) filter (where day >= $4::date), 0)::int as co,
            coalesce(sum(responses) filter (where day < $4::date), 0)::int as pr,
            coalesce(sum(mentioned) filter (where day < $4::date), 0)::int as pm
       from prompt_daily
      where project_id = $1 and provider = any($2::text[]) and day between $3::date and $5::date
        and ($6::uuid[] is null or prompt_id = any($6::uuid[]))
      group by prompt_id`,
    [projectId, providerFilter(w), w.prevFrom, w.from, w.to, promptIds ?? null],
  );
  const out = new Map<string, PromptMetrics>();
  for (const r of rows) {
    const cur = { responses: r.r, mentioned: r.mn, positionSum: r.ps, sentimentSum: r.ss, citesOwn: r.co };
    const vis = m.visibility(cur);
    out.set(r.prompt_id, {
      visibility: vis,
      sentiment: m.sentimentInt(cur),
      position: m.position(cur),
      volume: r.r,
      cvr: m.cvr(cur),
      trend: m.trend(vis, m.visibility({ responses: r.pr, mentioned: r.pm })),
    });
  }
  return out;
}

/** A prompt without responses in the window: no figures, but volume 0 (nothing collected). */
export const noData = (): PromptMetrics => ({ visibility: null, sentiment: null, position: null, volume: 0, cvr: null, trend: null });
