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
  let s = seen.get(id);
  if (!s) seen.set(id, (s = { texts: {}, writing: null, last: null }));
  return s;
};
const nextStep = (s: Step): Step | null => STEPS[STEPS.findIndex(([k]) => k === s) + 1]?.[0] ?? null;
const indexOf = (s: Step | null) => (s ? STEPS.findIndex(([k]) => k === s) : -1);

function stepStates(w: Workflow, s: Seen): Record<Step, { text: string; cls: string }> {
  const out = {} as Record<Step, { text: string; cls: string }>;
  const waiting = w.status === 'awaiting_approval' ? indexOf(w.checkpoint) : -1;
  const writing = w.status === 'running' ? indexOf(s.writing) : -1;
  const stoppedAt = w.status === 'rejected' ? indexOf(s.last) : w.status === 'failed' ? indexOf(s.writing ?? s.last) : -1;
  STEPS.forEach(([step], i) => {
    if (w.status === 'completed') out[step] = { text: 'Approved', cls: 'done' };
    else if (waiting >= 0) out[step] = i < waiting ? { text: 'Approved', cls: 'done' } : i === waiting ? { text: 'Waiting for review', cls: 'current' } : { text: 'Not started', cls: '' };
    else if (writing >= 0) out[step] = i < writing ? { text: 'Approved', cls: 'done' } : i === writing ? { text: 'Writing…', cls: 'current' } : { text: 'Not started', cls: '' };
    else if (w.status === 'running') out[step] = { text: 'In progress', cls: 'current' };
    else if (stoppedAt >= 0)
      out[step] = i < stoppedAt ? { text: 'Approved', cls: 'done' } : i === stoppedAt ? { text: w.status === 'rejected' ? 'Rejected' : 'Failed', cls: 'stopped' } : { text: 'Not started', cls: '' };
    else out[step] = { text: w.status === 'rejected' ? 'Stopped (rejected)' : 'Stopped (failed)', cls: 'stopped' };
  });
  return out;
}

/**
 * How often to ask again, within a standard key's 70 requests a minute: every second for
 * the first 10 s of a step (the built-in writer takes well under that), then every 3 s;
 * every 10 s while a checkpoint waits, to see an answer given elsewhere (and on focus).
 */
function pollEvery(w: Workflow | null): number | false {
  if (w?.status === 'running') return Date.now() - Date.parse(w.updated_at) < 10_000 ? 1000 : 3000;
  if (w?.status === 'awaiting_approval') return 10_000;
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
  const q = useQuery(workflowQuery(projectId, actionId));
  const w = q.data;
  if (!w || w.status === 'completed') return null;
  const text = w.status === 'awaiting_approval' ? `${w.checkpoint} waiting for review` : `workflow ${STATUS_TEXT[w.status].toLowerCase()}`;
  return (
    <p class="small">
      <span class={`tag${w.status === 'awaiting_approval' ? ' waiting' : ''}`} data-workflow-badge={w.status}>
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
  const wf = useQuery({
    ...workflowQuery(projectId, actionId),
    staleTime: 0,
    refetchOnWindowFocus: true,
    refetchInterval: (q) => pollEvery(q.state.data ?? null),
  });
  const w = wf.data ?? null;
  const refreshBoard = () => queryClient.invalidateQueries({ queryKey: ['actions', projectId] });

  // A change this page did not make (a checkpoint answered elsewhere) is said out loud.
  const mine = useRef<string | null>(null);
  const before = useRef<Workflow | null>(null);
  const [elsewhere, setElsewhere] = useState('');
  useEffect(() => {
    const prev = before.current;
    before.current = w;
    if (!w || !prev || prev.workflow_id !== w.workflow_id || prev.updated_at === w.updated_at) return;
    if (w.status !== 'running') void refreshBoard();
    if (prev.status === 'awaiting_approval' && w.updated_at !== mine.current) {
      setElsewhere(`The ${prev.checkpoint} checkpoint was answered elsewhere: the workflow is now ${STATUS_TEXT[w.status].toLowerCase()}.`);
    }
  }, [w?.workflow_id, w?.updated_at]);

  const execute = useMutation({
    mutationFn: () => data<Data<'/v1/projects/{project_id}/actions/{action_id}/execute', 'post'>>('POST', `${base}/execute`),
    onSuccess: (r) => {
      Object.assign(seenOf(r.workflow_id), { writing: 'outline' });
      setElsewhere('');
      void queryClient.invalidateQueries({ queryKey: key });
      void refreshBoard();
    },
  });

  if (w) {
    const s = seenOf(w.workflow_id);
    if (w.status === 'awaiting_approval' && w.checkpoint) {
      if (w.content !== null) s.texts[w.checkpoint] = w.content;
      s.last = w.checkpoint;
      s.writing = null;
    }
    if (w.status === 'completed' && w.content !== null) s.texts.final = w.content;
  }
  const canRun = (!w || !OPEN.includes(w.status)) && EXECUTABLE.includes(actionStatus) && w?.status !== 'completed';
  const states = w ? stepStates(w, seenOf(w.workflow_id)) : null;
  const noHook = execute.error instanceof ApiError && execute.error.status === 400 && /action\.checkpoint/.test(execute.error.detail);

  return (
    <div class="workflow" data-workflow={w?.status ?? 'none'}>
      <h3>Article workflow</h3>
      {wf.isPending ? <Loading /> : null}
      <ErrorBox error={wf.error} />
      {wf.isSuccess && !w ? <p class="muted">Not executed yet. Executing writes an outline, a draft and a final text, and waits for your review after each.</p> : null}
      {canRun ? (
        <p>
          <button type="button" disabled={!canWrite || execute.isPending} onClick={() => execute.mutate()}>
            {w ? 'Execute again' : 'Execute'}
          </button>
          {!canWrite ? <span class="muted small"> Read-only session: an admin executes workflows.</span> : null}
        </p>
      ) : null}
      {!canRun && !EXECUTABLE.includes(actionStatus) && (!w || !OPEN.includes(w.status)) && w?.status !== 'completed' ? (
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
      {w && states ? (
        <>
          <p>
            Status: <strong data-workflow-status={w.status}>{STATUS_TEXT[w.status]}</strong>{' '}
            <span class="muted small">(started {w.created_at.replace('T', ' ').slice(0, 16)})</span>
          </p>
          <ol class="steps" aria-label="Steps">
            {STEPS.map(([step, label]) => {
              const text = seenOf(w.workflow_id).texts[step];
              const isCurrent = w.status === 'awaiting_approval' && w.checkpoint === step;
              return (
                <li key={step} data-step={step} data-state={states[step].text}>
                  {label}: <span class={`step-state ${states[step].cls}`}>{states[step].text}</span>
                  {text && !isCurrent && !(w.status === 'completed' && step === 'final') ? (
                    <details>
                      <summary>Text at the {step} checkpoint</summary>
                      <pre class="doc">{text}</pre>
                    </details>
                  ) : null}
                </li>
              );
            })}
          </ol>
          {w.status === 'running' ? <Loading what="The writer is working" /> : null}
          {w.status === 'awaiting_approval' && w.checkpoint ? (
            <Checkpoint
              key={`${w.workflow_id}:${w.checkpoint}:${w.updated_at}`}
              w={w}
              base={base}
              canWrite={canWrite}
              onAnswered={(after, answer, edited) => {
                mine.current = after.updated_at;
                const s = seenOf(w.workflow_id);
                if (answer === 'edit' && edited !== undefined) s.texts[w.checkpoint!] = edited;
                if (answer === 'edit' || answer === 'approve') s.writing = nextStep(w.checkpoint!);
                if (answer === 'regenerate') s.writing = w.checkpoint;
                setElsewhere('');
                queryClient.setQueryData(key, after);
                void refreshBoard();
              }}
              onConflict={() => void queryClient.invalidateQueries({ queryKey: key })}
            />
          ) : null}
          {w.status === 'completed' && w.result ? (
            <div data-result>
              <h4>Result: {w.result.title}</h4>
              <pre class="doc">
                {w.result.content}
              </pre>
              <CopyButton text={w.result.content} label="Copy the article" />
            </div>
          ) : null}
          {(w.status === 'rejected' || w.status === 'failed') && w.error ? (
            <p class="error" data-workflow-error>
              {w.error}
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
  const { w } = props;
  const step = w.checkpoint!;
  const [mode, setMode] = useState<Answer | null>(null);
  const [text, setText] = useState(w.content ?? '');
  const [feedback, setFeedback] = useState('');
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (mode) field.current?.focus();
  }, [mode]);
  const send = useMutation({
    mutationFn: (answer: Answer) =>
      data<Workflow>('POST', `${props.base}/workflow/respond`, {
        workflow_id: w.workflow_id,
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
  const label = STEPS.find(([k]) => k === step)?.[1] ?? step;
  const cancel = () => {
    setMode(null);
    send.reset();
  };
  return (
    <section class="checkpoint" data-checkpoint={step} aria-label={`${label} checkpoint`}>
      <h4>{label} checkpoint: waiting for your review</h4>
      <pre class="doc" data-checkpoint-content>
        {w.content}
      </pre>
      {w.content !== null ? <CopyButton text={w.content} label={`Copy the ${step}`} /> : null}
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
            onSubmit={(e) => {
              e.preventDefault();
              send.mutate(mode);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.preventDefault();
                cancel();
              }
            }}
          >
            {mode === 'edit' ? (
              <Field label={`Edited ${step}`} hint="Your text replaces the writer's and the workflow goes on from it.">
                <textarea ref={field} class="doc-edit" value={text} onInput={(e) => setText(e.currentTarget.value)} required />
              </Field>
            ) : (
              <Field
                label={mode === 'regenerate' ? 'Feedback for the writer' : 'Reason for rejecting'}
                hint={mode === 'regenerate' ? 'Optional: what to change. The step is written again and waits for you.' : 'Optional: kept with the rejected workflow.'}
              >
                <textarea ref={field} rows={3} maxLength={5000} value={feedback} onInput={(e) => setFeedback(e.currentTarget.value)} />
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
