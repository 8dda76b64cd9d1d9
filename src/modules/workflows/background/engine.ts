import type { ServiceContext } from '../../../context.js';
import { emitEvent } from '../../webhooks/events.js';
import type { ArticleBrief } from '../../../ports/writer/types.js';
import { CHECKPOINT_OPTIONS, loadWorkflow, type Step, type WorkflowRow } from '../state.js';


/** The brief of the article an action asks for: from the action and its project. */
async function briefOf(ctx: ServiceContext, w: WorkflowRow): Promise<ArticleBrief> {
  const { rows } = await ctx.store.query<{ title: string; description: string; targets: Array<{ type: string; value: string }>; brand: string; domain: string | null }>(
    `select a.title, a.description, a.targets, coalesce(p.brand_name, p.name) as brand, p.domain
       from actions a join projects p on p.id = a.project_id where a.id = $1`,
    [w.action_id],
  );
  const a = rows[0];
  return {
    brand: { name: a.brand, domain: a.domain },
    title: a.title,
    description: a.description,
    keywords: (a.targets ?? []).filter((t) => t.type === 'keyword').map((t) => t.value),
    feedback: w.feedback,
  };
}

async function write(ctx: ServiceContext, w: WorkflowRow, step: Step): Promise<{ text: string; title?: string }> {
  const brief = await briefOf(ctx, w);
  const writer = ctx.ports.writer;
  if (step === 'outline') return { text: await writer.writeOutline(brief) };
  if (step === 'draft') return { text: await writer.writeDraft({ ...brief, outline: w.outline ?? '' }) };
  const final = await writer.writeFinal({ ...brief, draft: w.draft ?? '' });
  return { text: final.content, title: final.title };
}

/**
 * Writes the workflow's current step and pauses it at that step's checkpoint, announcing
 * it to the team's webhooks in the same transaction. A job queued for an older version of
 * the workflow (a reply moved it on meanwhile) does nothing.
 */
export async function runStep(ctx: ServiceContext, workflowId: string, version: number, isLastAttempt: boolean): Promise<void> {
  const w = await loadWorkflow(ctx.store, workflowId);
  if (w?.status !== 'running' || w.version !== version) return;
  const step = w.step;
  let written: { text: string; title?: string };
  try {
    written = await write(ctx, w, step);
  } catch (err) {
    if (!isLastAttempt) throw err;
    await fail(ctx, w, `Writing the ${step} failed: ${(err as Error).message}`);
    return;
  }
  await ctx.store.tx(async (tx) => {
    const moved = await tx.query(
      `update workflows set status = 'awaiting_approval', checkpoint = $3, ${step} = $4,
              title = coalesce($5, title), feedback = null, version = version + 1, writer = $6, updated_at = now()
        where id = $1 and version = $2 and status = 'running'`,
      [w.id, version, step, written.text, written.title ?? null, ctx.ports.writer.name],
    );
    if (!moved.rowCount) return;
    await emitEvent(ctx, tx, w.team_id, 'action.checkpoint', {
      action_id: w.action_id,
      workflow_id: w.id,
      checkpoint: step,
      content: written.text,
      options: CHECKPOINT_OPTIONS,
    });
  });
}

export async function fail(ctx: ServiceContext, w: WorkflowRow, error: string): Promise<void> {
  await ctx.store.tx(async (tx) => {
    const moved = await tx.query(
      `update workflows set status = 'failed', error = $2, version = version + 1, updated_at = now()
        where id = $1 and status in ('running', 'awaiting_approval')`,
      [w.id, error],
    );
    if (moved.rowCount) await emitEvent(ctx, tx, w.team_id, 'action.failed', { action_id: w.action_id, workflow_id: w.id, error });
  });
}
