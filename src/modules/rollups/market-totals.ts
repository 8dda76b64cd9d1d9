import type { Tx } from '../../store/index.js';
import { PROMPT_DAILY, PROMPT_MONTHLY, PROMPT_WEEKLY } from './sums-tables.js';

// Market totals (README.md beside this file): a project whose prompts run in several
// markets keeps, in the prompt rollups, a row of market '*' per prompt, provider and bucket
// that sums the prompt's markets, as the provider '*' rows sum providers. A read of every
// market then reads one row per bucket instead of one per market. projects.market_totals
// says those rows are there for the project's whole history: it is set, with the rows, in
// the transaction that first gives a prompt of the project more than one market, and never
// unset. The project rollups (project_daily and its buckets) keep no such rows.

/** The market of the prompt rollup rows that sum every market. */
export const ALL_MARKETS = '*';

/** The prompt rollups that keep market totals. */
const TOTALLED = [PROMPT_DAILY, PROMPT_WEEKLY, PROMPT_MONTHLY];

/**
 * The market a read of the prompt rollups asks for: the one given, else '*' where the
 * project keeps market totals, else null (every market's rows, summed by the read).
 */
export function promptRowsMarket(project: { market_totals: boolean }, market: string | null | undefined): string | null {
  return market ?? (project.market_totals ? ALL_MARKETS : null);
}

/**
 * The SQL condition of a read of the prompt rollups: one market's rows (`market = $n`, '*'
 * for the totals), or with null every market's rows but the totals (which would count each
 * answer twice). The null case leaves the parameter in the text, so the statement keeps its
 * parameters whichever case it is.
 */
export function promptMarketSql(market: string | null | undefined, param: number, column = 'market'): string {
  return market === null || market === undefined ? `$${param}::text is null and ${column} <> '${ALL_MARKETS}'` : `${column} = $${param}`;
}

/**
 * Whether the project's prompt rollups keep market totals, read under a key-share lock on
 * the project: a transaction that adds answers reads it before it writes them, and
 * keepMarketTotals (which locks the project for update) waits for that transaction or is
 * waited for, so no answer is added on either side of the change without its totals.
 */
export async function keepsMarketTotals(tx: Tx, projectId: string): Promise<boolean> {
  const { rows } = await tx.query<{ market_totals: boolean }>(`select market_totals from projects where id = $1 for key share`, [projectId]);
  return rows[0]?.market_totals ?? false;
}

/**
 * Makes the project keep market totals (in the caller's transaction): the '*' rows of its
 * whole history summed from the markets' rows, then the flag. Nothing to do when it does.
 */
export async function keepMarketTotals(tx: Tx, projectId: string): Promise<void> {
  const { rows } = await tx.query<{ market_totals: boolean }>(`select market_totals from projects where id = $1 for update`, [projectId]);
  if (!rows[0] || rows[0].market_totals) return;
  for (const table of TOTALLED) {
    const keys = table.keys.map(([column]) => column);
    const grouped = keys.filter((c) => c !== 'market');
    const arrays = table.arrays ?? [];
    await tx.query(
      `insert into ${table.name} (project_id, ${keys.join(', ')}, ${table.sums.join(', ')}, ${arrays.join(', ')})
       select project_id, ${keys.map((c) => (c === 'market' ? `'${ALL_MARKETS}'` : c)).join(', ')}, ${table.sums.map((c) => `sum(${c})`).join(', ')},
              ${arrays.map((c) => `brand_sums_agg(${c})`).join(', ')}
         from ${table.name} where project_id = $1 and market <> '${ALL_MARKETS}'
        group by project_id, ${grouped.join(', ')}`,
      [projectId],
    );
  }
  await tx.query(`update projects set market_totals = true where id = $1`, [projectId]);
}
