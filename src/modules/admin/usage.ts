import type { ServiceContext } from '../../context.js';
import { Invalid } from '../../lib/errors.js';
import { utcDay } from '../../lib/time.js';

const MAX_DAYS = 366;

/**
 * Operator: what the vendors reported per provider and UTC day (tokens, searches, their own
 * price where they state one), from the usage stored with each live answer, so plans can be
 * priced. Days without a live answer are left out.
 */
export async function providerUsage(ctx: ServiceContext, q: { from?: string; to?: string }) {
  const to = q.to ?? utcDay();
  const from = q.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
  const span = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  if (span < 1) throw new Invalid('from must not be after to');
  if (span > MAX_DAYS) throw new Invalid(`The window must be at most ${MAX_DAYS} days`);
  const { rows } = await ctx.store.query<{
    day: string;
    provider: string;
    responses: number;
    reported: number;
    input_tokens: string;
    output_tokens: string;
    searches: string;
    cost_usd: string | null;
  }>(
    `select to_char(day, 'YYYY-MM-DD') as day, provider, count(*)::int as responses, count(usage)::int as reported,
            coalesce(sum((usage->>'input_tokens')::bigint), 0) as input_tokens,
            coalesce(sum((usage->>'output_tokens')::bigint), 0) as output_tokens,
            coalesce(sum((usage->>'searches')::bigint), 0) as searches,
            sum((usage->>'cost_usd')::numeric) as cost_usd
       from responses
      where not simulated and day between $1::date and $2::date
      group by day, provider
      order by day, provider`,
    [from, to],
  );
  return rows.map((r) => ({
    day: r.day,
    provider: r.provider,
    responses: r.responses,
    reported: r.reported,
    input_tokens: Number(r.input_tokens),
    output_tokens: Number(r.output_tokens),
    searches: Number(r.searches),
    cost_usd: r.cost_usd === null ? null : Math.round(Number(r.cost_usd) * 1e6) / 1e6,
  }));
}
