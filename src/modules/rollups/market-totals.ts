import type { Tx } from '../../store/index.js';
import { PROJECT_BUCKETS, PROJECT_DAILY, PROMPT_DAILY, PROMPT_MONTHLY, PROMPT_WEEKLY } from './sums-tables.js';

// Market totals (README.md beside this file): a project whose prompts run in several
// markets keeps, in its rollups of sums (prompt_daily/weekly/monthly, project_daily/weekly/
// monthly) and of domains (project_domain_daily, prompt_domain_monthly), a row of market
// '*' per key and bucket that sums the markets' rows, as the provider '*' rows sum
// providers (day bits OR'd, domains added). A read of every market then reads one row per
// bucket instead of one per market. projects.market_totals says those rows are there for
// the project's whole history: it is set, with the rows, in the transaction that first
// gives a prompt of the project more than one market, and never unset.

/** The market of the prompt rollup rows that sum every market. */
export const ALL_MARKETS = '*';

/** The rollups of sums that keep market totals: every one. */
const TOTALLED = [PROMPT_DAILY, PROMPT_WEEKLY, PROMPT_MONTHLY, PROJECT_DAILY, ...PROJECT_BUCKETS];

/**
 * The market a read of the rollups asks for: the one given, else '*' where the project
 * keeps market totals, else null (every market's rows but '*', summed by the read). A
 * project row cached before the flag was set asks null, which reads right all the same: the
 * flag is never unset, so only its "true" needs to be current.
 */
export function rollupMarket(project: { market_totals: boolean }, market: string | null | undefined): string | null {
  return market ?? (project.market_totals ? ALL_MARKETS : null);
}

/**
 * The SQL condition of a read of the rollups: one market's rows (`market = $n`, '*'
 * for the totals), or with null every market's rows but the totals (which would count each
 * answer twice). The null case leaves the parameter in the text, so the statement keeps its
 * parameters whichever case it is.
 */
export function rollupMarketSql(market: string | null | undefined, param: number, column = 'market'): string {
  return market === null || market === undefined ? `$${param}::text is null and ${column} <> '${ALL_MARKETS}'` : `${column} = $${param}`;
}

/**
 * Whether the project's rollups keep market totals, read under a key-share lock on
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
  for (const sql of totalsFromMarketsSql('project_id = $1')) await tx.query(sql, [projectId]);
  await tx.query(`update projects set market_totals = true where id = $1`, [projectId]);
}

/**
 * The statements that add the '*' rows of the projects matching `where` (a condition on
 * project_id) from their markets' rows, in every rollup that keeps totals: sums added,
 * per-brand arrays added, day bits OR'd, domains added (domain_sums_agg), the lowest
 * category kept. Migration 0031 ran the same statements for the projects already flagged.
 */
export function totalsFromMarketsSql(where: string): string[] {
  const sums = TOTALLED.map((table) => {
    const keys = table.keys.map(([column]) => column);
    const grouped = keys.filter((c) => c !== 'market');
    const arrays = table.arrays ?? [];
    const masks = table.masks ?? [];
    const values = [
      ...keys.map((c) => (c === 'market' ? `'${ALL_MARKETS}'` : c)),
      ...table.sums.map((c) => `sum(${c})`),
      ...arrays.map((c) => `brand_sums_agg(${c})`),
      ...masks.map((c) => `brand_bits_agg(${c})`),
    ];
    return `insert into ${table.name} (project_id, ${[...keys, ...table.sums, ...arrays, ...masks].join(', ')})
       select project_id, ${values.join(', ')}
         from ${table.name} where ${where} and market <> '${ALL_MARKETS}'
        group by project_id, ${grouped.join(', ')}`;
  });
  return [
    ...sums,
    `insert into project_domain_daily (project_id, provider, day, market, domains)
     select project_id, provider, day, '${ALL_MARKETS}', domain_sums_agg(domains order by market)
       from project_domain_daily where ${where} and market <> '${ALL_MARKETS}'
      group by project_id, provider, day`,
    `insert into prompt_domain_monthly (project_id, prompt_id, provider, month, domain, market, category, citations, responses, mentioned, brands)
     select project_id, prompt_id, provider, month, domain, '${ALL_MARKETS}', min(category), sum(citations), sum(responses), sum(mentioned), bit_or(brands)
       from prompt_domain_monthly where ${where} and market <> '${ALL_MARKETS}'
      group by project_id, prompt_id, provider, month, domain`,
  ];
}
