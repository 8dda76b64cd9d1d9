import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Link, match, navigate, useLocation } from '../router';
import { Empty, ErrorBox, Loading } from '../ui';
import { windowOf } from '../window';
import { overviewQueries } from './overview-data';
import { ProjectList } from './projects';

// Every page but the projects list (the first page after signing in) is its own chunk,
// loaded on first visit (dynamic import): the first page's script carries neither the
// other pages nor uPlot. prefetchRoute starts a page's chunk and, for the overview, its
// first requests as soon as the URL is known, in parallel with GET /session.

type Loader<P> = () => Promise<ComponentType<P>>;
interface LazyPage<P> {
  (props: P): preact.JSX.Element;
  preload(): Promise<unknown>;
}

function lazyPage<P extends object>(load: Loader<P>): LazyPage<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<unknown> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (c) => {
        loaded = c;
      },
      (err) => {
        pending = null;
        throw err;
      },
    ));
  const Page = (props: P) => {
    // The component as this instance first saw it: if the chunk arrives between that render
    // and the effect, the effect still sets it (no page stuck on "Loading the page").
    const [C, setC] = useState<ComponentType<P> | null>(() => loaded);
    const [error, setError] = useState<unknown>(null);
    useEffect(() => {
      if (!C) preload().then(() => setC(() => loaded), setError);
    }, []);
    if (C) return <C {...props} />;
    if (error) return <ErrorBox error={new Error('This page could not be loaded (is the network down, or was Sightline updated?). Reload the page.')} />;
    return <Loading what="Loading the page" />;
  };
  return Object.assign(Page, { preload });
}

const Overview = lazyPage(() => import('./overview').then((m) => m.Overview));
const Prompts = lazyPage(() => import('./prompts').then((m) => m.Prompts));
const PromptDetail = lazyPage(() => import('./prompt-detail').then((m) => m.PromptDetail));
const Competitors = lazyPage(() => import('./competitors').then((m) => m.Competitors));
const Sources = lazyPage(() => import('./sources').then((m) => m.Sources));
const Actions = lazyPage(() => import('./actions').then((m) => m.Actions));
const ProjectSettings = lazyPage(() => import('./project-settings').then((m) => m.ProjectSettings));
const Settings = lazyPage(() => import('./settings').then((m) => m.Settings));
const Members = lazyPage(() => import('./members').then((m) => m.Members));
const Audit = lazyPage(() => import('./audit').then((m) => m.Audit));
const Crawlers = lazyPage(() => import('./crawlers').then((m) => m.Crawlers));
const SiteAuditPage = lazyPage(() => import('./site-audit').then((m) => m.SiteAuditPage));
const Answers = lazyPage(() => import('./answers').then((m) => m.Answers));
const Alerts = lazyPage(() => import('./alerts').then((m) => m.Alerts));

/** Starts the chunk (and, for the overview, the first requests) of the page at `path`. */
export function prefetchRoute(queryClient: QueryClient, path: string, query: URLSearchParams): void {
  let m: Record<string, string> | null;
  const quiet = (p: Promise<unknown>) => void p.catch(() => {});
  if ((m = match('/projects/:id', path))) {
    quiet(Overview.preload());
    const q = overviewQueries(m.id, windowOf(query));
    quiet(queryClient.prefetchQuery(q.project));
    quiet(queryClient.prefetchQuery(q.summary));
    quiet(queryClient.prefetchQuery(q.vis));
  } else if (path === '/settings') quiet(Settings.preload());
  else if (path === '/team') quiet(Members.preload());
  else if (path === '/team/audit') quiet(Audit.preload());
  else if (match('/projects/:id/answers', path)) quiet(Answers.preload());
  else if (match('/projects/:id/prompts', path)) quiet(Prompts.preload());
  else if (match('/projects/:id/prompts/:pid', path)) quiet(PromptDetail.preload());
  else if (match('/projects/:id/competitors', path)) quiet(Competitors.preload());
  else if (match('/projects/:id/sources', path)) quiet(Sources.preload());
  else if (match('/projects/:id/actions', path)) quiet(Actions.preload());
  else if (match('/projects/:id/alerts', path)) quiet(Alerts.preload());
  else if (match('/projects/:id/settings', path)) quiet(ProjectSettings.preload());
}

/** The page of the current path. */
export function Pages() {
  const { path } = useLocation();
  let m: Record<string, string> | null;
  if (path === '/projects' || path === '/') return <ProjectList />;
  if (path === '/settings') return <Settings />;
  if (path === '/team') return <Members />;
  if (path === '/team/audit') return <Audit />;
  if (path === '/team') return <Members />;
  if (path === '/team/audit') return <Audit />;
  if ((m = match('/projects/:id', path))) return <Overview projectId={m.id} />;
  if ((m = match('/projects/:id/answers', path))) return <Answers projectId={m.id} />;
  if ((m = match('/projects/:id/prompts', path))) return <Prompts projectId={m.id} />;
  if ((m = match('/projects/:id/prompts/:pid', path))) return <PromptDetail projectId={m.id} promptId={m.pid} />;
  if ((m = match('/projects/:id/competitors', path))) return <Competitors projectId={m.id} />;
  if ((m = match('/projects/:id/sources', path))) return <Sources projectId={m.id} />;
  if ((m = match('/projects/:id/actions', path))) return <Actions projectId={m.id} />;
  if ((m = match('/projects/:id/alerts', path))) return <Alerts projectId={m.id} />;
  if ((m = match('/projects/:id/settings', path))) return <ProjectSettings projectId={m.id} />;
  if ((m = match('/projects/:id/crawlers', path))) return <Crawlers projectId={m.id} />;
  if ((m = match('/projects/:id/audit', path))) return <SiteAuditPage projectId={m.id} />;
  // The answers feed moved to /answers (the old /chats links keep working).
  if ((m = match('/projects/:id/chats', path))) return <Redirect to={`/projects/${m.id}/answers`} />;
  return <NotFound />;
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, true), [to]);
  return <Loading what="Opening the page" />;
}

/** Any path the dashboard does not have: said plainly, with a way back. */
export function NotFound() {
  return (
    <div data-not-found>
      <h1>Page not found</h1>
      <Empty>
        There is no page at this address. <Link href="/projects">Go to your projects</Link>
      </Empty>
    </div>
  );
}
