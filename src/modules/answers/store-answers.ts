import type { Analysis } from '../../analysis/types.js';
import type { ModelJudgement } from '../../analysis/model.js';
import type { ProviderAnswer } from '../../ports/providers/types.js';
import type { Tx } from '../../store/index.js';
import { answerBody, encodeAnswerBodies } from './answer-body.js';
import { brandColumns } from './answer-brands.js';
import { citedIds, pgArray } from './cited-pages.js';
import { loadBrandNumbers } from '../projects/brands.js';
import { addToRollups } from '../rollups/add-answers.js';
import { addEngineModels } from '../rollups/engine-models.js';

export interface AnalysedAnswer {
  promptId: string;
  provider: string;
  day: string;
  /** Which sample of the day (1 to the project's samples_per_run); 1 when absent. */
  sample?: number;
  /** The market asked in, `US-en` (lib/markets.ts). */
  market: string;
  answer: ProviderAnswer;
  analysis: Analysis;
  /** What the analysis model judged and `analysis` carries merged (analysis/model.ts); absent or null: the lexicon alone. */
  judgement?: ModelJudgement | null;
}

/**
 * Stores analysed answers and adds them to every rollup, in the caller's transaction.
 * An answer whose (prompt, provider, day, sample, market) is already stored is skipped, rollups included,
 * so a retried or duplicated run never double-counts. Returns the answers stored.
 */
export async function storeAnswers(tx: Tx, projectId: string, items: AnalysedAnswer[]): Promise<AnalysedAnswer[]> {
  if (items.length === 0) return [];
  // the bodies compressed on a worker thread while the cited pages are looked up; a
  // reference to one of the answer's citations names it by its place in `cited`
  const packing = encodeAnswerBodies(items.map(({ provider, answer, analysis }) => ({ ...answerBody(provider, answer), pages: analysis.citations })));
  packing.catch(() => {}); // awaited below; a failed lookup first must not leave it unhandled
  const cited = await citedIds(
    tx,
    projectId,
    items.map((i) => i.analysis),
  );
  const bodies = await packing;
  await ensureMonthPartitions(tx, items.map((i) => i.day));
  const numbers = await loadBrandNumbers(tx, projectId);
  const brands = items.map((i) => brandColumns(i.analysis.brands, numbers));
  // the bodies travel as one bytea parameter, each cut out by its place: no base64 to
  // encode here, and no text array of them for the server to parse and decode
  const bodyAt = { bytes: Buffer.concat(bodies), starts: [] as number[], lengths: bodies.map((b) => b.length) };
  for (let i = 0, at = 1; i < bodies.length; at += bodies[i].length, i++) bodyAt.starts.push(at);
  const ins = await insertResponses(
    tx,
    `insert into responses (project_id, prompt_id, provider, day, model, simulated, body, mentioned, position, sentiment,
                            brand_nos, brand_stats, cites_own, citation_count, cited, sample, sent, usage, market, model_judgement)
     select $1, p, v, d::date, m, s, substring($20::bytea from bo for bl), mn, pos, sen, bi::smallint[], bs::smallint[], co, cc, ci::int[], sa, se::jsonb, us::jsonb, mk, mj::jsonb
       from unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::bool[], $7::int[],
                   $8::bool[], $9::int[], $10::int[], $11::text[], $12::text[], $13::bool[], $14::int[], $15::text[], $16::int[],
                   $17::text[], $18::text[], $19::text[], $21::int[], $22::text[])
            as u(p, v, d, m, s, bo, mn, pos, sen, bi, bs, co, cc, ci, sa, se, us, mk, bl, mj)
     on conflict (prompt_id, provider, day, sample, market) do nothing
     returning id, prompt_id, provider, to_char(day, 'YYYY-MM-DD') as day, sample, market`,
    [
      projectId,
      items.map((i) => i.promptId),
      items.map((i) => i.provider),
      items.map((i) => i.day),
      items.map((i) => i.answer.model),
      items.map((i) => i.answer.simulated),
      bodyAt.starts,
      items.map((i) => i.analysis.mentioned),
      items.map((i) => i.analysis.position),
      items.map((i) => i.analysis.sentiment),
      brands.map((b) => b.nos),
      brands.map((b) => b.stats),
      items.map((i) => i.analysis.citesOwn),
      items.map((i) => i.analysis.citations.length),
      cited.map(pgArray),
      items.map((i) => i.sample ?? 1),
      items.map((i) => (i.answer.sent ? JSON.stringify(i.answer.sent) : null)),
      items.map((i) => (i.answer.usage ? JSON.stringify(i.answer.usage) : null)),
      items.map((i) => i.market),
      bodyAt.bytes,
      bodyAt.lengths,
      items.map((i) => (i.judgement ? JSON.stringify(i.judgement) : null)),
    ],
  );
  if (ins.rows.length === 0) return [];
  const keyOf = (promptId: string, provider: string, day: string, sample: number, market: string) => `${promptId}|${provider}|${day}|${sample}|${market}`;
  const byKey = new Map(items.map((i) => [keyOf(i.promptId, i.provider, i.day, i.sample ?? 1, i.market), i]));
  const stored: Array<AnalysedAnswer & { responseId: string }> = ins.rows.map((r) => ({
    ...byKey.get(keyOf(r.prompt_id, r.provider, r.day, r.sample, r.market))!,
    responseId: r.id,
  }));
  await addToRollups(tx, projectId, stored, numbers);
  await addEngineModels(
    tx,
    projectId,
    stored.map((answer) => ({ provider: answer.provider, day: answer.day, model: answer.answer.model })),
  );
  return stored;
}

type InsertedRow = { id: string; prompt_id: string; provider: string; day: string; sample: number; market: string };

/**
 * Runs the insert into responses. A refused insert forgets the months known to have their
 * partition (Tx.answerMonths): another process's retention job may have dropped one, and
 * the retried batch looks them up again.
 */
async function insertResponses(tx: Tx, sql: string, params: unknown[]) {
  try {
    return await tx.query<InsertedRow>(sql, params);
  } catch (err) {
    tx.answerMonths?.clear();
    throw err;
  }
}

/**
 * Makes the partition of each month of `days` that has none yet (migration 0028): an answer
 * of a month without its partition would be refused. Two first answers of a month at once
 * make it once (a lock in responses_month_partition). A month whose partition was there,
 * committed, before this statement is remembered for the store (Tx.answerMonths), and later
 * batches of it skip the lookup; one made by this transaction is not (it may roll back), and
 * the next batch remembers it. The retention job forgets the months it drops.
 */
export async function ensureMonthPartitions(tx: Tx, days: string[]): Promise<void> {
  const known = tx.answerMonths;
  const months = [...new Set(days.map((d) => `${d.slice(0, 7)}-01`))].filter((m) => !known?.has(m));
  if (months.length === 0) return;
  const { rows } = await tx.query<{ month: string; existed: boolean }>(
    `select m as month, to_regclass('responses_p' || to_char(m::date, 'YYYYMM')) is not null as existed
       from unnest($1::text[]) as m`,
    [months],
  );
  const missing = rows.filter((r) => !r.existed).map((r) => r.month);
  if (missing.length > 0) await tx.query(`select responses_month_partition(m::date) from unnest($1::text[]) as m`, [missing]);
  for (const r of rows) if (r.existed) known?.add(r.month);
}
