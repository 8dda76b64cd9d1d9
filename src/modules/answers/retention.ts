import type { ServiceContext } from '../../context.js';
import { Conflict } from '../../lib/errors.js';
import type { Tx } from '../../store/index.js';
import { firstRolledUpDay } from '../rollups/add-answers.js';

/**
 * The first day whose answers are kept under RETENTION_MONTHS (docs/retention.md): the 1st
 * of the month `months` months before today's, so the months kept are whole. Null when the
 * retention is off (every answer kept).
 */
export function firstRetainedDay(months: number, now: Date): string | null {
  if (months <= 0) return null;
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1));
  return first.toISOString().slice(0, 10);
}

/** The first retained day when a window starting on `from` reaches before it (its answers gone), else null. */
export function windowPastRetention(ctx: Pick<ServiceContext, 'config' | 'clock'>, from: string): string | null {
  const first = firstRetainedDay(ctx.config.retentionMonths, ctx.clock.now());
  return first !== null && from < first ? first : null;
}

/** The month partitions of responses (migration 0028), each with the 1st of its month. */
export async function answerMonths(db: Pick<Tx, 'query'>): Promise<Array<{ name: string; month: string }>> {
  const { rows } = await db.query<{ name: string }>(
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'responses'::regclass order by 1`,
  );
  return rows
    .filter((r) => /^responses_p\d{6}$/.test(r.name))
    .map((r) => ({ name: r.name, month: `${r.name.slice(11, 15)}-${r.name.slice(15, 17)}-01` }));
}

/**
 * The daily retention job: drops the partition of every month wholly before the first
 * retained day (DROP TABLE: no row by row delete, nothing left to vacuum). The rollups are
 * not touched, so every figure of every window stays as it was. Returns the months dropped.
 */
export async function dropPastRetention(ctx: Pick<ServiceContext, 'config' | 'clock' | 'store' | 'log'>): Promise<string[]> {
  const first = firstRetainedDay(ctx.config.retentionMonths, ctx.clock.now());
  if (first === null) return [];
  const dropped: string[] = [];
  for (const { name, month } of await answerMonths(ctx.store)) {
    if (month >= first) continue;
    // one month per transaction: the lock on responses that DROP takes is held briefly
    await ctx.store.tx(async (tx) => {
      // a DROP fires no trigger: the versions of the projects it held are raised here, so
      // that no cached read of their answers outlives them (src/http/read-cache.ts)
      await tx.query(
        `insert into analytics_versions (project_id, version)
         select distinct r.project_id, 1 from ${name} r join projects p on p.id = r.project_id
         on conflict (project_id) do update set version = analytics_versions.version + 1`,
      );
      await tx.query(`drop table ${name}`);
    });
    // this process's writers look the month up again from now on (Tx.answerMonths)
    ctx.store.answerMonths?.delete(month);
    dropped.push(month.slice(0, 7));
  }
  if (dropped.length) ctx.log.info({ months: dropped, firstRetainedDay: first }, 'answers past the retention dropped');
  return dropped;
}

/**
 * Refuses a re-analysis that could not rebuild the project's figures: it rebuilds the
 * rollups from the answers, and the answers of a month before the first retained day are
 * gone (or about to be), so rebuilding would empty those months. docs/retention.md.
 */
export async function refuseReanalysisPastRetention(ctx: Pick<ServiceContext, 'config' | 'clock'>, db: Pick<Tx, 'query'>, projectId: string): Promise<void> {
  const first = firstRetainedDay(ctx.config.retentionMonths, ctx.clock.now());
  if (first === null) return;
  const firstFigure = await firstRolledUpDay(db, projectId);
  if (firstFigure !== null && firstFigure < first) {
    throw new Conflict(
      `The project has figures before ${first}, whose answers are past RETENTION_MONTHS: a re-analysis would lose them, so it is not run (docs/retention.md)`,
    );
  }
}
