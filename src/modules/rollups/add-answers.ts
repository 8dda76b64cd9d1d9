import type { Analysis } from '../../analysis/types.js';
import type { Tx } from '../../store/index.js';
import { DAY_MS, weekOf } from '../../lib/time.js';
import { loadBrandNumbers } from '../projects/brands.js';
import * as sumsTables from './sums-tables.js';
import { ALL } from './sums-tables.js';
import { addDomainDays, type DomainDay } from './domain-days.js';
import { addThemes, THEME_TABLES } from './themes.js';
import type { SumValues, SumsRows } from './sums-tables.js';
import { ALL_MARKETS, keepsMarketTotals } from './market-totals.js';

/**
 * Per brand named, by brand number: its values in the order of the per-brand arrays
 * (sumsTables.PROJECT_BRAND_ARRAYS): responses naming it (1), times named, position, sentiment and
 * their squares. A table with fewer arrays takes the first values.
 */
type Named = Array<[no: number, values: number[]]>;

/**
 * Adds `values` (and the brands `named`, into the table's `arrays` per-brand arrays) into
 * the row of `key` (creating it), so each rollup is upserted once per batch.
 */
function bump(map: SumsRows, key: unknown[], values: SumValues, named?: Named, arrays = 0): void {
  const k = key.join('|');
  let row = map.get(k);
  if (!row) {
    row = { key, sums: [...values], arrays: named ? Array.from({ length: arrays }, () => []) : undefined };
    map.set(k, row);
  } else for (let i = 0; i < values.length; i++) row.sums[i] += values[i];
  if (!named) return;
  for (let j = 0; j < arrays; j++) {
    const sums = row.arrays![j];
    for (const [no, v] of named) sums[no] = (sums[no] ?? 0) + v[j];
  }
}

/**
 * Adds a project_daily row of the batch into the row of `key` of a calendar bucket
 * (PROJECT_BUCKETS), setting `bit` (the day in the bucket) for each brand it names: a
 * batch's weeks and months cost a fold per project day row, not per answer.
 */
function fold(map: SumsRows, key: unknown[], day: sumsTables.SumsRow, bit: number): void {
  const k = key.join('|');
  let row = map.get(k);
  if (!row) {
    row = { key, sums: day.sums.map(() => 0), arrays: day.arrays!.map(() => []), masks: [[]] };
    map.set(k, row);
  }
  for (let i = 0; i < day.sums.length; i++) row.sums[i] += day.sums[i];
  for (let j = 0; j < day.arrays!.length; j++) {
    const from = day.arrays![j];
    const into = row.arrays![j];
    for (let no = 0; no < from.length; no++) if (from[no] !== undefined) into[no] = (into[no] ?? 0) + from[no];
  }
  const mentions = day.arrays![0];
  const days = row.masks![0];
  for (let no = 0; no < mentions.length; no++) if (mentions[no] > 0) days[no] = (days[no] ?? 0) | bit;
}

export interface RollupInput {
  responseId: string;
  promptId: string;
  provider: string;
  day: string;
  /** The market asked in (`US-en`): the last key column of every rollup. */
  market: string;
  analysis: Analysis;
}

/**
 * Adds analysed responses to every daily rollup (their citations are stored with the
 * responses themselves: responses.cited, cited-pages.ts). Each rollup key
 * is upserted once per call with the batch's sums, so a batch costs a few statements.
 * `brandNumbers`: the project's (loadBrandNumbers), where the caller has them already.
 */
export async function addToRollups(tx: Tx, projectId: string, stored: RollupInput[], brandNumbers?: Map<string, number>): Promise<void> {
  if (stored.length === 0) return;

  const rows = new Map<sumsTables.SumsTable, SumsRows>([...sumsTables.SUMS_ROLLUPS, ...sumsTables.PROJECT_BUCKETS].map((t) => [t, new Map()]));
  const rowsOf = (t: sumsTables.SumsTable) => rows.get(t)!;
  const domainDays = new Map<string, DomainDay>();
  const domainCategory = new Map<string, number>();
  const promptDomains = new Map<string, PromptDomainRow>();
  const numbers = brandNumbers ?? (await loadBrandNumbers(tx, projectId));
  // a project that keeps market totals: each row also under market '*' (market-totals.ts)
  const totals = await keepsMarketTotals(tx, projectId);

  for (const answer of stored) {
    const analysis = answer.analysis;
    // a brand without a number (a competitor deleted since the analysis) has nobody to show it
    const named: Named = [];
    for (const [brandId, brand] of Object.entries(analysis.brands)) {
      const no = numbers.get(brandId);
      if (no !== undefined) named.push([no, [1, brand.count, brand.position, brand.sentiment, brand.position * brand.position, brand.sentiment * brand.sentiment]]);
    }
    const mentioned = analysis.mentioned ? 1 : 0;
    // position and sentiment sums (and squares) only over responses that mention the own brand
    const position = analysis.mentioned ? (analysis.position ?? 0) : 0;
    const sentiment = analysis.mentioned ? (analysis.sentiment ?? 0) : 0;
    const main = [1, mentioned, position, sentiment, analysis.citesOwn ? 1 : 0, analysis.citations.length, position * position, sentiment * sentiment];
    const add = (t: sumsTables.SumsTable, key: unknown[]) => bump(rowsOf(t), key, main, named, t.arrays?.length ?? 0);
    const week = weekOf(answer.day);
    const month = `${answer.day.slice(0, 7)}-01`;
    const rowMarkets = totals ? [answer.market, ALL_MARKETS] : [answer.market];
    for (const provider of [answer.provider, ALL]) {
      for (const market of rowMarkets) {
        add(sumsTables.PROMPT_DAILY, [answer.promptId, provider, answer.day, market]);
        add(sumsTables.PROMPT_WEEKLY, [answer.promptId, provider, week, market]);
        add(sumsTables.PROMPT_MONTHLY, [answer.promptId, provider, month, market]);
        add(sumsTables.PROJECT_DAILY, [provider, answer.day, market]);
      }
    }
    const mask = brandMask(analysis, numbers);
    const domainsSeen = new Set<string>();
    for (const c of analysis.citations) {
      const firstInResponse = !domainsSeen.has(c.domain);
      domainsSeen.add(c.domain);
      // A domain's category can differ by host or page (docs.x.com is reference, x.com
      // corporate); the domain's rollup keeps the lowest id seen, as every read does
      // (min(category)), so one domain shows one category everywhere.
      domainCategory.set(c.domain, Math.min(domainCategory.get(c.domain) ?? c.category, c.category));
      for (const market of rowMarkets) {
        for (const provider of [answer.provider, ALL]) {
          const k = `${provider}|${answer.day}|${market}`;
          let day = domainDays.get(k);
          if (!day) domainDays.set(k, (day = { provider, day: answer.day, market, domains: new Map() }));
          const counts = day.domains.get(c.domain);
          if (!counts) day.domains.set(c.domain, [1, firstInResponse ? 1 : 0, analysis.mentioned ? 0 : 1]);
          else {
            counts[0] += 1;
            if (firstInResponse) counts[1] += 1;
            if (!analysis.mentioned) counts[2] += 1;
          }
        }
        const once = firstInResponse ? 1 : 0;
        const k = `${answer.promptId}|${answer.provider}|${month}|${c.domain}|${market}`;
        const r = promptDomains.get(k);
        if (!r) promptDomains.set(k, { key: [answer.promptId, answer.provider, month, c.domain, market], category: c.category, citations: 1, responses: once, mentioned: once & mentioned, brands: mask });
        else {
          r.category = Math.min(r.category, c.category);
          r.citations += 1;
          r.responses += once;
          r.mentioned += once & mentioned;
          r.brands |= mask;
        }
      }
    }
  }

  // the weeks and months from the batch's project day rows: the day's bit in its week (Monday = bit 0) and month (the 1st = bit 0)
  for (const day of rowsOf(sumsTables.PROJECT_DAILY).values()) {
    const [provider, date, market] = day.key as [string, string, string];
    const week = weekOf(date);
    fold(rowsOf(sumsTables.PROJECT_WEEKLY), [provider, week, market], day, 1 << ((Date.parse(date) - Date.parse(week)) / DAY_MS));
    fold(rowsOf(sumsTables.PROJECT_MONTHLY), [provider, `${date.slice(0, 7)}-01`, market], day, 1 << (Number(date.slice(8, 10)) - 1));
  }
  for (const [table, tableRows] of rows) await sumsTables.upsertSums(tx, projectId, table, [...tableRows.values()]);

  await addDomainDays(tx, projectId, [...domainDays.values()], domainCategory);
  await upsertPromptDomains(tx, projectId, [...promptDomains.values()]);
  await addThemes(tx, projectId, stored, numbers);
}

/** A row of prompt_domain_monthly; key: prompt, provider, month, domain, market. */
interface PromptDomainRow {
  key: string[];
  category: number;
  citations: number;
  responses: number;
  mentioned: number;
  brands: number;
}

/** Bit n set for each brand of number n (< 31) the answer names: the brands column of the prompt domain rollups. */
function brandMask(a: Analysis, numbers: Map<string, number>): number {
  let mask = 0;
  for (const brandId of Object.keys(a.brands)) {
    const no = numbers.get(brandId);
    if (no !== undefined && no < 31) mask |= 1 << no;
  }
  return mask;
}

async function upsertPromptDomains(tx: Tx, projectId: string, rows: PromptDomainRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `insert into prompt_domain_monthly (project_id, prompt_id, provider, month, domain, market, category, citations, responses, mentioned, brands)
     select $1, p, v, d::date, dm, mk, c, n, r, mn, b
       from unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::int[], $10::int[], $11::int[])
            as x(p, v, d, dm, mk, c, n, r, mn, b)
     on conflict (prompt_id, provider, month, domain, market) do update set
       category = least(prompt_domain_monthly.category, excluded.category),
       citations = prompt_domain_monthly.citations + excluded.citations,
       responses = prompt_domain_monthly.responses + excluded.responses,
       mentioned = prompt_domain_monthly.mentioned + excluded.mentioned,
       brands = prompt_domain_monthly.brands | excluded.brands`,
    [
      projectId,
      ...[0, 1, 2, 3, 4].map((i) => rows.map((r) => r.key[i])),
      rows.map((r) => r.category),
      rows.map((r) => r.citations),
      rows.map((r) => r.responses),
      rows.map((r) => r.mentioned),
      rows.map((r) => r.brands),
    ],
  );
}


/**
 * Empties every rollup of a project (in the caller's transaction), before its answers are
 * added again with addToRollups (a re-analysis). The domains' numbering (project_domains)
 * stays: readers name the numbers of a day row in a second statement, which is only safe
 * while a number never changes its domain.
 */
export async function emptyProjectRollups(tx: Tx, projectId: string): Promise<void> {
  const tables = [...sumsTables.SUMS_TABLES, ...sumsTables.PROJECT_BUCKETS.map((t) => t.name), 'project_domain_daily', 'prompt_domain_monthly', ...THEME_TABLES];
  for (const table of tables) await tx.query(`delete from ${table} where project_id = $1`, [projectId]);
}

/** The first day of a project's rollups (project_daily), or null: what a re-analysis would rebuild from answers. */
export async function firstRolledUpDay(tx: Pick<Tx, 'query'>, projectId: string): Promise<string | null> {
  const { rows } = await tx.query<{ day: string | null }>(`select to_char(min(day), 'YYYY-MM-DD') as day from project_daily where project_id = $1`, [projectId]);
  return rows[0]?.day ?? null;
}
