import type { RequestContext } from '../../context.js';
import { Conflict } from '../../lib/errors.js';
import type { Tx } from '../../store/index.js';
import { iso, isUniqueViolation, textKey } from '../common.js';
import { requireProject } from '../projects/service.js';

interface TopicRow {
  id: string;
  project_id: string;
  name: string;
  description: string | null;
  created_at: Date;
}

const present = (r: TopicRow) => ({
  topic_id: r.id,
  project_id: r.project_id,
  name: r.name,
  description: r.description,
  created_at: iso(r.created_at),
});

export async function listTopics(ctx: RequestContext, projectId: string) {
  await requireProject(ctx, projectId);
  const { rows } = await ctx.store.query<TopicRow>(
    `select id, project_id, name, description, created_at from topics where project_id = $1 order by created_at, id`,
    [projectId],
  );
  return rows.map(present);
}

/** Inserts a topic (no ownership check: callers have done it). Used by the API and the bootstrap. */
export async function insertTopic(tx: Tx, projectId: string, input: { name: string; description?: string | null }) {
  const { rows } = await tx.query<TopicRow>(
    `insert into topics (project_id, name, name_key, description) values ($1, $2, $3, $4)
     returning id, project_id, name, description, created_at`,
    [projectId, input.name, textKey(input.name), input.description ?? null],
  );
  return present(rows[0]);
}

export async function createTopic(ctx: RequestContext, projectId: string, input: { name: string; description?: string }) {
  await requireProject(ctx, projectId);
  try {
    return await insertTopic(ctx.store, projectId, input);
  } catch (err) {
    if (isUniqueViolation(err, 'topics_project_name_key')) {
      throw new Conflict(`A topic named "${input.name}" already exists in this project`);
    }
    throw err;
  }
}

/** True when the topic belongs to the project. */
export async function topicInProject(tx: Tx, projectId: string, topicId: string): Promise<boolean> {
  const { rows } = await tx.query(`select 1 from topics where id = $1 and project_id = $2`, [topicId, projectId]);
  return rows.length > 0;
}
