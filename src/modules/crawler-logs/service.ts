import type { Readable } from 'node:stream';
import type { RequestContext } from '../../context.js';
import { Invalid } from '../../lib/errors.js';
import type { Tx } from '../../store/index.js';
import { requireProject } from '../projects/service.js';
import { readLog } from './read-log.js';
import { currentRanges } from './ranges.js';
import { hostMatcher, LogTally, type LogCounts } from './tally.js';

/** Rows per insert statement: the aggregates of a large log are written in slices. */
const SLICE = 5_000;

export interface IngestResult extends LogCounts {
  /** True when this very file (same uncompressed bytes) was ingested before: nothing was added. */
  duplicate: boolean;
}

/**
 * Ingests one access log: streamed through the tally (only the project's host counts),
 * then, in one transaction, the file's hash recorded and its daily aggregates added. A file
 * whose hash the project already holds adds nothing (its counts are still reported).
 */
export async function ingestLog(ctx: RequestContext, projectId: string, body: Readable, gzip: boolean): Promise<IngestResult> {
  const project = await requireProject(ctx, projectId);
  const tally = new LogTally(hostMatcher(project.domain), currentRanges(ctx.config.env.CRAWLER_RANGES_DIR));
  const { sha256, bytes } = await readLog(body, gzip, ctx.config.env.CRAWLER_LOG_MAX_MB * 1048576, tally);
  if (bytes === 0) throw new Invalid('The body is empty: send an access log as text/plain or application/x-ndjson');
  const c = tally.counts;
  const duplicate = await ctx.store.tx(async (tx) => {
    const { rows } = await tx.query(
      `insert into crawler_log_files (project_id, sha256, bytes, lines, parsed, rejected, bot_hits, referrals)
       values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict do nothing returning sha256`,
      [projectId, sha256, bytes, c.lines, c.parsed, c.rejected, c.bot_hits, c.referrals],
    );
    if (rows.length === 0) return true;
    await addBotHits(tx, projectId, tally.bots);
    await addReferrals(tx, projectId, tally.referrals);
    return false;
  });
  return { ...c, duplicate };
}

async function addBotHits(tx: Tx, projectId: string, bots: Map<string, [number, number]>): Promise<void> {
  const entries = [...bots];
  for (let i = 0; i < entries.length; i += SLICE) {
    const slice = entries.slice(i, i + SLICE).map(([k, v]) => [...k.split('\t'), v[0], v[1]] as [string, string, string, number, number]);
    await tx.query(
      `insert into crawler_hits_daily (project_id, day, path, agent, hits, verified_hits)
       select $1, * from unnest($2::date[], $3::text[], $4::text[], $5::int[], $6::int[])
       on conflict (project_id, day, path, agent) do update
         set hits = crawler_hits_daily.hits + excluded.hits, verified_hits = crawler_hits_daily.verified_hits + excluded.verified_hits`,
      [projectId, slice.map((r) => r[0]), slice.map((r) => r[1]), slice.map((r) => r[2]), slice.map((r) => r[3]), slice.map((r) => r[4])],
    );
  }
}

async function addReferrals(tx: Tx, projectId: string, referrals: Map<string, number>): Promise<void> {
  const entries = [...referrals];
  for (let i = 0; i < entries.length; i += SLICE) {
    const slice = entries.slice(i, i + SLICE).map(([k, n]) => [...k.split('\t'), n] as [string, string, string, number]);
    await tx.query(
      `insert into ai_referrals_daily (project_id, day, path, engine, visits)
       select $1, * from unnest($2::date[], $3::text[], $4::text[], $5::int[])
       on conflict (project_id, day, path, engine) do update set visits = ai_referrals_daily.visits + excluded.visits`,
      [projectId, slice.map((r) => r[0]), slice.map((r) => r[1]), slice.map((r) => r[2]), slice.map((r) => r[3])],
    );
  }
}
