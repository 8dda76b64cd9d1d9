import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, data } from '../api';
import type { Data, RequestBody, Schemas } from '../api-types';
import { Link } from '../router';
import { useCanWrite } from '../session';
import { CopyButton, ErrorBox, Field, Loading } from '../ui';

// The article workflow of a publishable_content action (docs/decisions.md): execute it, follow it
// (polled while it runs, and while a checkpoint waits so that an answer given elsewhere, by
// a webhook's consumer or through the API, shows here), and answer each checkpoint.

type Step = NonNullable<Workflow['checkpoint']>;
export type Workflow = Schemas['Workflow'];
type Answer = RequestBody<'/v1/projects/{project_id}/actions/{action_id}/workflow/respond'>['action'];

const STEPS: Array<[Step, string]> = [
  ['outline', 'Outline'],
  ['draft', 'Draft'],
  ['final', 'Final'],
];
/** The statuses from which the API lets an action be executed. */
const EXECUTABLE = ['suggested', 'accepted', 'in_progress'];
const OPEN = ['running', 'awaiting_approval'];

/**
 * What this browser saw of a workflow: the text at each checkpoint and the step being
 * written. The API gives only the checkpoint that waits, so earlier texts are kept here.
 */
interface Seen {
  texts: Partial<Record<Step, string>>;
  writing: Step | null;
  last: Step | null;
}
const seen = new Map<string, Seen>();
const seenOf = (id: string): Seen => {
  let stepsSeen = seen.get(id);
  if (!stepsSeen) seen.set(id, (stepsSeen = { texts: {}, writing: null, last: null }));
  return stepsSeen;
};
const nextStep = (step: Step): Step | null => STEPS[STEPS.findIndex(([stepKey]) => stepKey === step) + 1]?.[0] ?? null;
const indexOf = (step: Step | null) => (step ? STEPS.findIndex(([stepKey]) => stepKey === step) : -1);

function stepStates(workflow: Workflow, seen: Seen): Record<Step, { text: string; cls: string }> {
  const out = {} as Record<Step, { text: string; cls: string }>;
  const waiting = workflow.status === 'awaiting_approval' ? indexOf(workflow.checkpoint) : -1;
  const writing = workflow.status === 'running' ? indexOf(seen.writing) : -1;
  const stoppedAt = workflow.status === 'rejected' ? indexOf(seen.last) : workflow.status === 'failed' ? indexOf(seen.writing ?? seen.last) : -1;
  STEPS.forEach(([step], i) => {
    if (workflow.status === 'completed') out[step] = { text: 'Approved', cls: 'done' };
    else if (waiting >= 0) out[step] = i < waiting ? { text: 'Approved', cls: 'done' } : i === waiting ? { text: 'Waiting for review', cls: 'current' } : { text: 'Not started', cls: '' };
    else if (writing >= 0) out[step] = i < writing ? { text: 'Approved', cls: 'done' } : i === writing ? { text: 'Writing…', cls: 'current' } : { text: 'Not started', cls: '' };
    else if (workflow.status === 'running') out[step] = { text: 'In progress', cls: 'current' };
    else if (stoppedAt >= 0)
      out[step] = i < stoppedAt ? { text: 'Approved', cls: 'done' } : i === stoppedAt ? { text: workflow.status === 'rejected' ? 'Rejected' : 'Failed', cls: 'stopped' } : { text: 'Not started', cls: '' };
    else out[step] = { text: workflow.status === 'rejected' ? 'Stopped (rejected)' : 'Stopped (failed)', cls: 'stopped' };
  });
  return out;
}

/**
 * How often to ask again, within a standard key's 70 requests a minute: every second for
 * the first 10 s of a step (the built-in writer takes well under that), then every 3 s;
 * every 10 s while a checkpoint waits, to see an answer given elsewhere (and on focus).
 */
function pollEvery(workflow: Workflow | null): number | false {
  if (workflow?.status === 'running') return Date.now() - Date.parse(workflow.updated_at) < 10_000 ? 1000 : 3000;
  if (workflow?.status === 'awaiting_approval') return 10_000;
  return false;
}

/** The action's latest workflow, or null when it has none yet (the API's 404). */
export const workflowQuery = (projectId: string, actionId: string) => ({
  queryKey: ['workflow', projectId, actionId],
  queryFn: async () => {
    try {
      return await data<Workflow>('GET', `/projects/${projectId}/actions/${actionId}/workflow`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  },
});

/** On a board card: where the action's workflow stands (a checkpoint waiting above all). */
export function WorkflowBadge({ projectId, actionId }: { projectId: string; actionId: string }) {
  const workflowResult = useQuery(workflowQuery(projectId, actionId));
  const workflow = workflowResult.data;
  if (!workflow || workflow.status === 'completed') return null;
  const text = workflow.status === 'awaiting_approval' ? `${workflow.checkpoint} waiting for review` : `workflow ${STATUS_TEXT[workflow.status].toLowerCase()}`;
  return (
    <p class="small">
      <span class={`tag${workflow.status === 'awaiting_approval' ? ' waiting' : ''}`} data-workflow-badge={workflow.status}>
        {text}
      </span>
    </p>
  );
}

const STATUS_TEXT: Record<Workflow['status'], string> = {
  running: 'Running',
  awaiting_approval: 'Waiting for your review',
  completed: 'Completed',
  failed: 'Failed',
  rejected: 'Rejected',
};

export function WorkflowPanel({ projectId, actionId, actionStatus }: { projectId: string; actionId: string; actionStatus: string }) {
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const base = `/projects/${projectId}/actions/${actionId}`;
  const key = workflowQuery(projectId, actionId).queryKey;
  const workflowResult = useQuery({
    ...workflowQuery(projectId, actionId),
    staleTime: 0,
    refetchOnWindowFocus: true,
    refetchInterval: (query) => pollEvery(query.state.data ?? null),
  });
  const workflow = workflowResult.data ?? null;
  const refreshBoard = () => queryClient.invalidateQueries({ queryKey: ['actions', projectId] });

  // A change this page did not make (a checkpoint answered elsewhere) is said out loud.
  const mine = useRef<string | null>(null);
  const before = useRef<Workflow | null>(null);
  const [elsewhere, setElsewhere] = useState('');
  useEffect(() => {
    const prev = before.current;
    before.current = workflow;
    if (!workflow || !prev || prev.workflow_id !== workflow.workflow_id || prev.updated_at === workflow.updated_at) return;
    if (workflow.status !== 'running') void refreshBoard();
    if (prev.status === 'awaiting_approval' && workflow.updated_at !== mine.current) {
      setElsewhere(`The ${prev.checkpoint} checkpoint was answered elsewhere: the workflow is now ${STATUS_TEXT[workflow.status].toLowerCase()}.`);
    }
  }, [workflow?.workflow_id, workflow?.updated_at]);

  const execute = useMutation({
    mutationFn: () => data<Data<'/v1/projects/{project_id}/actions/{action_id}/execute', 'post'>>('POST', `${base}/execute`),
    onSuccess: (response) => {
      Object.assign(seenOf(response.workflow_id), { writing: 'outline' });
      setElsewhere('');
      void queryClient.invalidateQueries({ queryKey: key });
      void refreshBoard();
    },
  });

  if (workflow) {
    const seen = seenOf(workflow.workflow_id);
    if (workflow.status === 'awaiting_approval' && workflow.checkpoint) {
      if (workflow.content !== null) seen.texts[workflow.checkpoint] = workflow.content;
      seen.last = workflow.checkpoint;
      seen.writing = null;
    }
    if (workflow.status === 'completed' && workflow.content !== null) seen.texts.final = workflow.content;
  }
  const canRun = (!workflow || !OPEN.includes(workflow.status)) && EXECUTABLE.includes(actionStatus) && workflow?.status !== 'completed';
  const states = workflow ? stepStates(workflow, seenOf(workflow.workflow_id)) : null;
  const noHook = execute.error instanceof ApiError && execute.error.status === 400 && /action\.checkpoint/.test(execute.error.detail);

  return (
    <div class="workflow" data-workflow={workflow?.status ?? 'none'}>
      <h3>Article workflow</h3>
      {workflowResult.isPending ? <Loading shape="lines" /> : null}
      <ErrorBox error={workflowResult.error} />
      {workflowResult.isSuccess && !workflow ? <p class="muted">Not executed yet. Executing writes an outline, a draft and a final text, and waits for your review after each.</p> : null}
      {canRun ? (
        <p>
          <button type="button" disabled={!canWrite || execute.isPending} onClick={() => execute.mutate()}>
            {workflow ? 'Execute again' : 'Execute'}
          </button>
          {!canWrite ? <span class="muted small"> Read-only session: an admin executes workflows.</span> : null}
        </p>
      ) : null}
      {!canRun && !EXECUTABLE.includes(actionStatus) && (!workflow || !OPEN.includes(workflow.status)) && workflow?.status !== 'completed' ? (
        <p class="muted small">Only a suggested, accepted or in-progress action can be executed (this one is {actionStatus.replace(/_/g, ' ')}).</p>
      ) : null}
      <ErrorBox error={execute.error} />
      {noHook ? (
        <p class="small">
          Checkpoints are also sent to a webhook: <Link href="/settings">register one for action.checkpoint in Settings</Link>.
        </p>
      ) : null}
      {elsewhere ? (
        <p class="notice" role="status">
          {elsewhere}
        </p>
      ) : null}
      {workflow && states ? (
        <>
          <p>
            Status: <strong data-workflow-status={workflow.status}>{STATUS_TEXT[workflow.status]}</strong>{' '}
            <span class="muted small">(started {workflow.created_at.replace('T', ' ').slice(0, 16)})</span>
          </p>
          <ol class="steps" aria-label="Steps">
            {STEPS.map(([step, label]) => {
              const text = seenOf(workflow.workflow_id).texts[step];
              const isCurrent = workflow.status === 'awaiting_approval' && workflow.checkpoint === step;
              return (
                <li key={step} data-step={step} data-state={states[step].text}>
                  {label}: <span class={`step-state ${states[step].cls}`}>{states[step].text}</span>
                  {text && !isCurrent && !(workflow.status === 'completed' && step === 'final') ? (
                    <details>
                      <summary>Text at the {step} checkpoint</summary>
                      <pre class="doc">{text}</pre>
                    </details>
                  ) : null}
                </li>
              );
            })}
          </ol>
          {workflow.status === 'running' ? <Loading what="The writer is working" /> : null}
          {workflow.status === 'awaiting_approval' && workflow.checkpoint ? (
            <Checkpoint
              key={`${workflow.workflow_id}:${workflow.checkpoint}:${workflow.updated_at}`}
              w={workflow}
              base={base}
              canWrite={canWrite}
              onAnswered={(after, answer, edited) => {
                mine.current = after.updated_at;
                const seen = seenOf(workflow.workflow_id);
                if (answer === 'edit' && edited !== undefined) seen.texts[workflow.checkpoint!] = edited;
                if (answer === 'edit' || answer === 'approve') seen.writing = nextStep(workflow.checkpoint!);
                if (answer === 'regenerate') seen.writing = workflow.checkpoint;
                setElsewhere('');
                queryClient.setQueryData(key, after);
                void refreshBoard();
              }}
              onConflict={() => void queryClient.invalidateQueries({ queryKey: key })}
            />
          ) : null}
          {workflow.status === 'completed' && workflow.result ? (
            <div data-result>
              <h4>Result: {workflow.result.title}</h4>
              <pre class="doc">
                {workflow.result.content}
              </pre>
              <CopyButton text={workflow.result.content} label="Copy the article" />
            </div>
          ) : null}
          {(workflow.status === 'rejected' || workflow.status === 'failed') && workflow.error ? (
            <p class="error" data-workflow-error>
              {workflow.error}
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

function Checkpoint(props: {
  w: Workflow;
  base: string;
  canWrite: boolean;
  onAnswered: (after: Workflow, answer: Answer, edited?: string) => void;
  onConflict: () => void;
}) {
  const { w: workflow } = props;
  const step = workflow.checkpoint!;
  const [mode, setMode] = useState<Answer | null>(null);
  const [text, setText] = useState(workflow.content ?? '');
  const [feedback, setFeedback] = useState('');
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (mode) field.current?.focus();
  }, [mode]);
  const send = useMutation({
    mutationFn: (answer: Answer) =>
      data<Workflow>('POST', `${props.base}/workflow/respond`, {
        workflow_id: workflow.workflow_id,
        checkpoint: step,
        action: answer,
        ...(answer === 'edit' ? { content: text } : {}),
        ...((answer === 'regenerate' || answer === 'reject') && feedback.trim() ? { feedback: feedback.trim() } : {}),
      }),
    onSuccess: (after, answer) => props.onAnswered(after, answer, answer === 'edit' ? text.trim() : undefined),
    onError: (err) => {
      if (err instanceof ApiError && (err.status === 409 || err.status === 404)) props.onConflict();
    },
  });
  const label = STEPS.find(([stepKey]) => stepKey === step)?.[1] ?? step;
  const cancel = () => {
    setMode(null);
    send.reset();
  };
  return (
    <section class="checkpoint" data-checkpoint={step} aria-label={`${label} checkpoint`}>
      <h4>{label} checkpoint: waiting for your review</h4>
      <pre class="doc" data-checkpoint-content>
        {workflow.content}
      </pre>
      {workflow.content !== null ? <CopyButton text={workflow.content} label={`Copy the ${step}`} /> : null}
      {!props.canWrite ? <p class="muted small">Read-only session: an admin answers checkpoints.</p> : null}
      <fieldset disabled={!props.canWrite || send.isPending}>
        <div class="row-actions answer-buttons">
          <button type="button" onClick={() => send.mutate('approve')}>
            Approve
          </button>
          <button type="button" class="secondary" aria-pressed={mode === 'edit'} onClick={() => setMode(mode === 'edit' ? null : 'edit')}>
            Edit
          </button>
          <button type="button" class="secondary" aria-pressed={mode === 'regenerate'} onClick={() => setMode(mode === 'regenerate' ? null : 'regenerate')}>
            Regenerate
          </button>
          <button type="button" class="danger" aria-pressed={mode === 'reject'} onClick={() => setMode(mode === 'reject' ? null : 'reject')}>
            Reject
          </button>
        </div>
        {mode ? (
          <form
            class="answer-form"
            onSubmit={(event) => {
              event.preventDefault();
              send.mutate(mode);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.preventDefault();
                cancel();
              }
            }}
          >
            {mode === 'edit' ? (
              <Field label={`Edited ${step}`} hint="Your text replaces the writer's and the workflow goes on from it.">
                <textarea ref={field} class="doc-edit" value={text} onInput={(event) => setText(event.currentTarget.value)} required />
              </Field>
            ) : (
              <Field
                label={mode === 'regenerate' ? 'Feedback for the writer' : 'Reason for rejecting'}
                hint={mode === 'regenerate' ? 'Optional: what to change. The step is written again and waits for you.' : 'Optional: kept with the rejected workflow.'}
              >
                <textarea ref={field} rows={3} maxLength={5000} value={feedback} onInput={(event) => setFeedback(event.currentTarget.value)} />
              </Field>
            )}
            <div class="row-actions">
              <button type="submit" class={mode === 'reject' ? 'danger' : undefined} disabled={mode === 'edit' && !text.trim()}>
                {mode === 'edit' ? 'Send edit' : mode === 'regenerate' ? 'Regenerate this step' : 'Reject the workflow'}
              </button>
              <button type="button" class="secondary" onClick={cancel}>
                Cancel
              </button>
            </div>
          </form>
        ) : null}
      </fieldset>
      {send.isPending ? <Loading what="Sending" /> : null}
      <ErrorBox error={send.error} />
    </section>
  );
}
