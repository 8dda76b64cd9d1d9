import type { Analysis } from '../../analysis/types.js';
import type { ProviderAnswer } from '../../ports/providers/types.js';
import type { Tx } from '../../store/index.js';
import { touchAnalytics } from '../../store/analytics-version.js';
import { weekOf } from '../../lib/time.js';
import { loadBrandNumbers, OWN_BRAND_ID } from '../projects/brands.js';
import * as T from './rollup-tables.js';
import { encodeAnswerBodies } from './answer-body.js';
import { brandColumns } from './answer-brands.js';
import { citedIds, pgArray } from './cited-pages.js';
import { addDomainDays, type DomainDay, removePromptDomains } from './domain-rollup.js';
import { rebuildProjectBuckets } from './project-buckets.js';
import { addThemes, removePromptThemes } from '../themes/rollup.js';
import type { Sums, SumsRows } from './rollup-tables.js';

export interface AnalysedAnswer {
  promptId: string;
  provider: string;
  day: string;
  /** Which sample of the day (1 to the project's samples_per_run); 1 when absent. */
  sample?: number;
  answer: ProviderAnswer;
  analysis: Analysis;
}

/** The provider value of the rollup rows that sum all providers. */
export const ALL = '*';

const DAY_MS = 86_400_000;

/**
 * Per brand named, by brand number: its values in the order of the per-brand arrays
 * (T.PROJECT_BRAND_ARRAYS): responses naming it (1), times named, position, sentiment and
 * their squares. A table with fewer arrays takes the first values.
 */
type Named = Array<[no: number, values: number[]]>;

/**
 * Adds `values` (and the brands `named`, into the table's `arrays` per-brand arrays) into
 * the row of `key` (creating it), so each rollup is upserted once per batch.
 */
function bump(map: SumsRows, key: unknown[], values: Sums, named?: Named, arrays = 0): void {
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
function fold(map: SumsRows, key: unknown[], day: T.SumsRow, bit: number): void {
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

/**
 * Stores analysed answers and adds them to every rollup, in the caller's transaction.
 * An answer whose (prompt, provider, day, sample) is already stored is skipped, rollups included,
 * so a retried or duplicated run never double-counts. Returns the answers stored.
 */
export async function storeAnswers(tx: Tx, projectId: string, items: AnalysedAnswer[]): Promise<AnalysedAnswer[]> {
  if (items.length === 0) return [];
  // the bodies compressed on a worker thread while the cited pages are looked up
  const packing = encodeAnswerBodies(items.map((i) => i.answer));
  packing.catch(() => {}); // awaited below; a failed lookup first must not leave it unhandled
  const cited = await citedIds(
    tx,
    projectId,
    items.map((i) => i.analysis),
  );
  const bodies = await packing;
  const brands = items.map((i) => brandColumns(i.analysis.brands));
  const ins = await tx.query<{ id: string; prompt_id: string; provider: string; day: string; sample: number }>(
    `insert into responses (project_id, prompt_id, provider, day, model, simulated, body, mentioned, position, sentiment,
                            brand_ids, brand_stats, cites_own, citation_count, cited, sample, sent, usage)
     select $1, p, v, d::date, m, s, decode(bo, 'base64'), mn, pos, sen, bi::uuid[], bs::int[], co, cc, ci::int[], sa, se::jsonb, us::jsonb
       from unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::bool[], $7::text[],
                   $8::bool[], $9::int[], $10::int[], $11::text[], $12::text[], $13::bool[], $14::int[], $15::text[], $16::int[],
                   $17::text[], $18::text[])
            as u(p, v, d, m, s, bo, mn, pos, sen, bi, bs, co, cc, ci, sa, se, us)
     on conflict (prompt_id, provider, day, sample) do nothing
     returning id, prompt_id, provider, to_char(day, 'YYYY-MM-DD') as day, sample`,
    [
      projectId,
      items.map((i) => i.promptId),
      items.map((i) => i.provider),
      items.map((i) => i.day),
      items.map((i) => i.answer.model),
      items.map((i) => i.answer.simulated),
      bodies.map((b) => b.toString('base64')),
      items.map((i) => i.analysis.mentioned),
      items.map((i) => i.analysis.position),
      items.map((i) => i.analysis.sentiment),
      brands.map((b) => b.ids),
      brands.map((b) => b.stats),
      items.map((i) => i.analysis.citesOwn),
      items.map((i) => i.analysis.citations.length),
      cited.map(pgArray),
      items.map((i) => i.sample ?? 1),
      items.map((i) => (i.answer.sent ? JSON.stringify(i.answer.sent) : null)),
      items.map((i) => (i.answer.usage ? JSON.stringify(i.answer.usage) : null)),
    ],
  );
  if (ins.rows.length === 0) return [];
  const keyOf = (promptId: string, provider: string, day: string, sample: number) => `${promptId}|${provider}|${day}|${sample}`;
  const byKey = new Map(items.map((i) => [keyOf(i.promptId, i.provider, i.day, i.sample ?? 1), i]));
  const stored: Array<AnalysedAnswer & { responseId: string }> = ins.rows.map((r) => ({
    ...byKey.get(keyOf(r.prompt_id, r.provider, r.day, r.sample))!,
    responseId: r.id,
  }));
  await addToRollups(tx, projectId, stored);
  return stored;
}

export interface RollupInput {
  responseId: string;
  promptId: string;
  provider: string;
  day: string;
  analysis: Analysis;
}

/**
 * Adds analysed responses to every daily rollup (their citations are stored with the
 * responses themselves: responses.cited, cited-pages.ts). Each rollup key
 * is upserted once per call with the batch's sums, so a batch costs a few statements.
 */
export async function addToRollups(tx: Tx, projectId: string, stored: RollupInput[]): Promise<void> {
  if (stored.length === 0) return;

  const rows = new Map<T.SumsTable, SumsRows>([...T.SUMS_ROLLUPS, ...T.PROJECT_BUCKETS].map((t) => [t, new Map()]));
  const of = (t: T.SumsTable) => rows.get(t)!;
  const domainDays = new Map<string, DomainDay>();
  const domainCategory = new Map<string, number>();
  const promptDomains = new Map<string, PromptDomainRow>();
  const numbers = await loadBrandNumbers(tx, projectId);

  for (const s of stored) {
    const a = s.analysis;
    // a brand without a number (a competitor deleted since the analysis) has nobody to show it
    const named: Named = [];
    for (const [brandId, b] of Object.entries(a.brands)) {
      const no = numbers.get(brandId);
      if (no !== undefined) named.push([no, [1, b.count, b.position, b.sentiment, b.position * b.position, b.sentiment * b.sentiment]]);
    }
    const m = a.mentioned ? 1 : 0;
    // position and sentiment sums (and squares) only over responses that mention the own brand
    const pos = a.mentioned ? (a.position ?? 0) : 0;
    const sen = a.mentioned ? (a.sentiment ?? 0) : 0;
    const main = [1, m, pos, sen, a.citesOwn ? 1 : 0, a.citations.length, pos * pos, sen * sen];
    const add = (t: T.SumsTable, key: unknown[]) => bump(of(t), key, main, named, t.arrays?.length ?? 0);
    const week = weekOf(s.day);
    const month = `${s.day.slice(0, 7)}-01`;
    for (const provider of [s.provider, ALL]) {
      add(T.PROMPT_DAILY, [s.promptId, provider, s.day]);
      add(T.PROMPT_WEEKLY, [s.promptId, provider, week]);
      add(T.PROMPT_MONTHLY, [s.promptId, provider, month]);
      add(T.PROJECT_DAILY, [provider, s.day]);
    }
    const mask = brandMask(a, numbers);
    const domainsSeen = new Set<string>();
    for (const c of a.citations) {
      const firstInResponse = !domainsSeen.has(c.domain);
      domainsSeen.add(c.domain);
      // A domain's category can differ by host or page (docs.x.com is reference, x.com
      // corporate); the domain's rollup keeps the lowest id seen, as every read does
      // (min(category)), so one domain shows one category everywhere.
      domainCategory.set(c.domain, Math.min(domainCategory.get(c.domain) ?? c.category, c.category));
      for (const provider of [s.provider, ALL]) {
        const k = `${provider}|${s.day}`;
        let day = domainDays.get(k);
        if (!day) domainDays.set(k, (day = { provider, day: s.day, domains: new Map() }));
        const counts = day.domains.get(c.domain);
        if (!counts) day.domains.set(c.domain, [1, firstInResponse ? 1 : 0, a.mentioned ? 0 : 1]);
        else {
          counts[0] += 1;
          if (firstInResponse) counts[1] += 1;
          if (!a.mentioned) counts[2] += 1;
        }
      }
      const once = firstInResponse ? 1 : 0;
      const k = `${s.promptId}|${s.provider}|${month}|${c.domain}`;
      const r = promptDomains.get(k);
      if (!r) promptDomains.set(k, { key: [s.promptId, s.provider, month, c.domain], category: c.category, citations: 1, responses: once, mentioned: once & m, brands: mask });
      else {
        r.category = Math.min(r.category, c.category);
        r.citations += 1;
        r.responses += once;
        r.mentioned += once & m;
        r.brands |= mask;
      }
    }
  }

  // the weeks and months from the batch's project day rows: the day's bit in its week (Monday = bit 0) and month (the 1st = bit 0)
  for (const day of of(T.PROJECT_DAILY).values()) {
    const [provider, date] = day.key as [string, string];
    const week = weekOf(date);
    fold(of(T.PROJECT_WEEKLY), [provider, week], day, 1 << ((Date.parse(date) - Date.parse(week)) / DAY_MS));
    fold(of(T.PROJECT_MONTHLY), [provider, `${date.slice(0, 7)}-01`], day, 1 << (Number(date.slice(8, 10)) - 1));
  }
  for (const [table, tableRows] of rows) await T.upsertSums(tx, projectId, table, [...tableRows.values()]);

  await addDomainDays(tx, projectId, [...domainDays.values()], domainCategory);
  await upsertPromptDomains(tx, projectId, [...promptDomains.values()]);
  await addThemes(tx, projectId, stored);
}

/** A row of prompt_domain_monthly; key: prompt, provider, month, domain. */
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
    `insert into prompt_domain_monthly (project_id, prompt_id, provider, month, domain, category, citations, responses, mentioned, brands)
     select $1, p, v, d::date, dm, c, n, r, mn, b
       from unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[], $9::int[], $10::int[])
            as x(p, v, d, dm, c, n, r, mn, b)
     on conflict (prompt_id, provider, month, domain) do update set
       category = least(prompt_domain_monthly.category, excluded.category),
       citations = prompt_domain_monthly.citations + excluded.citations,
       responses = prompt_domain_monthly.responses + excluded.responses,
       mentioned = prompt_domain_monthly.mentioned + excluded.mentioned,
       brands = prompt_domain_monthly.brands | excluded.brands`,
    [
      projectId,
      ...[0, 1, 2, 3].map((i) => rows.map((r) => r.key[i])),
      rows.map((r) => r.category),
      rows.map((r) => r.citations),
      rows.map((r) => r.responses),
      rows.map((r) => r.mentioned),
      rows.map((r) => r.brands),
    ],
  );
}

export { OWN_BRAND_ID };

/**
 * Takes a prompt's answers out of the project-level rollups, in the caller's transaction,
 * before the prompt (and with it its answers and per-prompt rollups) is deleted: the
 * project's figures then never count answers of a prompt that no longer exists.
 */
export async function removePromptFromRollups(tx: Tx, projectId: string, promptId: string): Promise<void> {
  await touchAnalytics(tx, projectId); // the version row before any rollup row (read-cache.ts)
  await tx.query(
    `update project_daily d set responses = d.responses - p.responses, mentioned = d.mentioned - p.mentioned,
            position_sum = d.position_sum - p.position_sum, sentiment_sum = d.sentiment_sum - p.sentiment_sum,
            cites_own = d.cites_own - p.cites_own, citations = d.citations - p.citations,
            position_sq = d.position_sq - p.position_sq, sentiment_sq = d.sentiment_sq - p.sentiment_sq
       from prompt_daily p
      where p.prompt_id = $2 and d.project_id = $1 and d.provider = p.provider and d.day = p.day`,
    [projectId, promptId],
  );
  // The prompt's brand sums of position and sentiment are not kept per prompt (only its
  // mentions and counts are): they come from its answers, counted by brand number as
  // addToRollups counts them, for the provider rows and '*', and are taken out of the
  // project rows' per-brand arrays (negated, added with brand_sums_add).
  await tx.query(
    `with per_provider as (
       select r.provider, r.day, case when b.id = $3::uuid then 0 else c.brand_no end as no, count(*)::int as mn,
              sum(r.brand_stats[3 * b.i - 1])::int as mc, sum(r.brand_stats[3 * b.i - 2])::int as ps, sum(r.brand_stats[3 * b.i])::int as ss,
              sum(r.brand_stats[3 * b.i - 2] ^ 2)::int as pq, sum(r.brand_stats[3 * b.i] ^ 2)::int as sq
         from responses r cross join unnest(r.brand_ids) with ordinality as b(id, i)
              left join competitors c on c.id = b.id and c.project_id = r.project_id and not c.is_own_brand
        where r.prompt_id = $2 and (b.id = $3::uuid or c.id is not null) group by 1, 2, 3),
     deltas as (
       select * from per_provider
       union all
       select '${ALL}', day, no, sum(mn)::int, sum(mc)::int, sum(ps)::int, sum(ss)::int, sum(pq)::int, sum(sq)::int
         from per_provider group by day, no),
     arrays as (
       select k.provider, k.day, array_agg(-coalesce(x.mn, 0) order by g) as mn, array_agg(-coalesce(x.mc, 0) order by g) as mc,
              array_agg(-coalesce(x.ps, 0) order by g) as ps, array_agg(-coalesce(x.ss, 0) order by g) as ss,
              array_agg(-coalesce(x.pq, 0) order by g) as pq, array_agg(-coalesce(x.sq, 0) order by g) as sq
         from (select provider, day, max(no) as top from deltas group by 1, 2) k
              cross join lateral generate_series(0, k.top) as g
              left join deltas x on x.provider = k.provider and x.day = k.day and x.no = g
        group by 1, 2)
     update project_daily d set brand_mentions = brand_sums_add(d.brand_mentions, a.mn), brand_counts = brand_sums_add(d.brand_counts, a.mc),
            brand_position_sums = brand_sums_add(d.brand_position_sums, a.ps), brand_sentiment_sums = brand_sums_add(d.brand_sentiment_sums, a.ss),
            brand_position_sq = brand_sums_add(d.brand_position_sq, a.pq), brand_sentiment_sq = brand_sums_add(d.brand_sentiment_sq, a.sq)
       from arrays a
      where d.project_id = $1 and d.provider = a.provider and d.day = a.day`,
    [projectId, promptId, OWN_BRAND_ID],
  );
  await removePromptDomains(tx, projectId, promptId, ALL);
  await removePromptThemes(tx, projectId, promptId);
  await tx.query(`delete from project_daily where project_id = $1 and responses <= 0`, [projectId]);
  // the day bits of the weeks and months: a brand no longer named on a day loses its bit
  await rebuildProjectBuckets(tx, projectId);
}
