import { useQuery } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { data } from '../api';
import type { Data, Schemas } from '../api-types';
import { CsvButton } from '../csv';
import { useCanWrite } from '../session';
import { CopyButton, Empty, ErrorBox, Field, Loading, OutLink } from '../ui';
import { TextDiff } from '../text-diff';
import { WorkflowPanel } from './workflow';

// One action opened from the board: its facts, and what its kind offers: the suggested
// edits of a content_update page shown against the page's current text, the drafted reply
// of a forum thread, or the article workflow of a publishable_content action.

export type Action = Schemas['ActionItem'];
type Edit = Schemas['Edit'];
type ForumDraft = Data<'/v1/projects/{project_id}/actions/{action_id}/enrich-forum', 'post'>;

export const isContentEdit = (action: Action) => action.category === 'content_update';
export const isForum = (action: Action) => action.category === 'forum_engagement';
export const isArticle = (action: Action) => action.execution?.type === 'publishable_content';
export function kindOf(action: Action): string | null {
  if (isArticle(action)) return 'Article workflow';
  if (isContentEdit(action)) return 'Page edits';
  if (isForum(action)) return 'Forum reply';
  return null;
}

const urlOf = (action: Action) => action.targets.find((target) => target.type === 'url')?.value ?? null;
const str = (value: unknown) => (typeof value === 'string' && value.trim() ? value : null);
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

export function ActionDetail(props: { projectId: string; action: Action; all: Action[]; onClose: () => void }) {
  const action = props.action;
  const heading = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => heading.current?.focus(), [action.id]);
  // Escape closes the panel, unless a field or an open form takes it first.
  const { onClose } = props;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const clicked = event.target as HTMLElement | null;
      if (event.key !== 'Escape' || event.defaultPrevented || clicked?.closest('input, textarea, select, form')) return;
      onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  const impact =
    action.expected_impact_min !== null || action.expected_impact_max !== null ? `${action.expected_impact_min ?? '?'}–${action.expected_impact_max ?? '?'} points` : null;
  const deps = action.depends_on.map((id) => props.all.find((x) => x.id === id)?.title ?? id);
  return (
    <section
      class="card action-detail"
      aria-labelledby="action-detail-title"
      data-detail={action.id}
    >
      <div class="card-head">
        <h2 id="action-detail-title" tabIndex={-1} ref={heading}>
          {action.title}
        </h2>
        <div class="card-actions">
          <button type="button" class="secondary small" onClick={props.onClose}>
            Close
          </button>
        </div>
      </div>
      <p class="answer-text">{action.description}</p>
      <dl class="facts">
        <dt>Status</dt>
        <dd data-status={action.status}>{action.status.replace(/_/g, ' ')}</dd>
        <dt>Priority</dt>
        <dd>{action.priority}</dd>
        <dt>Category</dt>
        <dd>{action.category.replace(/_/g, ' ')}</dd>
        {action.effort ? (
          <>
            <dt>Effort</dt>
            <dd>{action.effort}</dd>
          </>
        ) : null}
        {impact ? (
          <>
            <dt>Expected impact</dt>
            <dd>{impact}</dd>
          </>
        ) : null}
        {action.targets.length ? (
          <>
            <dt>Targets</dt>
            <dd>
              {action.targets.map((target, i) => (
                <div key={i}>
                  <span class="muted small">{target.type.replace(/_/g, ' ')}:</span> {target.type === 'url' ? <OutLink href={target.value} /> : <span class="wrap">{target.value}</span>}
                </div>
              ))}
            </dd>
          </>
        ) : null}
        <dt>Execution</dt>
        <dd>
          {action.execution.type.replace(/_/g, ' ')}
          {action.execution.skill ? <span class="muted small"> ({action.execution.skill})</span> : null}
        </dd>
        {deps.length ? (
          <>
            <dt>Depends on</dt>
            <dd>{deps.join('; ')}</dd>
          </>
        ) : null}
      </dl>
      {action.execution.prompt ? (
        <>
          <h3>Instructions</h3>
          <p class="answer-text">{action.execution.prompt}</p>
        </>
      ) : null}
      {isContentEdit(action) ? <PageEdits projectId={props.projectId} action={action} /> : null}
      {isForum(action) ? <ForumReply projectId={props.projectId} action={action} /> : null}
      {isArticle(action) ? <WorkflowPanel projectId={props.projectId} actionId={action.id} actionStatus={action.status} /> : null}
    </section>
  );
}

/**
 * The writer's edits for the action's page (POST enrich-content: the page is read again and
 * each edit quotes it in `before`), each shown as a word diff against that current text.
 * Kept in the query cache: reopening the action shows them again without a new call.
 */
function PageEdits({ projectId, action }: { projectId: string; action: Action }) {
  const canWrite = useCanWrite();
  const url = urlOf(action);
  const editsQuery = useQuery({
    queryKey: ['edits', projectId, action.id],
    queryFn: () => data<Edit[]>('POST', `/projects/${projectId}/actions/${action.id}/enrich-content`),
    enabled: false,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60 * 60_000,
  });
  const edits = editsQuery.data;
  return (
    <div class="page-edits" data-edits={edits ? edits.length : ''}>
      <div class="card-head">
        <h3>Page edits</h3>
        {edits?.length ? (
          <CsvButton
            filename={`edits-${action.id}.csv`}
            label="Download edits CSV"
            header={['section', 'type', 'signal', 'before', 'after', 'reason']}
            rows={() => edits.map((edit) => [edit.section, edit.type, edit.signal, edit.before, edit.after, edit.reason])}
          />
        ) : null}
      </div>
      <p>Page: {url ? <OutLink href={url} /> : <span class="muted">no URL target (edits need one)</span>}</p>
      <p>
        <button type="button" disabled={!canWrite || !url || editsQuery.isFetching} onClick={() => void editsQuery.refetch()}>
          {edits ? 'Suggest edits again' : 'Suggest edits'}
        </button>{' '}
        <span class="muted small">{canWrite ? 'Reads the page as it is now; this can take 10 to 20 seconds.' : 'Read-only session: an admin asks for edits.'}</span>
      </p>
      {editsQuery.isFetching ? <Loading what="Reading the page and writing edits" /> : null}
      <ErrorBox error={editsQuery.error} />
      {edits && !edits.length ? <Empty>The writer has no edit to suggest for this page.</Empty> : null}
      {edits?.map((edit, i) => (
        <article key={i} class="edit" data-edit={i} data-signal={edit.signal}>
          <h4>{edit.section}</h4>
          <p class="muted small">
            <span class="tag">{edit.type}</span> <span class="tag">{edit.signal.replace(/_/g, ' ')}</span> {edit.reason}
          </p>
          <TextDiff before={edit.type === 'insert' ? null : edit.before} after={edit.type === 'delete' ? null : edit.after} />
          {edit.after ? <CopyButton text={edit.after} label="Copy the proposed text" /> : null}
        </article>
      ))}
    </div>
  );
}

/** The drafted reply for a forum thread (POST enrich-forum), with the thread it answers. */
function ForumReply({ projectId, action }: { projectId: string; action: Action }) {
  const canWrite = useCanWrite();
  const params = action.execution.params ?? {};
  const threadUrl = str(params.thread_url) ?? urlOf(action);
  const forumDraftQuery = useQuery({
    queryKey: ['forum-draft', projectId, action.id],
    queryFn: () => data<ForumDraft>('POST', `/projects/${projectId}/actions/${action.id}/enrich-forum`),
    enabled: false,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60 * 60_000,
  });
  const forumDraft = forumDraftQuery.data;
  const [text, setText] = useState('');
  useEffect(() => setText(forumDraft?.comment ?? ''), [forumDraft]);
  const title = forumDraft?.thread_title ?? str(params.thread_title);
  const url = forumDraft?.thread_url ?? threadUrl;
  return (
    <div class="forum-draft" data-forum-draft={forumDraft ? 'ready' : ''}>
      <h3>Forum reply</h3>
      <p>
        Thread: {title ? <strong class="wrap">{title}</strong> : null} {url ? <OutLink href={url} /> : <span class="muted">no thread URL</span>}
      </p>
      <p>
        <button type="button" disabled={!canWrite || !url || forumDraftQuery.isFetching} onClick={() => void forumDraftQuery.refetch()}>
          {forumDraft ? 'Draft again' : 'Draft a reply'}
        </button>{' '}
        {!canWrite ? <span class="muted small">Read-only session: an admin drafts replies.</span> : null}
      </p>
      {forumDraftQuery.isFetching ? <Loading what="Reading the thread and drafting" /> : null}
      <ErrorBox error={forumDraftQuery.error} />
      {forumDraft ? (
        <>
          <Field label="Drafted reply" hint={`${words(text)} words. Edit it here if you like, then copy it into the thread.`}>
            <textarea class="doc-edit" value={text} onInput={(event) => setText(event.currentTarget.value)} />
          </Field>
          <CopyButton text={text} label="Copy the reply" />
        </>
      ) : null}
    </div>
  );
}
