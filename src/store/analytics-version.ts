import type { Tx } from './types.js';

// A counter per project (table analytics_versions), raised by triggers in every
// transaction that changes what the project's analytics show (migration 0005). Cached
// analytics responses are valid for one version (src/http/read-cache.ts).

/** The analytics version of a project: 0 until its first change. */
export async function analyticsVersion(tx: Tx, projectId: string): Promise<number> {
  const { rows } = await tx.query<{ version: string }>(`select version from analytics_versions where project_id = $1`, [projectId]);
  return rows[0] ? Number(rows[0].version) : 0;
}

/**
 * The first two locks of a write to a project, in the order every writer takes them
 * (docs/architecture.md, "Lock order"): the project row shared, then its analytics version
 * raised. A writer that then locks a team, a topic or rollup rows cannot deadlock with one
 * storing answers, which takes the same two first.
 */
export async function beginProjectWrite(tx: Tx, projectId: string): Promise<void> {
  await tx.query(`select id from projects where id = $1 for key share`, [projectId]);
  await touchAnalytics(tx, projectId);
}

/**
 * Raises a project's analytics version now, in the caller's transaction. The triggers do
 * it too; a transaction that takes rollup rows before changing an answer or a prompt
 * calls this first, so every writer locks the version row before the rollups (no deadlock).
 */
export async function touchAnalytics(tx: Tx, projectId: string): Promise<void> {
  await tx.query(
    `insert into analytics_versions (project_id, version) values ($1, 1)
     on conflict (project_id) do update set version = analytics_versions.version + 1`,
    [projectId],
  );
}
