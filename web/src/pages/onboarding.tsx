import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { data, get } from '../api';
import type { Data } from '../api-types';
import { AnswerArticle, useTrackedBrands } from '../answer';
import { Link } from '../router';
import { useCanWrite } from '../session';
import { Empty, ErrorBox, Loading, Section } from '../ui';
import type { ProjectDetail } from './projects';
import { Suggestions } from './suggestions';
import './onboarding.css';

type Competitors = Data<'/v1/projects/{project_id}/competitors'>;
type Prompts = Data<'/v1/projects/{project_id}/prompts'>;
type Feed = Data<'/v1/projects/{project_id}/chats'>;

/**
 * The steps after "Create project": the bootstrap's progress (polled each second: the
 * simulated engines answer at once, real ones within a minute), then what it found to
 * accept or drop (competitors, prompts), further competitor suggestions from the answers,
 * and the first answers themselves.
 */
export function Onboarding({ projectId }: { projectId: string }) {
  const project = useQuery({
    queryKey: ['project', projectId],
    queryFn: () => get<ProjectDetail>(`/projects/${projectId}`),
    refetchInterval: (query) => (query.state.data?.bootstrap_status === 'initializing' || !query.state.data ? 1000 : false),
  });
  const p = project.data;
  const ready = p?.bootstrap_status === 'completed';
  return (
    <>
      <Section title="Setting up">
        <div role="status" aria-live="polite" data-bootstrap={p?.bootstrap_status ?? 'pending'}>
          {!p ? <Loading what="Starting" /> : null}
          {p?.bootstrap_status === 'initializing' ? (
            <p>
              <progress aria-label="Setting up the project" /> Reading {p.website_url}, writing prompts and asking the AI engines: the first answers arrive within a minute.
            </p>
          ) : null}
          {ready ? (
            <p>
              {p.name} is ready: review what Sightline found below, then <Link href={`/projects/${p.id}`}>open its overview</Link>.
            </p>
          ) : null}
          {p?.bootstrap_status === 'error' ? <p class="error">Setting up failed: {p.bootstrap_error ?? 'no reason given'}</p> : null}
        </div>
        <ErrorBox error={project.error} />
      </Section>
      {ready ? <Found projectId={projectId} /> : null}
    </>
  );
}

function Found({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const canWrite = useCanWrite();
  const competitors = useQuery({ queryKey: ['competitors', projectId, ''], queryFn: () => get<Competitors>(`/projects/${projectId}/competitors`) });
  const prompts = useQuery({ queryKey: ['prompts', projectId, ''], queryFn: () => get<Prompts>(`/projects/${projectId}/prompts`) });
  const feed = useQuery({ queryKey: ['project-chats', projectId, 'first'], queryFn: () => get<Feed>(`/projects/${projectId}/chats?page_size=3`) });
  const brands = useTrackedBrands(projectId);
  const write = useMutation({
    mutationFn: (r: { method: string; path: string; body?: unknown }) => data(r.method, r.path, r.body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['competitors', projectId] });
      void queryClient.invalidateQueries({ queryKey: ['prompts', projectId] });
    },
  });
  const rivals = (competitors.data?.active_competitors ?? []).filter((c) => !c.is_own_brand);
  const list = prompts.data?.prompts ?? [];
  return (
    <>
      <Section title="Competitors found in the answers">
        {competitors.isPending ? <Loading /> : null}
        {competitors.data && !rivals.length ? <Empty>No competitor named in the first answers: add some from the suggestions below or on the Competitors page.</Empty> : null}
        <ul class="accept-list" aria-label="Competitors tracked">
          {rivals.map((c) => (
            <li key={c.competitor_id}>
              <span>
                <strong>{c.name}</strong> <span class="muted small">{c.website}</span>
              </span>
              <button type="button" class="secondary small" disabled={!canWrite || write.isPending} onClick={() => write.mutate({ method: 'DELETE', path: `/projects/${projectId}/competitors/${c.competitor_id}` })}>
                Remove {c.name}
              </button>
            </li>
          ))}
        </ul>
      </Section>
      <Suggestions projectId={projectId} onAdded={() => void queryClient.invalidateQueries({ queryKey: ['competitors', projectId] })} />
      <Section title="Prompts">
        {prompts.isPending ? <Loading /> : null}
        <ul class="accept-list" aria-label="Prompts written for the brand">
          {list.map((p) => (
            <li key={p.id} data-prompt-type={p.prompt_type}>
              <span>
                {p.content} <span class="muted small">{p.prompt_type === 'active' ? 'tracked daily' : 'suggested'}</span>
              </span>
              {p.prompt_type === 'active' ? null : (
                <button type="button" class="small" disabled={!canWrite || write.isPending} onClick={() => write.mutate({ method: 'PATCH', path: `/projects/${projectId}/prompts/${p.id}`, body: { promptType: 'Active' } })}>
                  Accept
                </button>
              )}
            </li>
          ))}
        </ul>
        <ErrorBox error={write.error} />
      </Section>
      <Section title="First answers" actions={<Link href={`/projects/${projectId}/answers`}>All answers</Link>}>
        {feed.isPending ? <Loading what="Loading answers" /> : null}
        <ErrorBox error={feed.error} />
        {feed.data && !feed.data.items.length ? <Empty>No answers yet.</Empty> : null}
        {feed.data?.items.map((c) => (
          <AnswerArticle key={c.id} chat={c} brands={brands} showPrompt />
        ))}
      </Section>
    </>
  );
}
