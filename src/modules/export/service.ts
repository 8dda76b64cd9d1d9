import type { RequestContext } from '../../context.js';
import { Invalid } from '../../lib/errors.js';
import { utcDay } from '../../lib/time.js';
import * as metrics from '../analytics/metrics.js';
import { addDays, resolveWindow } from '../analytics/window.js';
import { activeCompetitors, brandNo } from '../competitors/service.js';
import { requireProject } from '../projects/service.js';
import { dailyPromptRows } from '../rollups/prompt-reads.js';
import { rollupMarket } from '../rollups/market-totals.js';

export const DAILY_COLUMNS = ['date', 'provider', 'prompt_id', 'prompt', 'brand_id', 'brand', 'responses', 'mentions', 'visibility', 'avg_position', 'sentiment', 'citations'] as const;

/**
 * A CSV field: quoted when it holds a comma, quote or line break; a text starting with
 * = + - @ (a formula to a spreadsheet) is prefixed with ' so Sheets or Excel shows it as text.
 */
export function csvField(v: string | number | null): string {
  if (v === null) return '';
  if (typeof v === 'number') return String(v);
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The daily long table: one row per day, provider, prompt and tracked brand. Own brand rows
 * carry position, sentiment and own-domain citations (responses citing the own site); the
 * rollups keep a competitor's position and sentiment per project only, so its rows leave
 * them empty. An unmeasured figure is an empty cell, never 0.
 */
export async function dailyCsv(ctx: RequestContext, projectId: string, q: { start_date?: string; end_date?: string; market?: string }): Promise<string> {
  const project = await requireProject(ctx, projectId);
  const today = utcDay(ctx.clock.now());
  const end = q.end_date ?? today;
  const w = resolveWindow({ date_from: q.start_date ?? addDays(end, -29), date_to: end, market: q.market }, today);
  if (q.start_date && !q.end_date && w.from > today) throw new Invalid('start_date must not be after today');
  const [brands, rows] = await Promise.all([activeCompetitors(ctx.reads, project), dailyPromptRows(ctx.reads, projectId, w.from, w.to, rollupMarket(project, w.market))]);
  const lines = [DAILY_COLUMNS.join(',')];
  for (const r of rows) {
    for (const b of brands) {
      const own = b.is_own_brand;
      const mentions = own ? r.mentioned : (r.brandMentions[brandNo(b)] ?? 0);
      const s = { responses: r.responses, mentioned: mentions, positionSum: r.position_sum, sentimentSum: r.sentiment_sum };
      lines.push(
        [
          r.day,
          r.provider,
          r.prompt_id,
          r.prompt,
          own ? '00000000-0000-0000-0000-000000000000' : b.id,
          b.name,
          r.responses,
          mentions,
          metrics.visibility(s),
          own ? metrics.position(s) : null,
          own ? metrics.sentiment(s) : null,
          own ? r.cites_own : null,
        ]
          .map(csvField)
          .join(','),
      );
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
