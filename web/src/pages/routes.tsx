import { match, useLocation } from '../router';
import { Empty } from '../ui';
import { Actions } from './actions';
import { Audit } from './audit';
import { Members } from './members';
import { Competitors } from './competitors';
import { Overview } from './overview';
import { ProjectList } from './projects';
import { ProjectSettings } from './project-settings';
import { PromptDetail } from './prompt-detail';
import { Prompts } from './prompts';
import { Settings } from './settings';
import { Sources } from './sources';

/** The page of the current path. */
export function Pages() {
  const { path } = useLocation();
  let m: Record<string, string> | null;
  if (path === '/projects' || path === '/') return <ProjectList />;
  if (path === '/settings') return <Settings />;
  if (path === '/team') return <Members />;
  if (path === '/team/audit') return <Audit />;
  if ((m = match('/projects/:id', path))) return <Overview projectId={m.id} />;
  if ((m = match('/projects/:id/prompts', path))) return <Prompts projectId={m.id} />;
  if ((m = match('/projects/:id/prompts/:pid', path))) return <PromptDetail projectId={m.id} promptId={m.pid} />;
  if ((m = match('/projects/:id/competitors', path))) return <Competitors projectId={m.id} />;
  if ((m = match('/projects/:id/sources', path))) return <Sources projectId={m.id} />;
  if ((m = match('/projects/:id/actions', path))) return <Actions projectId={m.id} />;
  if ((m = match('/projects/:id/settings', path))) return <ProjectSettings projectId={m.id} />;
  if (match('/projects/:id/:tab', path)) return <Empty>This page is not built yet.</Empty>;
  return <Empty>Page not found.</Empty>;
}
