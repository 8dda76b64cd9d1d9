import type { Tx } from '../../store';
import type { PromptMetrics } from '../prompts/service';
import * as m from './metrics';
import { windowParams, windowRows } from './rollup-window';
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
 * Window metrics of a project's prompts (or of the given ones) from the prompt rollups,
 * with the previous window's visibility for the trend, in one statement.
 */
export async function promptMetrics(tx: Tx, projectId: string, w: Window, promptIds?: string[]): Promise<Map<string, PromptMetrics>> {
  // w1 weighs the rows of the window, w2 those of the window before it (for the trend)
  const { rows } = await tx.query<Row>(
    `select prompt_id, sum(responses * w1)::int as r, sum(mentioned * w1)::int as mn, sum(position_sum * w1)::int as ps,
            sum(sentiment_sum * w1)::int as ss, sum(cites_own * w1)::int as co,
            sum(responses * w2)::int as pr, sum(mentioned * w2)::int as pm
       from (${windowRows('prompt', 'prompt_id, responses, mentioned, position_sum, sentiment_sum, cites_own', 'project_id = $1 and provider = any($2::text[]) and ($3::uuid[] is null or prompt_id = any($3::uuid[]))', 4, 2)}) x
      group by prompt_id`,
    [projectId, providerFilter(w), promptIds ?? null, ...windowParams([w, { from: w.prevFrom, to: w.prevTo }])],
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
