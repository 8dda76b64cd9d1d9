import type { Readable } from 'node:stream';
import type { RequestContext } from '../../context.js';
import { Invalid } from '../../lib/errors.js';
import { requireProject } from '../projects/service.js';
import { addBotHits, addReferrals } from '../rollups/crawler.js';
import { readLog } from './read-log.js';
import { currentRanges } from './ranges.js';
import { hostMatcher, LogTally, type LogCounts } from './tally.js';

export const EMPTY_LOG_DETAIL = 'The body is empty: send an access log as text/plain or application/x-ndjson';

export interface IngestResult extends LogCounts {
  /** True when this very file (same uncompressed bytes) was ingested before: nothing was added. */
  duplicate: boolean;
}

/**
 * Ingests one access log: streamed through the tally (only the project's host counts),
 * then, in one transaction, the file's hash recorded and its daily aggregates added. A file
 * whose hash the project already holds adds nothing (its counts are still reported).
 */
export async function ingestLog(ctx: RequestContext, projectId: string, body: Readable, gzip: boolean, opts: { allowEmpty?: boolean } = {}): Promise<IngestResult> {
  const project = await requireProject(ctx, projectId);
  const tally = new LogTally(hostMatcher(project.domain), currentRanges(ctx.config.env.CRAWLER_RANGES_DIR));
  const { sha256, bytes } = await readLog(body, gzip, ctx.config.env.CRAWLER_LOG_MAX_MB * 1048576, tally);
  if (bytes === 0) {
    if (opts.allowEmpty) return { ...tally.counts, duplicate: false };
    throw new Invalid(EMPTY_LOG_DETAIL);
  }
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
