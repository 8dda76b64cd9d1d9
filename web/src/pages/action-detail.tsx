import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'preact/hooks';
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

export const isContentEdit = (a: Action) => a.category === 'content_update';
export const isForum = (a: Action) => a.category === 'forum_engagement';
export const isArticle = (a: Action) => a.execution?.type === 'publishable_content';
export function kindOf(a: Action): string | null {
  if (isArticle(a)) return 'Article workflow';
  if (isContentEdit(a)) return 'Page edits';
  if (isForum(a)) return 'Forum reply';
  return null;
}

const urlOf = (a: Action) => a.targets.find((t) => t.type === 'url')?.value ?? null;
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : null);
const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

export function ActionDetail(props: { projectId: string; action: Action; all: Action[]; onClose: () => void }) {
  const a = props.action;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [a.id]);
  // Escape closes the panel, unless a field or an open form takes it first.
  const { onClose } = props;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.key !== 'Escape' || e.defaultPrevented || t?.closest('input, textarea, select, form')) return;
      onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  const impact =
    a.expected_impact_min !== null || a.expected_impact_max !== null ? `${a.expected_impact_min ?? '?'}–${a.expected_impact_max ?? '?'} points` : null;
  const deps = a.depends_on.map((id) => props.all.find((x) => x.id === id)?.title ?? id);
  return (
    <section
      class="card action-detail"
      aria-labelledby="action-detail-title"
      data-detail={a.id}
    >
      <div class="card-head">
        <h2 id="action-detail-title" tabIndex={-1} ref={heading}>
          {a.title}
        </h2>
        <div class="card-actions">
          <button type="button" class="secondary small" onClick={props.onClose}>
            Close
          </button>
        </div>
      </div>
      <p class="answer-text">{a.description}</p>
      <dl class="facts">
        <dt>Status</dt>
        <dd data-status={a.status}>{a.status.replace(/_/g, ' ')}</dd>
        <dt>Priority</dt>
        <dd>{a.priority}</dd>
        <dt>Category</dt>
        <dd>{a.category.replace(/_/g, ' ')}</dd>
        {a.effort ? (
          <>
            <dt>Effort</dt>
            <dd>{a.effort}</dd>
          </>
        ) : null}
        {impact ? (
          <>
            <dt>Expected impact</dt>
            <dd>{impact}</dd>
          </>
        ) : null}
        {a.targets.length ? (
          <>
            <dt>Targets</dt>
            <dd>
              {a.targets.map((t, i) => (
                <div key={i}>
                  <span class="muted small">{t.type.replace(/_/g, ' ')}:</span> {t.type === 'url' ? <OutLink href={t.value} /> : <span class="wrap">{t.value}</span>}
                </div>
              ))}
            </dd>
          </>
        ) : null}
        <dt>Execution</dt>
        <dd>
          {a.execution.type.replace(/_/g, ' ')}
          {a.execution.skill ? <span class="muted small"> ({a.execution.skill})</span> : null}
        </dd>
        {deps.length ? (
          <>
            <dt>Depends on</dt>
            <dd>{deps.join('; ')}</dd>
          </>
        ) : null}
      </dl>
      {a.execution.prompt ? (
        <>
          <h3>Instructions</h3>
          <p class="answer-text">{a.execution.prompt}</p>
        </>
      ) : null}
      {isContentEdit(a) ? <PageEdits projectId={props.projectId} action={a} /> : null}
      {isForum(a) ? <ForumReply projectId={props.projectId} action={a} /> : null}
      {isArticle(a) ? <WorkflowPanel projectId={props.projectId} actionId={a.id} actionStatus={a.status} /> : null}
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
  const q = useQuery({
    queryKey: ['edits', projectId, action.id],
    queryFn: () => data<Edit[]>('POST', `/projects/${projectId}/actions/${action.id}/enrich-content`),
    enabled: false,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60 * 60_000,
  });
  const edits = q.data;
  return (
    <div class="page-edits" data-edits={edits ? edits.length : ''}>
      <div class="card-head">
        <h3>Page edits</h3>
        {edits?.length ? (
          <CsvButton
            filename={`edits-${action.id}.csv`}
            label="Download edits CSV"
            header={['section', 'type', 'signal', 'before', 'after', 'reason']}
            rows={() => edits.map((e) => [e.section, e.type, e.signal, e.before, e.after, e.reason])}
          />
        ) : null}
      </div>
      <p>Page: {url ? <OutLink href={url} /> : <span class="muted">no URL target (edits need one)</span>}</p>
      <p>
        <button type="button" disabled={!canWrite || !url || q.isFetching} onClick={() => void q.refetch()}>
          {edits ? 'Suggest edits again' : 'Suggest edits'}
        </button>{' '}
        <span class="muted small">{canWrite ? 'Reads the page as it is now; this can take 10 to 20 seconds.' : 'Read-only session: an admin asks for edits.'}</span>
      </p>
      {q.isFetching ? <Loading what="Reading the page and writing edits" /> : null}
      <ErrorBox error={q.error} />
      {edits && !edits.length ? <Empty>The writer has no edit to suggest for this page.</Empty> : null}
      {edits?.map((e, i) => (
        <article key={i} class="edit" data-edit={i} data-signal={e.signal}>
          <h4>{e.section}</h4>
          <p class="muted small">
            <span class="tag">{e.type}</span> <span class="tag">{e.signal.replace(/_/g, ' ')}</span> {e.reason}
          </p>
          <TextDiff before={e.type === 'insert' ? null : e.before} after={e.type === 'delete' ? null : e.after} />
          {e.after ? <CopyButton text={e.after} label="Copy the proposed text" /> : null}
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
  const q = useQuery({
    queryKey: ['forum-draft', projectId, action.id],
    queryFn: () => data<ForumDraft>('POST', `/projects/${projectId}/actions/${action.id}/enrich-forum`),
    enabled: false,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60 * 60_000,
  });
  const d = q.data;
  const [text, setText] = useState('');
  useEffect(() => setText(d?.comment ?? ''), [d]);
  const title = d?.thread_title ?? str(params.thread_title);
  const url = d?.thread_url ?? threadUrl;
  return (
    <div class="forum-draft" data-forum-draft={d ? 'ready' : ''}>
      <h3>Forum reply</h3>
      <p>
        Thread: {title ? <strong class="wrap">{title}</strong> : null} {url ? <OutLink href={url} /> : <span class="muted">no thread URL</span>}
      </p>
      <p>
        <button type="button" disabled={!canWrite || !url || q.isFetching} onClick={() => void q.refetch()}>
          {d ? 'Draft again' : 'Draft a reply'}
        </button>{' '}
        {!canWrite ? <span class="muted small">Read-only session: an admin drafts replies.</span> : null}
      </p>
      {q.isFetching ? <Loading what="Reading the thread and drafting" /> : null}
      <ErrorBox error={q.error} />
      {d ? (
        <>
          <Field label="Drafted reply" hint={`${words(text)} words. Edit it here if you like, then copy it into the thread.`}>
            <textarea class="doc-edit" value={text} onInput={(e) => setText(e.currentTarget.value)} />
          </Field>
          <CopyButton text={text} label="Copy the reply" />
        </>
      ) : null}
    </div>
  );
}
