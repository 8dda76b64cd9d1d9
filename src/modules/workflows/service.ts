import type { RequestContext } from '../../context.js';
import { emitEvent, hasSubscriber } from '../webhooks/events.js';
import { Conflict, Invalid, NotFound } from '../../lib/errors.js';
import type { Tx } from '../../store/index.js';
import { workflowStepJob } from '../../jobs/catalog.js';
import { latestWorkflow, nextStep, STEPS, stepText, type Step, type WorkflowRow } from './state.js';
import { isUniqueViolation, iso } from '../common.js';
import { requireProject } from '../projects/service.js';

const EXECUTABLE = ['suggested', 'accepted', 'in_progress'];

interface ActionRow {
  id: string;
  status: string;
  execution: { type?: string } | null;
}

async function loadAction(tx: Tx, projectId: string, actionId: string): Promise<ActionRow> {
  const { rows } = await tx.query<ActionRow>(`select id, status, execution from actions where id = $1 and project_id = $2`, [
    actionId,
    projectId,
  ]);
  if (!rows[0]) throw new NotFound('Action not found');
  return rows[0];
}

export function presentWorkflow(w: WorkflowRow) {
  const shown: Step | null = w.checkpoint ?? (w.status === 'completed' ? 'final' : null);
  return {
    workflow_id: w.id,
    status: w.status,
    checkpoint: w.checkpoint,
    content: shown ? stepText(w, shown) : null,
    result: w.result,
    error: w.error,
    created_at: iso(w.created_at),
    updated_at: iso(w.updated_at),
  };
}

/**
 * Starts the article workflow of a `publishable_content` action (docs/decisions.md): the action
 * moves to in_progress and the outline is written in the background.
 */
export async function executeAction(ctx: RequestContext, projectId: string, actionId: string) {
  await requireProject(ctx, projectId);
  return ctx.store.tx(async (tx) => {
    const action = await loadAction(tx, projectId, actionId);
    if (action.execution?.type !== 'publishable_content') {
      throw new Invalid(
        `Action ${actionId} cannot be executed: only actions with execution.type publishable_content have a workflow (this one is ${action.execution?.type ?? 'unset'})`,
      );
    }
    if (!EXECUTABLE.includes(action.status)) {
      throw new Invalid(`Action ${actionId} cannot be executed: it is ${action.status}`);
    }
    if (!(await hasSubscriber(tx, ctx.auth.teamId, 'action.checkpoint'))) {
      throw new Invalid('Register an active webhook subscribed to action.checkpoint first: approval requests are delivered through it');
    }
    const open = await tx.query(`select 1 from workflows where action_id = $1 and status in ('running', 'awaiting_approval')`, [actionId]);
    if (open.rows.length) throw new Conflict(`A workflow is already running for action ${actionId}`);
    let workflowId: string;
    try {
      const { rows } = await tx.query<{ id: string }>(
        `insert into workflows (action_id, project_id, team_id, status, step, version) values ($1, $2, $3, 'running', 'outline', 1) returning id`,
        [actionId, projectId, ctx.auth.teamId],
      );
      workflowId = rows[0].id;
    } catch (err) {
      if (isUniqueViolation(err, 'workflows_one_open_per_action')) {
        throw new Conflict(`A workflow is already running for action ${actionId}`);
      }
      throw err;
    }
    await tx.query(`update actions set status = 'in_progress', updated_at = now() where id = $1 and status = any($2::text[])`, [
      actionId,
      EXECUTABLE,
    ]);
    await ctx.jobs.send(workflowStepJob, { workflowId, version: 1 }, { tx });
    return { workflow_id: workflowId, status: 'running' as const };
  });
}

export async function getWorkflow(ctx: RequestContext, projectId: string, actionId: string) {
  await requireProject(ctx, projectId);
  await loadAction(ctx.store, projectId, actionId);
  const w = await latestWorkflow(ctx.store, actionId);
  if (!w) throw new NotFound(`Action ${actionId} has no workflow`);
  return presentWorkflow(w);
}

export interface RespondInput {
  workflow_id: string;
  checkpoint: Step;
  action: 'approve' | 'edit' | 'regenerate' | 'reject';
  content?: string;
  feedback?: string;
}

/** A reviewer's answer to the checkpoint that waits (docs/decisions.md). */
export async function respond(ctx: RequestContext, projectId: string, actionId: string, input: RespondInput) {
  await requireProject(ctx, projectId);
  if (input.action === 'edit' && !input.content?.trim()) throw new Invalid('content is required to edit a checkpoint');
  return ctx.store.tx(async (tx) => {
    await loadAction(tx, projectId, actionId);
    const { rows } = await tx.query<WorkflowRow>(`select * from workflows where id = $1 and action_id = $2 for update`, [
      input.workflow_id,
      actionId,
    ]);
    const w = rows[0];
    if (!w) throw new NotFound('Workflow not found for this action');
    if (w.status !== 'awaiting_approval' || w.checkpoint !== input.checkpoint) {
      const now = w.status === 'awaiting_approval' ? `waiting at the ${w.checkpoint} checkpoint` : w.status;
      throw new Conflict(`Workflow ${w.id} is not waiting at the ${input.checkpoint} checkpoint (it is ${now})`);
    }
    const step = w.checkpoint as Step;
    if (!STEPS.includes(step)) throw new Conflict('Workflow is in an unknown step');
    const content = input.action === 'edit' ? input.content!.trim() : stepText(w, step);
    const event = { action_id: actionId, workflow_id: w.id };

    if (input.action === 'reject') {
      const reason = `Rejected at the ${step} checkpoint${input.feedback ? `: ${input.feedback}` : ''}`;
      await tx.query(
        `update workflows set status = 'rejected', checkpoint = null, error = $2, version = version + 1, updated_at = now() where id = $1`,
        [w.id, reason],
      );
      await emitEvent(ctx, tx, ctx.auth.teamId, 'action.failed', { ...event, error: reason });
    } else if (input.action === 'regenerate') {
      await tx.query(
        `update workflows set status = 'running', checkpoint = null, feedback = $2, version = version + 1, updated_at = now() where id = $1`,
        [w.id, input.feedback ?? null],
      );
      await ctx.jobs.send(workflowStepJob, { workflowId: w.id, version: w.version + 1 }, { tx });
    } else {
      const next = nextStep(step);
      if (next) {
        await tx.query(
          `update workflows set status = 'running', step = $2, checkpoint = null, ${step} = $3, version = version + 1, updated_at = now()
            where id = $1`,
          [w.id, next, content],
        );
        await ctx.jobs.send(workflowStepJob, { workflowId: w.id, version: w.version + 1 }, { tx });
      } else {
        const result = { title: w.title ?? 'Untitled', content: content ?? '' };
        await tx.query(
          `update workflows set status = 'completed', checkpoint = null, final = $2, result = $3::jsonb, version = version + 1,
                  updated_at = now() where id = $1`,
          [w.id, result.content, JSON.stringify(result)],
        );
        await tx.query(`update actions set status = 'completed', updated_at = now() where id = $1 and status = 'in_progress'`, [actionId]);
        await emitEvent(ctx, tx, ctx.auth.teamId, 'action.completed', { ...event, result });
      }
    }
    const after = await latestWorkflow(tx, actionId);
    return presentWorkflow(after!);
  });
}
