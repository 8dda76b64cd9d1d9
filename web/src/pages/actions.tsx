import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { data, get } from '../api';
import type { Data } from '../api-types';
import { CsvButton } from '../csv';
import { Link, navigate, useLocation } from '../router';
import { useCanWrite } from '../session';
import { Empty, ErrorBox, Loading, Section } from '../ui';
import { TopBar } from '../top-bar';
import { type Action, ActionDetail, isArticle, kindOf } from './action-detail';
import { WorkflowBadge } from './workflow';

type Task = Data<'/v1/projects/{project_id}/actions/tasks/{task_id}'>;

const COLUMNS: Array<[string, string]> = [
  ['suggested', 'Suggested'],
  ['accepted', 'Accepted'],
  ['in_progress', 'In progress'],
  ['completed', 'Completed'],
  ['ignored', 'Ignored'],
];
/** The moves the API allows from each status (modules/actions TRANSITIONS). */
const MOVES: Record<string, Array<[string, string]>> = {
  suggested: [
    ['accept', 'Accept'],
    ['ignore', 'Ignore'],
  ],
  accepted: [['start', 'Start']],
  in_progress: [['complete', 'Complete']],
  completed: [],
  ignored: [['reopen', 'Reopen']],
};

export function Actions({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const list = useQuery({ queryKey: ['actions', projectId], queryFn: () => get<Action[]>(`/projects/${projectId}/actions`) });
  const [taskId, setTaskId] = useState<string | null>(null);
  const task = useQuery({
    queryKey: ['task', taskId],
    enabled: !!taskId,
    queryFn: () => get<Task>(`/projects/${projectId}/actions/tasks/${taskId}`),
    refetchInterval: (query) => (query.state.data?.status === 'running' || !query.state.data ? 1000 : false),
  });
  const taskStatus = task.data?.status;
  useEffect(() => {
    if (taskStatus === 'completed' || taskStatus === 'failed') void queryClient.invalidateQueries({ queryKey: ['actions', projectId] });
  }, [taskStatus, projectId, queryClient]);
  const move = useMutation({
    mutationFn: (x: { id: string; op: string }) => data('PATCH', `/projects/${projectId}/actions/${x.id}/${x.op}`, {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['actions', projectId] }),
  });
  const recommend = useMutation({
    mutationFn: () => data<Data<'/v1/projects/{project_id}/actions/recommend', 'post'>>('POST', `/projects/${projectId}/actions/recommend`, {}),
    onSuccess: (started) => setTaskId(started.task_id),
  });
  const all = list.data ?? [];
  // The opened action is kept in the URL (?action=id), so a link opens the same one.
  const { query } = useLocation();
  const openId = query.get('action');
  const opened = openId ? all.find((action) => action.id === openId) : undefined;
  const hrefOf = (id: string | null) => {
    const params = new URLSearchParams(query);
    if (id) params.set('action', id);
    else params.delete('action');
    const encoded = params.toString();
    return `/projects/${projectId}/actions${encoded ? `?${encoded}` : ''}`;
  };
  const setOpen = (id: string | null) => navigate(hrefOf(id));
  // Closing the panel (Escape, its button, the browser's back) gives the focus back to the
  // action's card, in the commit that removes the panel, unless something else took it.
  const lastOpenId = useRef<string | null>(null);
  useLayoutEffect(() => {
    const closed = lastOpenId.current;
    lastOpenId.current = openId;
    if (openId || !closed) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    document.querySelector<HTMLElement>(`[data-action="${closed}"] .open-action`)?.focus();
  }, [openId]);
  return (
    <>
      <TopBar title="Actions" />
      <Section
        title="Recommendations"
        actions={
          <CsvButton
            filename="actions.csv"
            header={['id', 'title', 'status', 'priority', 'category', 'effort', 'expected_impact_min', 'expected_impact_max', 'execution_type', 'group', 'targets', 'created_at', 'updated_at']}
            rows={() =>
              all.map((action) => [
                action.id,
                action.title,
                action.status,
                action.priority,
                action.category,
                action.effort,
                action.expected_impact_min,
                action.expected_impact_max,
                action.execution.type,
                action.group,
                action.targets.map((target) => target.value).join(' '),
                action.created_at,
                action.updated_at,
              ])
            }
          />
        }
      >
        <button type="button" disabled={!canWrite || recommend.isPending || task.data?.status === 'running'} onClick={() => recommend.mutate()}>
          Recommend actions
        </button>{' '}
        <span role="status" aria-live="polite" data-task={task.data?.status ?? ''}>
          {taskId && !task.data ? 'Starting…' : null}
          {task.data?.status === 'running' ? 'Analysing the last 30 days…' : null}
          {task.data?.status === 'completed' ? `Done: ${task.data.item_count} action(s) derived.` : null}
          {task.data?.status === 'failed' ? <span class="error">Failed: {task.data.error}</span> : null}
        </span>
        <ErrorBox error={recommend.error} />
        <ErrorBox error={move.error} />
      </Section>
      {list.isPending ? <Loading /> : null}
      <ErrorBox error={list.error} />
      {list.data && all.length === 0 ? <Empty>No action yet: ask for recommendations above.</Empty> : null}
      {openId && list.data && !opened ? <ErrorBox error={new Error('This action is not in the project (it may have been removed).')} /> : null}
      {opened ? <ActionDetail key={opened.id} projectId={projectId} action={opened} all={all} onClose={() => setOpen(null)} /> : null}
      {all.length ? (
        <div class="board">
          {COLUMNS.map(([status, label]) => {
            const items = all.filter((action) => action.status === status);
            return (
              <section key={status} class="column" aria-label={label} data-column={status}>
                <h2>
                  {label} <span class="muted small">({items.length})</span>
                </h2>
                {items.map((action) => (
                  <article key={action.id} class={`action-card${action.id === openId ? ' selected' : ''}`} data-action={action.id}>
                    <h3>
                      <Link class="open-action" href={hrefOf(action.id)} aria-current={action.id === openId ? 'true' : undefined}>
                        {action.title}
                      </Link>
                    </h3>
                    <p class="muted small">
                      {action.priority} · {action.category.replace(/_/g, ' ')}
                      {action.effort ? ` · ${action.effort} effort` : ''}
                    </p>
                    {kindOf(action) ? <p class="small"><span class="kind">{kindOf(action)}</span></p> : null}
                    {isArticle(action) && action.status === 'in_progress' ? <WorkflowBadge projectId={projectId} actionId={action.id} /> : null}
                    <p class="small">{action.description}</p>
                    <div class="row-actions">
                      {MOVES[action.status]?.map(([operation, name]) => (
                        <button key={operation} type="button" class="secondary small" disabled={!canWrite || move.isPending} onClick={() => move.mutate({ id: action.id, op: operation })}>
                          {name}
                        </button>
                      ))}
                    </div>
                  </article>
                ))}
              </section>
            );
          })}
        </div>
      ) : null}
    </>
  );
}
