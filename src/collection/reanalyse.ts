import type { ServiceContext } from '../context.js';
import { createModelAnalyzer, type ModelJudgement } from '../analysis/model.js';
import { touchAnalytics } from '../store/analytics-version.js';
import { reanalyseJob } from '../jobs/catalog.js';
import type { Tx } from '../store/index.js';
import { loadBrandNumbers, loadBrandSpecs } from '../modules/projects/brands.js';
import { loadProjectWithPlan } from '../modules/projects/project-row.js';
import { addToRollups, emptyProjectRollups, type RollupInput } from '../modules/rollups/add-answers.js';
import { decodeAnswerBody, encodeAnswerBody, type PageText } from '../modules/answers/answer-body.js';
import { brandColumns } from '../modules/answers/answer-brands.js';
import { citedIds, citedPagesById, pagesOf, pgArray, readAnswerBodies } from '../modules/answers/cited-pages.js';
import { refuseReanalysisPastRetention } from '../modules/answers/retention.js';

const BATCH = 1000;

/**
 * Analyses every stored answer of a project again with its current brands and rebuilds
 * its rollups, in one transaction (analytics see the old figures or the new, never half).
 * Run when the tracked brands change (competitors added, renamed, removed). Refused (a
 * Conflict) when the project has figures of months past RETENTION_MONTHS: their answers are
 * gone and the rebuild would empty them (docs/retention.md).
 */
export async function reanalyseProject(ctx: ServiceContext, projectId: string): Promise<number> {
  const judged = await judgeNewBrands(ctx, projectId);
  return ctx.store.tx(async (tx) => {
    const project = await loadProjectWithPlan(tx, projectId);
    if (!project) return 0;
    await tx.query(`select id from projects where id = $1 for update`, [projectId]);
    await refuseReanalysisPastRetention(ctx, tx, projectId);
    await touchAnalytics(tx, projectId); // the version row before any rollup row (read-cache.ts)
    // No model call inside the transaction: the judgements asked for above, else those stored.
    const analyse = createModelAnalyzer(await loadBrandSpecs(tx, project), null);
    await emptyProjectRollups(tx, projectId);
    const numbers = await loadBrandNumbers(tx, projectId);
    let after = '00000000-0000-0000-0000-000000000000';
    let total = 0;
    for (;;) {
      const { rows } = await tx.query<AnswerRow & { prompt_id: string; provider: string; day: string; market: string }>(
        `select id, prompt_id, provider, to_char(day, 'YYYY-MM-DD') as day, market, body, cited, model_judgement
           from responses where project_id = $1 and id > $2 order by id limit ${BATCH}`,
        [projectId, after],
      );
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      // The bodies name their references' pages by their place in `cited` (answers/answer-body.ts):
      // read with the pages they were stored with, and stored again where the new citations differ.
      const pages = await citedPagesById(tx, rows.flatMap((r) => r.cited));
      const batch: Array<RollupInput & { judgement: ModelJudgement | null; body: Buffer | null }> = [];
      for (const r of rows) {
        const stored = pagesOf(r.cited, pages);
        const answer = decodeAnswerBody(r.body, stored, r.provider);
        const { analysis, judgement } = await analyse(answer.text, answer.references, judged.get(r.id) ?? r.model_judgement);
        const body = samePages(stored, analysis.citations) ? null : encodeAnswerBody(answer, analysis.citations);
        batch.push({ responseId: r.id, promptId: r.prompt_id, provider: r.provider, day: r.day, market: r.market, analysis, judgement, body });
      }
      // The categories and page types depend on the brands tracked: a citation whose page
      // changed gets a new cited_pages row; the rows no answer cites any more go below.
      await updateAnalyses(tx, batch, await citedIds(tx, projectId, batch.map((b) => b.analysis)), numbers);
      await addToRollups(tx, projectId, batch, numbers);
      total += rows.length;
    }
    // not exists (a hash anti-join, which spills to disk past work_mem), not `not in`: a
    // year's hundred thousand ids past work_mem make `not in` a scan of the list per page
    await tx.query(
      `with cited as (select distinct unnest(cited) as id from responses where project_id = $1)
       delete from cited_pages p where p.project_id = $1 and not exists (select 1 from cited c where c.id = p.id)`,
      [projectId],
    );
    return total;
  });
}

interface AnswerRow {
  id: string;
  body: Uint8Array;
  cited: number[];
  model_judgement: ModelJudgement | null;
}

/** Whether an answer's new citations are its stored pages, URL and title, in the same order. */
const samePages = (stored: readonly PageText[], citations: readonly PageText[]) =>
  stored.length === citations.length && stored.every((p, i) => p.url === citations[i].url && p.title === citations[i].title);

/**
 * Before the rebuild's transaction (a model call must not hold it open): asks the analysis
 * model about the brands it has not judged in the answers it judged before (a competitor added
 * or renamed since), a page of answers at a time, and returns the judgements that changed by
 * answer id. Answers the lexicon alone read stay so: a re-analysis never buys a model's reading
 * of the project's history (src/analysis/README.md, "Model-based analysis").
 */
async function judgeNewBrands(ctx: ServiceContext, projectId: string): Promise<Map<string, ModelJudgement>> {
  const judged = new Map<string, ModelJudgement>();
  const model = ctx.ports.analysisModel;
  if (!model) return judged;
  const project = await loadProjectWithPlan(ctx.store, projectId);
  if (!project) return judged;
  let failures = 0;
  const analyse = createModelAnalyzer(await loadBrandSpecs(ctx.store, project), model, {
    onFailure: (reason) => {
      if (failures++ < 10) ctx.log.warn({ project: projectId, reason }, 'analysis model failed in a re-analysis: the stored judgement stands');
    },
  });
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await ctx.store.query<AnswerRow>(
      `select id, body, cited, model_judgement from responses
        where project_id = $1 and model_judgement is not null and id > $2 order by id limit ${BATCH}`,
      [projectId, after],
    );
    if (rows.length === 0) return judged;
    after = rows[rows.length - 1].id;
    const bodies = await readAnswerBodies(ctx.store, rows);
    await Promise.all(
      rows.map(async (r, i) => {
        const { text, references } = bodies[i];
        const { judgement } = await analyse(text, references, r.model_judgement);
        if (judgement && Object.keys(judgement.bands).length > Object.keys(r.model_judgement?.bands ?? {}).length) judged.set(r.id, judgement);
      }),
    );
  }
}

/** Writes the new analyses; `body`: the body stored again (its citations changed), null to keep it. */
async function updateAnalyses(
  tx: Tx,
  batch: Array<RollupInput & { judgement: ModelJudgement | null; body: Buffer | null }>,
  cited: number[][],
  numbers: Map<string, number>,
): Promise<void> {
  const brands = batch.map((b) => brandColumns(b.analysis.brands, numbers));
  await tx.query(
    `update responses r set mentioned = u.mn, position = u.pos, sentiment = u.sen, brand_nos = u.bi::smallint[], brand_stats = u.bs::smallint[],
            cites_own = u.co, citation_count = u.cc, cited = u.ci::int[], model_judgement = u.mj::jsonb,
            body = coalesce(decode(u.b, 'base64'), r.body)
       from unnest($1::uuid[], $2::bool[], $3::int[], $4::int[], $5::text[], $6::text[], $7::bool[], $8::int[], $9::text[], $10::text[], $11::text[])
            as u(id, mn, pos, sen, bi, bs, co, cc, ci, mj, b)
      where r.id = u.id`,
    [
      batch.map((b) => b.responseId),
      batch.map((b) => b.analysis.mentioned),
      batch.map((b) => b.analysis.position),
      batch.map((b) => b.analysis.sentiment),
      ...(['nos', 'stats'] as const).map((k) => brands.map((b) => b[k])),
      batch.map((b) => b.analysis.citesOwn),
      batch.map((b) => b.analysis.citations.length),
      cited.map(pgArray),
      batch.map((b) => (b.judgement ? JSON.stringify(b.judgement) : null)),
      batch.map((b) => b.body?.toString('base64') ?? null),
    ],
  );
}

/**
 * Sends a re-analysis for every project listed in rollup_rebuilds (projects whose rollups
 * a migration could not split by market: migration 0027), and empties the list in the same
 * transaction, so each is sent once however many processes start at once.
 */
export async function sendPendingRollupRebuilds(ctx: ServiceContext): Promise<number> {
  return ctx.store.tx(async (tx) => {
    const { rows } = await tx.query<{ project_id: string }>(`delete from rollup_rebuilds returning project_id`);
    for (const row of rows) await ctx.jobs.send(reanalyseJob, { projectId: row.project_id }, { tx, singletonKey: row.project_id });
    return rows.length;
  });
}
