import { z } from 'zod';
import { ProjectParams } from '../modules/common.js';
import { successEnvelope, successEnvelopeSchema } from '../lib/envelope.js';
import * as actions from '../modules/actions/service.js';
import * as actionSchemas from '../modules/actions/schema.js';
import { enrichContent, enrichForum } from '../modules/actions/enrich-content.js';
import * as workflows from '../modules/workflows/service.js';
import * as workflowSchemas from '../modules/workflows/schema.js';
import { plural, tool } from './tool-kit.js';
import { READ } from './tools-projects.js';

const workflowLine = (w: z.output<typeof workflowSchemas.Workflow>) =>
  `Workflow ${w.workflow_id}: ${w.status}${w.checkpoint ? `, waiting at the ${w.checkpoint} checkpoint (answer with respond_to_checkpoint)` : ''}${w.error ? ` (${w.error})` : ''}.`;

export const actionTools = [
  tool({
    name: 'list_actions',
    title: 'List actions',
    description:
      "The project's actions (things to do to raise visibility: on_page_seo, new_content, content_update, forum_engagement), newest first, optionally filtered by status (suggested, accepted, in_progress, completed, ignored) or group. Each has priority, effort, expected impact in visibility points, targets and how to execute it.",
    scope: 'read',
    hints: READ,
    params: ProjectParams,
    query: actionSchemas.ListActionsQuery,
    output: actionSchemas.ActionListEnvelope,
    run: async (ctx, { params, query }) => successEnvelope(await actions.listActions(ctx, params.project_id, query)),
    summary: ({ data }) => `${plural(data.length, 'action')}${data.slice(0, 5).map((x) => `\n- [${x.status}, ${x.priority}] ${x.title} (${x.id})`).join('')}${data.length > 5 ? '\n…' : ''}`,
  }),
  tool({
    name: 'get_action',
    title: 'Get an action',
    description: 'One action with its status, priority, effort, expected impact, targets, execution and timestamps.',
    scope: 'read',
    hints: READ,
    params: actionSchemas.ActionParams,
    output: actionSchemas.ActionEnvelope,
    run: async (ctx, { params }) => successEnvelope(await actions.getAction(ctx, params.project_id, params.action_id)),
    summary: ({ data: x }) => `[${x.status}, ${x.priority}] ${x.title} (${x.id})`,
  }),
  tool({
    name: 'create_action',
    title: 'Create an action',
    description: 'Create an action (status suggested) with title, description, category, priority and execution {type, prompt?, skill?, params?}; targets, effort, expected impact (0-100) and group are optional.',
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    params: ProjectParams,
    body: actionSchemas.CreateActionBody,
    output: actionSchemas.ActionEnvelope,
    run: async (ctx, { params, body }) => successEnvelope(await actions.createAction(ctx, params.project_id, body)),
    summary: ({ data }) => `Action ${data.id} created (${data.status}): ${data.title}`,
  }),
  tool({
    name: 'transition_action',
    title: 'Move an action',
    description:
      "Move an action with one operation: accept (suggested→accepted), start (→in_progress), complete (→completed), ignore (with optional reason and feedback) or reopen (→suggested). A move the action's status does not allow is an error that names the status.",
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    params: actionSchemas.TransitionParams,
    body: actionSchemas.TransitionBody,
    output: actionSchemas.ActionEnvelope,
    run: async (ctx, { params, body }) => successEnvelope(await actions.transitionAction(ctx, params.project_id, params.action_id, params.action, body)),
    summary: ({ data }) => `Action ${data.id} is now ${data.status}.`,
  }),
  tool({
    name: 'transition_actions',
    title: 'Move many actions',
    description:
      'Apply one operation (accept, start, complete, ignore, reopen) to up to 100 actions at once, each on its own: an action whose status does not allow the move is counted as failed and the others still move. Returns succeeded, failed and total.',
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    params: ProjectParams,
    body: actionSchemas.BatchTransitionBody,
    output: actionSchemas.BatchEnvelope,
    run: async (ctx, { params, body }) => successEnvelope(await actions.batchTransition(ctx, params.project_id, body)),
    summary: ({ data }) => `${data.succeeded} of ${plural(data.total, 'action')} moved${data.failed ? `, ${data.failed} refused` : ''}.`,
  }),
  tool({
    name: 'draft_action',
    title: 'Draft an action',
    description:
      "Have the writer fill in an action before creating it: from action_type (and optionally title, description, target_url, keywords, instructions) it returns title, description, targets, execution, effort and expected impact grounded in the project's data. Creates nothing: pass the result to create_action.",
    scope: 'admin',
    hints: { readOnlyHint: true, openWorldHint: true },
    params: ProjectParams,
    body: actionSchemas.EnrichActionBody,
    output: actionSchemas.EnrichedEnvelope,
    run: async (ctx, { params, body }) => successEnvelope(await actions.enrichAction(ctx, params.project_id, body)),
    summary: ({ data }) => `Drafted: ${data.title} (${plural(data.targets.length, 'target')}, effort ${data.effort ?? 'n/a'}).`,
  }),
  tool({
    name: 'recommend_actions',
    title: 'Recommend actions',
    description:
      "Derive suggested actions from the project's last 30 days (gaps in visibility, citations, competitors) in the background. Returns a task_id: poll get_recommendation_task until completed, then list_actions with status suggested.",
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    params: ProjectParams,
    output: actionSchemas.TaskCreatedEnvelope,
    run: async (ctx, { params }) => successEnvelope(await actions.startRecommendation(ctx, params.project_id)),
    summary: ({ data }) => `Recommendation task ${data.task_id} started; poll get_recommendation_task.`,
  }),
  tool({
    name: 'get_recommendation_task',
    title: 'Recommendation task status',
    description: 'Status of a recommendation task: running, completed (item_count actions were suggested) or failed (error says why).',
    scope: 'read',
    hints: READ,
    params: actionSchemas.TaskParams,
    output: actionSchemas.TaskEnvelope,
    run: async (ctx, { params }) => successEnvelope(await actions.getTask(ctx, params.project_id, params.task_id)),
    summary: ({ data }) => `Task ${data.status}${data.status === 'completed' ? `: ${plural(data.item_count, 'action')} suggested` : ''}${data.error ? ` (${data.error})` : ''}.`,
  }),
  tool({
    name: 'enrich_content',
    title: 'Edit suggestions for a page',
    description:
      "For a content_update action: fetch its target page and return edits grounded in the page and the project's prompts (section, type replace/insert/delete, before quoting the page, after, the signal and reason). Changes nothing; takes a few seconds; fails when the page cannot be fetched.",
    scope: 'admin',
    hints: { readOnlyHint: true, openWorldHint: true },
    params: actionSchemas.ActionParams,
    output: successEnvelopeSchema(z.array(actionSchemas.EditSchema)),
    run: async (ctx, { params }) => successEnvelope(await enrichContent(ctx, params.project_id, params.action_id)),
    summary: ({ data }) => `${plural(data.length, 'edit')} suggested${data.length ? `, in sections: ${[...new Set(data.map((e) => e.section))].slice(0, 5).join(', ')}` : ''}.`,
  }),
  tool({
    name: 'enrich_forum',
    title: 'Reply draft for a forum thread',
    description:
      "For a forum_engagement action: read its thread and return a reply draft (comment, word count, thread title and URL) that answers the thread and names the brand honestly. Changes nothing and posts nothing; takes a few seconds; fails when the thread cannot be fetched.",
    scope: 'admin',
    hints: { readOnlyHint: true, openWorldHint: true },
    params: actionSchemas.ActionParams,
    output: successEnvelopeSchema(actionSchemas.ForumDraftSchema),
    run: async (ctx, { params }) => successEnvelope(await enrichForum(ctx, params.project_id, params.action_id)),
    summary: ({ data }) => `A ${data.comment_word_count}-word reply drafted for "${data.thread_title}" (${data.thread_url}).`,
  }),
  tool({
    name: 'execute_action',
    title: 'Execute an action',
    description:
      'Start the article workflow of an action: the writer drafts an outline, a draft and a final text, stopping at each for approval. Returns the workflow_id (status running); poll get_workflow and answer each checkpoint with respond_to_checkpoint. The action moves to in_progress.',
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    params: workflowSchemas.ActionParams,
    output: workflowSchemas.ExecuteEnvelope,
    run: async (ctx, { params }) => successEnvelope(await workflows.executeAction(ctx, params.project_id, params.action_id)),
    summary: ({ data }) => `Workflow ${data.workflow_id} ${data.status}; poll get_workflow.`,
  }),
  tool({
    name: 'get_workflow',
    title: 'Get a workflow',
    description: "The action's latest workflow: status (running, awaiting_approval, completed, failed, rejected), the checkpoint that waits (outline, draft, final) with its content, and the result {title, content} once completed.",
    scope: 'read',
    hints: READ,
    params: workflowSchemas.ActionParams,
    output: workflowSchemas.WorkflowEnvelope,
    run: async (ctx, { params }) => successEnvelope(await workflows.getWorkflow(ctx, params.project_id, params.action_id)),
    summary: ({ data }) => workflowLine(data),
  }),
  tool({
    name: 'respond_to_checkpoint',
    title: 'Answer a checkpoint',
    description:
      'Answer the checkpoint that waits: approve (go on), edit (go on with your content), regenerate (redo it with feedback) or reject (end the workflow). workflow_id and checkpoint must match the waiting one.',
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    params: workflowSchemas.ActionParams,
    body: workflowSchemas.RespondBody,
    output: workflowSchemas.WorkflowEnvelope,
    run: async (ctx, { params, body }) => successEnvelope(await workflows.respond(ctx, params.project_id, params.action_id, body)),
    summary: ({ data }) => workflowLine(data),
  }),
];
