import type { ServiceContext } from '../../../context.js';
import { loadProjectWithPlan } from '../../projects/project-row.js';
import { deriveRecommendations, type Candidate } from '../recommend.js';
import { loadSignals } from '../signals.js';

const OPEN = `('suggested', 'accepted', 'in_progress')`;

/** Another attempt already finished the task: this one's writes are rolled back. */
class TaskSettled extends Error {}

/**
 * Fingerprints not to suggest again: an open action (the partial unique index forbids a
 * second), one the user ignored, and one completed inside the window (its data predates
 * the work).
 */
async function settledFingerprints(ctx: ServiceContext, projectId: string, fingerprints: string[], since: string): Promise<Set<string>> {
  const { rows } = await ctx.store.query<{ fingerprint: string }>(
    `select distinct fingerprint from actions
      where project_id = $1 and fingerprint = any($2::text[])
        and (status in ${OPEN} or status = 'ignored' or (status = 'completed' and updated_at >= $3::date))`,
    [projectId, fingerprints, since],
  );
  return new Set(rows.map((r) => r.fingerprint));
}

/**
 * One recommendation task: derive candidates from the project's data, have the writer word
 * the new ones, then insert them and complete the task in one transaction (so item_count
 * is exactly what this run created). A failure is retried; the last attempt marks the
 * task failed with the error.
 */
export async function runRecommendTask(
  ctx: ServiceContext,
  p: { projectId: string; taskId: string },
  isLastAttempt: boolean,
): Promise<{ created: number } | null> {
  const { rows: task } = await ctx.store.query<{ status: string }>(
    `select status from recommendation_tasks where id = $1 and project_id = $2`,
    [p.taskId, p.projectId],
  );
  if (task[0]?.status !== 'running') return null; // gone with its project, or finished by an earlier attempt
  try {
    const project = await loadProjectWithPlan(ctx.store, p.projectId);
    if (!project) return null;
    const signals = await loadSignals(ctx.store, project);
    const candidates = deriveRecommendations(signals);
    const settled = await settledFingerprints(ctx, p.projectId, candidates.map((c) => c.fingerprint), signals.window.from);
    const worded: Array<Candidate & { title: string; description: string }> = [];
    for (const c of candidates.filter((c) => !settled.has(c.fingerprint))) {
      const text = await ctx.ports.writer.wordRecommendation({ brand: signals.brand, category: c.category, facts: c.facts });
      worded.push({ ...c, title: text.title.slice(0, 300), description: text.description });
    }
    const created = await ctx.store.tx(async (tx) => {
      const { rows: open } = await tx.query<{ id: string; fingerprint: string }>(
        `select id, fingerprint from actions where project_id = $1 and fingerprint is not null and status in ${OPEN}`,
        [p.projectId],
      );
      const idOf = new Map(open.map((r) => [r.fingerprint, r.id]));
      let n = 0;
      for (const c of worded) {
        const dependsOn = [...new Set(c.dependsOn.flatMap((f) => (idOf.has(f) ? [idOf.get(f)!] : [])))];
        // One now() per transaction: a microsecond less per position keeps the run's
        // order (dependencies first) in the newest-first listing.
        const { rows } = await tx.query<{ id: string }>(
          `insert into actions (project_id, team_id, priority, title, description, category, effort, expected_impact_min,
                                expected_impact_max, status, targets, execution, group_name, depends_on, source, fingerprint,
                                created_at, updated_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'suggested', $10::jsonb, $11::jsonb, $12, $13::jsonb, 'recommend', $14,
                   now() - $15::int * interval '1 microsecond', now())
           on conflict do nothing returning id`,
          [
            p.projectId,
            project.team_id,
            c.priority,
            c.title,
            c.description,
            c.category,
            c.effort,
            c.expected_impact_min,
            c.expected_impact_max,
            JSON.stringify(c.targets),
            JSON.stringify(c.execution),
            c.group,
            JSON.stringify(dependsOn),
            c.fingerprint,
            n,
          ],
        );
        if (rows[0]) {
          idOf.set(c.fingerprint, rows[0].id);
          n++;
        } else {
          // a concurrent run opened the same recommendation first: later ones depend on that
          const { rows: theirs } = await tx.query<{ id: string }>(
            `select id from actions where project_id = $1 and fingerprint = $2 and status in ${OPEN}`,
            [p.projectId, c.fingerprint],
          );
          if (theirs[0]) idOf.set(c.fingerprint, theirs[0].id);
        }
      }
      const done = await tx.query(
        `update recommendation_tasks set status = 'completed', item_count = $2, error = null, updated_at = now()
          where id = $1 and status = 'running'`,
        [p.taskId, n],
      );
      if (!done.rowCount) throw new TaskSettled();
      return n;
    });
    return { created };
  } catch (err) {
    if (err instanceof TaskSettled) return null;
    if (!isLastAttempt) throw err;
    ctx.log.error({ err, task: p.taskId, project: p.projectId }, 'recommendation task failed');
    await ctx.store.query(
      `update recommendation_tasks set status = 'failed', error = $2, updated_at = now() where id = $1 and status = 'running'`,
      [p.taskId, (err as Error).message || 'Recommendation failed'],
    );
    throw err;
  }
}
