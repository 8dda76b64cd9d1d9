import { useQuery } from '@tanstack/react-query';
import { get } from './api';
import type { ProjectDetail } from './pages/projects';
import { useSession } from './session';
import { DEFAULT_PROVIDERS, PROVIDER_NAMES } from './window';

// On every page of a project: when any engine the project tracks is simulated here, its
// figures are invented (deterministic, but not what the engine says), and competitors found
// in them are not real brands. Say so, and name the setting that makes each engine live.
// The project's record is the overview's and settings' query (shared cache), and which
// engines are live comes with the session, so this notice costs no request of its own there.

export function SimulatedNotice({ projectId }: { projectId: string }) {
  const { session } = useSession();
  const project = useQuery({ queryKey: ['project', projectId], queryFn: () => get<ProjectDetail>(`/projects/${projectId}`) });
  const tracked: readonly string[] = project.data?.providers?.length ? project.data.providers : DEFAULT_PROVIDERS;
  const simulated = (session?.engines ?? []).filter((engine) => engine.mode === 'simulated' && tracked.includes(engine.provider));
  if (!project.data || simulated.length === 0) return null;
  const keys = [...new Set(simulated.map((engine) => engine.live_with))];
  const all = simulated.length === tracked.length;
  return (
    <div class="notice warn" role="note" data-simulated={simulated.map((engine) => engine.provider).join(',')}>
      <strong>{all ? 'Every engine of this project is simulated' : 'Some engines of this project are simulated'}:</strong>{' '}
      {simulated.map((engine) => PROVIDER_NAMES[engine.provider] ?? engine.provider).join(', ')}. Their answers and figures are simulated
      (made up by Sightline for trying it out), and the brands named in them are not real competitors. To ask the real
      engines, the operator sets {keys.length === 1 ? 'the key' : 'the keys'} {keys.map((envKey, i) => (
        <span key={envKey}>
          {i ? ', ' : ''}
          <code>{envKey}</code>
        </span>
      ))}{' '}
      in the service's environment and restarts it.
    </div>
  );
}
