import type { JobInsert, PgBoss } from 'pg-boss';
import type { Logger } from '../lib/log.js';
import type { Store } from '../store/index.js';

/** pg-boss 10's schema version; 11 and later start from 25 and cannot migrate from it. */
const PG_BOSS_10_SCHEMA_VERSION = 24;

interface PendingJob {
  id: string;
  name: string;
  data: object | null;
  start_after: Date;
  singleton_key: string | null;
}

/**
 * The upgrade of a database last run with pg-boss 10 (releases before the move to Node 24).
 * pg-boss 12 refuses such a schema ("the oldest supported starting version is 25") and its
 * maintainer's advice is to install the new version beside it and move the jobs: so the old
 * schema is renamed aside before pg-boss starts, and once the new queues exist the jobs that
 * had not finished (created, retry, active) are inserted into them through pg-boss's API,
 * with their ids, payloads and start times. Then the old schema is dropped. Finished jobs
 * are not carried over: their history (GET /v1/admin/jobs/{id}) ends with the upgrade.
 *
 * Each step can be run again: a start cut off half-way finds the renamed schema and goes on
 * (inserts keep their ids, so nothing is queued twice). In server mode it runs under the
 * queue set-up lock, so by one process.
 */
export async function upgradeFromPgBoss10(store: Store, schema: string, log: Logger): Promise<{ carryOver(boss: PgBoss): Promise<void> } | null> {
  const aside = `${schema}_v10`;
  const version = async (s: string): Promise<number | null> => {
    const exists = await store.query<{ t: string | null }>('select to_regclass($1) as t', [`${s}.version`]);
    if (!exists.rows[0]?.t) return null;
    const { rows } = await store.query<{ version: number }>(`select version from ${s}.version`);
    return rows[0] ? Number(rows[0].version) : null;
  };
  if ((await version(schema)) === PG_BOSS_10_SCHEMA_VERSION) {
    if ((await version(aside)) !== null) throw new Error(`Both ${schema} and ${aside} hold a pg-boss 10 schema; drop the one that is not in use`);
    log.warn({ from: schema, to: aside }, 'job queue: pg-boss 10 schema found; setting it aside to install pg-boss 12');
    await store.query(`alter schema ${schema} rename to ${aside}`);
  }
  if ((await version(aside)) !== PG_BOSS_10_SCHEMA_VERSION) return null;
  return {
    async carryOver(boss) {
      const queues = new Set((await boss.getQueues()).map((q) => q.name));
      const { rows } = await store.query<PendingJob>(
        `select id, name, data, start_after, singleton_key from ${aside}.job where state in ('created', 'retry', 'active') order by created_on`,
      );
      const byQueue = new Map<string, JobInsert[]>();
      for (const job of rows) {
        if (!queues.has(job.name)) continue;
        const list = byQueue.get(job.name) ?? [];
        list.push({ id: job.id, data: job.data ?? {}, startAfter: new Date(job.start_after), singletonKey: job.singleton_key ?? undefined });
        byQueue.set(job.name, list);
      }
      for (const [name, jobs] of byQueue) await boss.insert(name, jobs);
      const skipped = rows.length - [...byQueue.values()].reduce((n, l) => n + l.length, 0);
      await store.query(`drop schema ${aside} cascade`);
      log.warn({ carried: rows.length - skipped, skipped }, 'job queue: unfinished pg-boss 10 jobs carried over; old schema dropped');
    },
  };
}
