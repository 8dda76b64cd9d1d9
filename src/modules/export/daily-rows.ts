import type { Tx } from '../../store/index.js';
import { addInts } from '../analytics/prompt-metrics.js';

export interface DailyPromptRow {
  day: string;
  provider: string;
  prompt_id: string;
  prompt: string;
  responses: number;
  mentioned: number;
  position_sum: number;
  sentiment_sum: number;
  cites_own: number;
  /** Responses naming each brand, by brand number (0: the own brand). */
  brandMentions: number[];
}

/**
 * The export's one read of the rollups: prompt_daily per day, real provider (not the '*'
 * sums) and prompt, with the per-brand mention arrays. Every other figure of the export is
 * worked out from these sums with the analytics metric functions.
 */
export async function dailyPromptRows(tx: Tx, projectId: string, from: string, to: string): Promise<DailyPromptRow[]> {
  const { rows } = await tx.query<Omit<DailyPromptRow, 'brandMentions'> & { bm: string }>(
    `select to_char(d.day, 'YYYY-MM-DD') as day, d.provider, d.prompt_id, p.content as prompt, d.responses, d.mentioned,
            d.position_sum, d.sentiment_sum, d.cites_own, d.brand_mentions::text as bm
       from prompt_daily d join prompts p on p.id = d.prompt_id
      where d.project_id = $1 and d.provider <> '*' and d.day between $2::date and $3::date
      order by d.day, d.provider, p.created_at, d.prompt_id`,
    [projectId, from, to],
  );
  return rows.map(({ bm, ...r }) => ({ ...r, brandMentions: addInts(bm, []) }));
}
