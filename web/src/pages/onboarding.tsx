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
  const projectInfo = project.data;
  const ready = projectInfo?.bootstrap_status === 'completed';
  return (
    <>
      <Section title="Setting up">
        <div role="status" aria-live="polite" data-bootstrap={projectInfo?.bootstrap_status ?? 'pending'}>
          {!projectInfo ? <Loading what="Starting" /> : null}
          {projectInfo?.bootstrap_status === 'initializing' ? (
            <p>
              <progress aria-label="Setting up the project" /> Reading {projectInfo.website_url}, writing prompts and asking the AI engines: the first answers arrive within a minute.
            </p>
          ) : null}
          {ready ? (
            <p>
              {projectInfo.name} is ready: review what Sightline found below, then <Link href={`/projects/${projectInfo.id}`}>open its overview</Link>.
            </p>
          ) : null}
          {projectInfo?.bootstrap_status === 'error' ? <p class="error">Setting up failed: {projectInfo.bootstrap_error ?? 'no reason given'}</p> : null}
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
    mutationFn: (request: { method: string; path: string; body?: unknown }) => data(request.method, request.path, request.body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['competitors', projectId] });
      void queryClient.invalidateQueries({ queryKey: ['prompts', projectId] });
    },
  });
  const rivals = (competitors.data?.active_competitors ?? []).filter((activeCompetitor) => !activeCompetitor.is_own_brand);
  const list = prompts.data?.prompts ?? [];
  return (
    <>
      <Section title="Competitors found in the answers">
        {competitors.isPending ? <Loading /> : null}
        {competitors.data && !rivals.length ? <Empty>No competitor named in the first answers: add some from the suggestions below or on the Competitors page.</Empty> : null}
        <ul class="accept-list" aria-label="Competitors tracked">
          {rivals.map((rival) => (
            <li key={rival.competitor_id}>
              <span>
                <strong>{rival.name}</strong> <span class="muted small">{rival.website}</span>
              </span>
              <button type="button" class="secondary small" disabled={!canWrite || write.isPending} onClick={() => write.mutate({ method: 'DELETE', path: `/projects/${projectId}/competitors/${rival.competitor_id}` })}>
                Remove {rival.name}
              </button>
            </li>
          ))}
        </ul>
      </Section>
      <Suggestions projectId={projectId} onAdded={() => void queryClient.invalidateQueries({ queryKey: ['competitors', projectId] })} />
      <Section title="Prompts">
        {prompts.isPending ? <Loading /> : null}
        <ul class="accept-list" aria-label="Prompts written for the brand">
          {list.map((suggestion) => (
            <li key={suggestion.id} data-prompt-type={suggestion.prompt_type}>
              <span>
                {suggestion.content} <span class="muted small">{suggestion.prompt_type === 'active' ? 'tracked daily' : 'suggested'}</span>
              </span>
              {suggestion.prompt_type === 'active' ? null : (
                <button type="button" class="small" disabled={!canWrite || write.isPending} onClick={() => write.mutate({ method: 'PATCH', path: `/projects/${projectId}/prompts/${suggestion.id}`, body: { promptType: 'Active' } })}>
                  Accept
                </button>
              )}
            </li>
          ))}
        </ul>
        <ErrorBox error={write.error} />
      </Section>
      <Section title="First answers" actions={<Link href={`/projects/${projectId}/answers`}>All answers</Link>}>
        {feed.isPending ? <Loading what="Loading answers" shape="lines" /> : null}
        <ErrorBox error={feed.error} />
        {feed.data && !feed.data.items.length ? <Empty>No answers yet.</Empty> : null}
        {feed.data?.items.map((chat) => (
          <AnswerArticle key={chat.id} chat={chat} brands={brands} showPrompt />
        ))}
      </Section>
    </>
  );
}
