import type { Tx } from '../../store/index.js';

// The rollups of sums and the one upsert they share (store-answers.ts adds every stored
// answer to each of them, in the answer's transaction).

/** Sums in a table's column order, and a row: its key (after project_id) and its sums. */
export type Sums = number[];
export type SumsRows = Map<string, { key: unknown[]; sums: Sums }>;

/** A rollup of sums: its key columns after project_id (with their SQL types) and its sum columns. */
export interface SumsTable {
  name: string;
  keys: Array<[column: string, type: string]>;
  sums: string[];
}

// position_sq and sentiment_sq: sums of squares, for the t intervals of the means (statistics.ts)
const MAIN_SUMS = ['responses', 'mentioned', 'position_sum', 'sentiment_sum', 'cites_own', 'citations', 'position_sq', 'sentiment_sq'];
const BRAND_SUMS = ['mentions', 'mention_count', 'position_sum', 'sentiment_sum', 'position_sq', 'sentiment_sq'];
export const PROMPT_DAILY: SumsTable = { name: 'prompt_daily', keys: [['prompt_id', 'uuid'], ['provider', 'text'], ['day', 'date']], sums: MAIN_SUMS };
export const PROMPT_WEEKLY: SumsTable = { name: 'prompt_weekly', keys: [['prompt_id', 'uuid'], ['provider', 'text'], ['week', 'date']], sums: MAIN_SUMS };
export const PROMPT_MONTHLY: SumsTable = { name: 'prompt_monthly', keys: [['prompt_id', 'uuid'], ['provider', 'text'], ['month', 'date']], sums: MAIN_SUMS };
export const PROJECT_DAILY: SumsTable = { name: 'project_daily', keys: [['provider', 'text'], ['day', 'date']], sums: MAIN_SUMS };
export const PROMPT_BRAND_DAILY: SumsTable = { name: 'prompt_brand_daily', keys: [...PROMPT_DAILY.keys, ['brand_id', 'uuid']], sums: BRAND_SUMS };
export const PROMPT_BRAND_WEEKLY: SumsTable = { name: 'prompt_brand_weekly', keys: [...PROMPT_WEEKLY.keys, ['brand_id', 'uuid']], sums: BRAND_SUMS };
export const PROMPT_BRAND_MONTHLY: SumsTable = { name: 'prompt_brand_monthly', keys: [...PROMPT_MONTHLY.keys, ['brand_id', 'uuid']], sums: BRAND_SUMS };
export const PROJECT_BRAND_DAILY: SumsTable = { name: 'project_brand_daily', keys: [...PROJECT_DAILY.keys, ['brand_id', 'uuid']], sums: BRAND_SUMS };

/** Every rollup of sums kept per project (the citations and domain rollups aside), in the order they are written. */
export const SUMS_ROLLUPS = [PROMPT_DAILY, PROMPT_WEEKLY, PROMPT_MONTHLY, PROJECT_DAILY, PROMPT_BRAND_DAILY, PROMPT_BRAND_WEEKLY, PROMPT_BRAND_MONTHLY, PROJECT_BRAND_DAILY];
export const SUMS_TABLES = SUMS_ROLLUPS.map((t) => t.name);

const upsertSql = new Map<SumsTable, string>();

/** One statement per table and batch: insert the batch's sums, or add them to the rows there. */
export async function upsertSums(tx: Tx, projectId: string, table: SumsTable, rows: Array<{ key: unknown[]; sums: Sums }>): Promise<void> {
  if (rows.length === 0) return;
  let sql = upsertSql.get(table);
  if (!sql) {
    const cols = [...table.keys.map(([c]) => c), ...table.sums];
    const types = [...table.keys.map(([, t]) => (t === 'date' ? 'text' : t)), ...table.sums.map(() => 'int')];
    const values = cols.map((_, i) => (table.keys[i]?.[1] === 'date' ? `x${i}::date` : `x${i}`));
    // prompt rollups are unique per prompt; project rollups per project
    const keys = table.keys.map(([c]) => c);
    const conflict = keys[0] === 'prompt_id' ? keys : ['project_id', ...keys];
    sql = `insert into ${table.name} (project_id, ${cols.join(', ')})
       select $1, ${values.join(', ')}
         from unnest(${types.map((t, i) => `$${i + 2}::${t}[]`).join(', ')}) as u(${cols.map((_, i) => `x${i}`).join(', ')})
       on conflict (${conflict.join(', ')}) do update set
         ${table.sums.map((c) => `${c} = ${table.name}.${c} + excluded.${c}`).join(', ')}`;
    upsertSql.set(table, sql);
  }
  await tx.query(sql, [
    projectId,
    ...table.keys.map((_, i) => rows.map((r) => r.key[i])),
    ...table.sums.map((_, i) => rows.map((r) => r.sums[i])),
  ]);
}
