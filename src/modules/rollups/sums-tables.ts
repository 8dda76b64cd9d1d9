import type { Tx } from '../../store/index.js';
import { intArrayText, PROJECT_BRAND_COLUMNS } from './codec.js';

/** The provider value of the rollup rows that sum all providers. */
export const ALL = '*';

// The rollups of sums and the one upsert they share (add-answers.ts adds every stored
// answer to each of them, in the answer's transaction).

/** SumValues in a table's column order, and a row: its key (after project_id), its sums and its per-brand arrays. */
export type SumValues = number[];
export interface SumsRow {
  key: unknown[];
  sums: SumValues;
  /** Per array column of the table, sums by brand number (sparse: a missing index is 0). */
  arrays?: number[][];
  /** Per mask column of the table, bits by brand number (sparse: a missing index is 0). */
  masks?: number[][];
}
export type SumsRows = Map<string, SumsRow>;

/** A rollup of sums: its key columns after project_id (with their SQL types), its sum columns and per-brand array columns. */
export interface SumsTable {
  name: string;
  keys: Array<[column: string, type: string]>;
  sums: string[];
  arrays?: string[];
  /** Per-brand bitmask columns (int[] by brand number), OR'd where the arrays are added. */
  masks?: string[];
}

// position_sq and sentiment_sq: sums of squares, for the t intervals of the means (statistics.ts)
const MAIN_SUMS = ['responses', 'mentioned', 'position_sum', 'sentiment_sum', 'cites_own', 'citations', 'position_sq', 'sentiment_sq'];
/** Per project row, per brand named: the per-brand arrays of codec.ts (BrandArrays), in their order. */
export const PROJECT_BRAND_ARRAYS: string[] = [...PROJECT_BRAND_COLUMNS];
// Per prompt row, per brand named (by brand number, 0 = own brand): the first two, responses
// naming it and times named. The prompt × brand sums of position and sentiment are kept per
// project only (project_daily).
const BRAND_ARRAYS = PROJECT_BRAND_ARRAYS.slice(0, 2);
export const PROMPT_DAILY: SumsTable = { name: 'prompt_daily', keys: [['prompt_id', 'uuid'], ['provider', 'text'], ['day', 'date'], ['market', 'text']], sums: MAIN_SUMS, arrays: BRAND_ARRAYS };
export const PROMPT_WEEKLY: SumsTable = { name: 'prompt_weekly', keys: [['prompt_id', 'uuid'], ['provider', 'text'], ['week', 'date'], ['market', 'text']], sums: MAIN_SUMS, arrays: BRAND_ARRAYS };
export const PROMPT_MONTHLY: SumsTable = { name: 'prompt_monthly', keys: [['prompt_id', 'uuid'], ['provider', 'text'], ['month', 'date'], ['market', 'text']], sums: MAIN_SUMS, arrays: BRAND_ARRAYS };
export const PROJECT_DAILY: SumsTable = { name: 'project_daily', keys: [['provider', 'text'], ['day', 'date'], ['market', 'text']], sums: MAIN_SUMS, arrays: PROJECT_BRAND_ARRAYS };

/** Every rollup of sums kept per project (the citations and domain rollups aside), in the order they are written. */
export const SUMS_ROLLUPS = [PROMPT_DAILY, PROMPT_WEEKLY, PROMPT_MONTHLY, PROJECT_DAILY];
export const SUMS_TABLES = SUMS_ROLLUPS.map((t) => t.name);

// project_daily per week and month, with per brand number a bit per day of the bucket it was named on
const BRAND_DAYS = ['brand_days'];
export const PROJECT_WEEKLY: SumsTable = { name: 'project_weekly', keys: [['provider', 'text'], ['week', 'date'], ['market', 'text']], sums: MAIN_SUMS, arrays: PROJECT_BRAND_ARRAYS, masks: BRAND_DAYS };
export const PROJECT_MONTHLY: SumsTable = { name: 'project_monthly', keys: [['provider', 'text'], ['month', 'date'], ['market', 'text']], sums: MAIN_SUMS, arrays: PROJECT_BRAND_ARRAYS, masks: BRAND_DAYS };
/** project_daily's calendar buckets (project-buckets.ts): written with the rollups of sums, rebuilt from project_daily when it loses answers. */
export const PROJECT_BUCKETS = [PROJECT_WEEKLY, PROJECT_MONTHLY];

const upsertSql = new Map<SumsTable, string>();

/** One statement per table and batch: insert the batch's sums, or add them to the rows there. */
export async function upsertSums(tx: Tx, projectId: string, table: SumsTable, rows: SumsRow[]): Promise<void> {
  if (rows.length === 0) return;
  const arrays = table.arrays ?? [];
  const masks = table.masks ?? [];
  let sql = upsertSql.get(table);
  if (!sql) {
    const cols = [...table.keys.map(([c]) => c), ...table.sums, ...arrays, ...masks];
    // an array travels as its text ('{1,0,2}'): a parameter array of arrays must be rectangular
    const types = [...table.keys.map(([, t]) => (t === 'date' ? 'text' : t)), ...table.sums.map(() => 'int'), ...[...arrays, ...masks].map(() => 'text')];
    const cast = (i: number) => (table.keys[i]?.[1] === 'date' ? '::date' : i >= table.keys.length + table.sums.length ? '::int[]' : '');
    const values = cols.map((_, i) => `x${i}${cast(i)}`);
    // prompt rollups are unique per prompt; project rollups per project
    const keys = table.keys.map(([c]) => c);
    const conflict = keys[0] === 'prompt_id' ? keys : ['project_id', ...keys];
    sql = `insert into ${table.name} (project_id, ${cols.join(', ')})
       select $1, ${values.join(', ')}
         from unnest(${types.map((t, i) => `$${i + 2}::${t}[]`).join(', ')}) as u(${cols.map((_, i) => `x${i}`).join(', ')})
       on conflict (${conflict.join(', ')}) do update set
         ${[
           ...table.sums.map((c) => `${c} = ${table.name}.${c} + excluded.${c}`),
           ...arrays.map((c) => `${c} = brand_sums_add(${table.name}.${c}, excluded.${c})`),
           ...masks.map((c) => `${c} = brand_bits_or(${table.name}.${c}, excluded.${c})`),
         ].join(', ')}`;
    upsertSql.set(table, sql);
  }
  await tx.query(sql, [
    projectId,
    ...table.keys.map((_, i) => rows.map((r) => r.key[i])),
    ...table.sums.map((_, i) => rows.map((r) => r.sums[i])),
    ...arrays.map((_, i) => rows.map((r) => intArrayText(r.arrays?.[i] ?? []))),
    ...masks.map((_, i) => rows.map((r) => intArrayText(r.masks?.[i] ?? []))),
  ]);
}
