import type { RequestContext } from '../../context.js';
import type { ProviderName } from '../../ports/providers/types.js';
import { decodeSearchQueries } from '../answers/answer-body.js';
import { realProviders, requirePrompt } from './prompt-analytics.js';
import type { Window } from './window.js';
import { marketSql } from '../../lib/markets.js';

export interface SearchQueryCount {
  query: string;
  count: number;
  providers: string[];
}

/**
 * The web searches the engines ran for a prompt over the window ("query fan-out"), most run
 * first: each with the number of answers whose engine ran it and the engines that did. Read
 * from each stored answer's body (the first of its lines; an answer stored before the body kept
 * them apart, from its provider body), so answers collected before this read existed count too.
 */
export async function promptSearchQueries(ctx: RequestContext, projectId: string, promptId: string, w: Window): Promise<SearchQueryCount[]> {
  const [, { rows }] = await Promise.all([
    requirePrompt(ctx, projectId, promptId),
    ctx.reads.query<{ provider: ProviderName; body: Uint8Array }>(
      `select provider, body from responses
        where prompt_id = $1 and provider = any($2::text[]) and day between $3::date and $4::date and ${marketSql(w.market, 5)}`,
      [promptId, realProviders(w), w.from, w.to, w.market],
    ),
  ]);
  const byQuery = new Map<string, Map<string, number>>();
  for (const row of rows) {
    for (const query of decodeSearchQueries(row.body, row.provider)) {
      const runs = byQuery.get(query) ?? new Map<string, number>();
      runs.set(row.provider, (runs.get(row.provider) ?? 0) + 1);
      byQuery.set(query, runs);
    }
  }
  const total = (runs: Map<string, number>) => [...runs.values()].reduce((sum, n) => sum + n, 0);
  return [...byQuery]
    .map(([query, runs]) => ({
      query,
      count: total(runs),
      providers: [...runs].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([provider]) => provider),
    }))
    .sort((a, b) => b.count - a.count || (a.query < b.query ? -1 : a.query > b.query ? 1 : 0));
}
