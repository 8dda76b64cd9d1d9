import type { RequestContext } from '../../context.js';
import { AppError, Conflict, Invalid, NotFound } from '../../lib/errors.js';
import type { Tx } from '../../store/index.js';
import { iso, isUniqueViolation } from '../common.js';
import { requireProject } from '../projects/service.js';
import { recommendJob } from '../../jobs/catalog.js';
import { projectFacts } from './enrich-facts.js';
import type { ActionStatus, CreateActionInput, EnrichActionBodyInput, Operation, TransitionInput } from './schema.js';

export interface ActionRow {
  id: string;
  project_id: string;
  priority: string;
  title: string;
  description: string;
  category: string;
  effort: string | null;
  expected_impact_min: number | null;
  expected_impact_max: number | null;
  status: string;
  targets: Array<{ type: string; value: string }>;
  execution: { type: string; prompt?: string | null; skill?: string | null; params?: Record<string, unknown> | null };
  group_name: string | null;
  depends_on: string[];
  created_at: Date;
  updated_at: Date;
}

export const ACTION_COLUMNS = `id, project_id, priority, title, description, category, effort, expected_impact_min,
  expected_impact_max, status, targets, execution, group_name, depends_on, created_at, updated_at`;

/** The spec's status table (section 3): each operation moves exactly one state to another. */
export const TRANSITIONS: Record<Operation, { from: ActionStatus; to: ActionStatus }> = {
  accept: { from: 'suggested', to: 'accepted' },
  start: { from: 'accepted', to: 'in_progress' },
  complete: { from: 'in_progress', to: 'completed' },
  ignore: { from: 'suggested', to: 'ignored' },
  reopen: { from: 'ignored', to: 'accepted' },
};

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function presentAction(r: ActionRow) {
  return {
    id: r.id,
    priority: r.priority as 'high',
    title: r.title,
    description: r.description,
    category: r.category as 'new_content',
    effort: r.effort as 'moderate' | null,
    expected_impact_min: r.expected_impact_min,
    expected_impact_max: r.expected_impact_max,
    status: r.status as ActionStatus,
    targets: (r.targets ?? []) as Array<{ type: 'url'; value: string }>,
    execution: {
      type: r.execution.type as 'manual',
      prompt: r.execution.prompt ?? null,
      skill: r.execution.skill ?? null,
      params: r.execution.params ?? null,
    },
    group: r.group_name,
    depends_on: r.depends_on ?? [],
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

export async function listActions(ctx: RequestContext, projectId: string, q: { status?: ActionStatus; group?: string }) {
  await requireProject(ctx, projectId);
  const { rows } = await ctx.store.query<ActionRow>(
    `select ${ACTION_COLUMNS} from actions
      where project_id = $1 and ($2::text is null or status = $2) and ($3::text is null or group_name = $3)
      order by created_at desc, id desc`,
    [projectId, q.status ?? null, q.group ?? null],
  );
  return rows.map(presentAction);
}

async function loadAction(tx: Tx, projectId: string, actionId: string): Promise<ActionRow> {
  const { rows } = await tx.query<ActionRow>(`select ${ACTION_COLUMNS} from actions where id = $1 and project_id = $2`, [
    actionId,
    projectId,
  ]);
  if (!rows[0]) throw new NotFound('Action not found');
  return rows[0];
}

export async function getAction(ctx: RequestContext, projectId: string, actionId: string) {
  await requireProject(ctx, projectId);
  return presentAction(await loadAction(ctx.store, projectId, actionId));
}

export async function createAction(ctx: RequestContext, projectId: string, input: CreateActionInput) {
  await requireProject(ctx, projectId);
  const e = input.execution;
  const execution = { type: e.type, prompt: e.prompt ?? null, skill: e.skill ?? null, params: e.params ?? null };
  const { rows } = await ctx.store.query<ActionRow>(
    `insert into actions (project_id, team_id, priority, title, description, category, effort, expected_impact_min,
                          expected_impact_max, status, targets, execution, group_name, source)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'suggested', $10::jsonb, $11::jsonb, $12, 'manual')
     returning ${ACTION_COLUMNS}`,
    [
      projectId,
      ctx.auth.teamId,
      input.priority,
      input.title,
      input.description,
      input.category,
      input.effort ?? null,
      input.expected_impact_min ?? null,
      input.expected_impact_max ?? null,
      JSON.stringify(input.targets ?? []),
      JSON.stringify(execution),
      input.group ?? null,
    ],
  );
  return presentAction(rows[0]);
}

/**
 * One guarded move: the update names the state it leaves, so of two concurrent moves of
 * one action exactly one changes the row; the other finds the new state and is a 400.
 */
async function moveAction(tx: Tx, projectId: string, actionId: string, op: Operation, body: TransitionInput): Promise<ActionRow> {
  const { from, to } = TRANSITIONS[op];
  let rows: ActionRow[];
  try {
    ({ rows } = await tx.query<ActionRow>(
      `update actions set status = $4, updated_at = now(),
              ignore_reason = case when $4 = 'ignored' then $5 else ignore_reason end,
              ignore_feedback = case when $4 = 'ignored' then $6 else ignore_feedback end
        where id = $1 and project_id = $2 and status = $3
        returning ${ACTION_COLUMNS}`,
      [actionId, projectId, from, to, body?.reason ?? null, body?.feedback ?? null],
    ));
  } catch (err) {
    // reopen of an ignored recommendation whose subject got a new open action since
    if (isUniqueViolation(err, 'actions_open_fingerprint_key')) {
      throw new Conflict(`Cannot ${op} action ${actionId}: another open action already covers the same recommendation`);
    }
    throw err;
  }
  if (rows[0]) return rows[0];
  const current = await loadAction(tx, projectId, actionId);
  throw new Invalid(`Cannot ${op} action ${actionId}: it is ${current.status}; ${op} applies only to a ${from} action`);
}

export async function transitionAction(ctx: RequestContext, projectId: string, actionId: string, op: Operation, body: TransitionInput) {
  if (op !== 'ignore' && body && (body.reason !== undefined || body.feedback !== undefined)) {
    throw new Invalid('reason and feedback apply only to ignore');
  }
  await requireProject(ctx, projectId);
  return presentAction(await moveAction(ctx.store, projectId, actionId, op, body));
}

/** docs/decisions.md: each id on its own; unknown ids and invalid moves count as failed. */
export async function batchTransition(ctx: RequestContext, projectId: string, input: { ids: string[]; action: Operation }) {
  await requireProject(ctx, projectId);
  let succeeded = 0;
  for (const id of input.ids) {
    if (!UUID_RE.test(id)) continue;
    try {
      await moveAction(ctx.store, projectId, id, input.action, undefined);
      succeeded++;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  }
  return { succeeded, failed: input.ids.length - succeeded, total: input.ids.length };
}

/** Opens a recommendation task and enqueues its job in the same transaction. */
export async function startRecommendation(ctx: RequestContext, projectId: string) {
  await requireProject(ctx, projectId);
  return ctx.store.tx(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `insert into recommendation_tasks (project_id, status) values ($1, 'running') returning id`,
      [projectId],
    );
    await ctx.jobs.send(recommendJob, { projectId, taskId: rows[0].id }, { tx });
    return { task_id: rows[0].id };
  });
}

export async function getTask(ctx: RequestContext, projectId: string, taskId: string) {
  await requireProject(ctx, projectId);
  const { rows } = await ctx.store.query<{ status: 'running'; item_count: number; error: string | null }>(
    `select status, item_count, error from recommendation_tasks where id = $1 and project_id = $2`,
    [taskId, projectId],
  );
  if (!rows[0]) throw new NotFound('Recommendation task not found');
  return rows[0];
}

/** The writer's fields for a described action, grounded in what the project's data says. */
export async function enrichAction(ctx: RequestContext, projectId: string, input: EnrichActionBodyInput) {
  const project = await requireProject(ctx, projectId);
  const { brand, facts } = await projectFacts(ctx.store, project, input);
  return ctx.ports.writer.enrichAction({ brand, ...input, facts });
}
