import type { RequestContext } from '../../context.js';
import { Conflict, Invalid, NotFound } from '../../lib/errors.js';
import type { Tx } from '../../store/index.js';
import { beginProjectWrite } from '../../store/analytics-version.js';
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

async function loadTopic(tx: Tx, projectId: string, topicId: string): Promise<TopicRow> {
  const { rows } = await tx.query<TopicRow>(
    `select id, project_id, name, description, created_at from topics where id = $1 and project_id = $2`,
    [topicId, projectId],
  );
  if (!rows[0]) throw new NotFound('Topic not found');
  return rows[0];
}

/** Renames a topic or changes its description (extension); 400 when nothing changes, 409 on a taken name. */
export async function updateTopic(ctx: RequestContext, projectId: string, topicId: string, input: { name?: string; description?: string | null }) {
  if (Object.keys(input).length === 0) throw new Invalid('Request body must change at least one field');
  await requireProject(ctx, projectId);
  try {
    return await ctx.store.tx(async (tx) => {
      const current = await loadTopic(tx, projectId, topicId);
      const name = input.name ?? current.name;
      const description = input.description === undefined ? current.description : input.description || null;
      if (name === current.name && description === current.description) {
        throw new Invalid('No field changed: the topic already has these values');
      }
      const { rows } = await tx.query<TopicRow>(
        `update topics set name = $3, name_key = $4, description = $5 where id = $1 and project_id = $2
         returning id, project_id, name, description, created_at`,
        [topicId, projectId, name, textKey(name), description],
      );
      return present(rows[0]);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'topics_project_name_key')) throw new Conflict(`A topic named "${input.name}" already exists in this project`);
    throw err;
  }
}

/**
 * Deletes a topic (extension). A topic that still holds prompts is kept (409) unless
 * `move_to` names another topic of the project, which takes them in the same transaction.
 */
export async function deleteTopic(ctx: RequestContext, projectId: string, topicId: string, moveTo?: string) {
  await requireProject(ctx, projectId);
  return ctx.store.tx(async (tx) => {
    await loadTopic(tx, projectId, topicId);
    if (moveTo === topicId) throw new Invalid('move_to must name another topic than the one deleted');
    if (moveTo && !(await topicInProject(tx, projectId, moveTo))) throw new NotFound('move_to topic not found in this project');
    // Lock the topic's prompts so none is added to it between the count and the delete
    // (after the project's first locks, as a prompt added takes them: docs/architecture.md)
    await beginProjectWrite(tx, projectId);
    await tx.query(`select id from topics where id = $1 for update`, [topicId]);
    const { rows } = await tx.query<{ n: number }>(`select count(*)::int as n from prompts where topic_id = $1`, [topicId]);
    const held = rows[0].n;
    if (held > 0 && !moveTo) {
      throw new Conflict(`Topic holds ${held} prompt${held === 1 ? '' : 's'}: give move_to=<topic_id> to move them to another topic, or delete them first`);
    }
    if (held > 0) await tx.query(`update prompts set topic_id = $2 where topic_id = $1`, [topicId, moveTo]);
    await tx.query(`delete from topics where id = $1 and project_id = $2`, [topicId, projectId]);
    return { topicId, message: 'Topic deleted', moved_prompts: held };
  });
}
