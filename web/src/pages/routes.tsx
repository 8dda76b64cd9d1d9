import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Link, match, navigate, useLocation } from '../router';
import { Skeleton } from '../skeleton';
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
      (component) => {
        loaded = component;
      },
      (err) => {
        pending = null;
        throw err;
      },
    ));
  const Page = (props: P) => {
    // The component as this instance first saw it: if the chunk arrives between that render
    // and the effect, the effect still sets it (no page stuck on "Loading the page").
    const [PageComponent, setPageComponent] = useState<ComponentType<P> | null>(() => loaded);
    const [error, setError] = useState<unknown>(null);
    useEffect(() => {
      if (!PageComponent) preload().then(() => setPageComponent(() => loaded), setError);
    }, []);
    if (PageComponent) return <PageComponent {...props} />;
    if (error) return <ErrorBox error={new Error('This page could not be loaded (is the network down, or was Sightline updated?). Reload the page.')} />;
    return <Skeleton shape="page" what="Loading the page" />;
  };
  return Object.assign(Page, { preload });
}

const Overview = lazyPage(() => import('./overview').then((pageModule) => pageModule.Overview));
const Prompts = lazyPage(() => import('./prompts').then((pageModule) => pageModule.Prompts));
const PromptDetail = lazyPage(() => import('./prompt-detail').then((pageModule) => pageModule.PromptDetail));
const Competitors = lazyPage(() => import('./competitors').then((pageModule) => pageModule.Competitors));
const Sources = lazyPage(() => import('./sources').then((pageModule) => pageModule.Sources));
const Actions = lazyPage(() => import('./actions').then((pageModule) => pageModule.Actions));
const ProjectSettings = lazyPage(() => import('./project-settings').then((pageModule) => pageModule.ProjectSettings));
const Settings = lazyPage(() => import('./settings').then((pageModule) => pageModule.Settings));
const Members = lazyPage(() => import('./members').then((pageModule) => pageModule.Members));
const Audit = lazyPage(() => import('./audit').then((pageModule) => pageModule.Audit));
const Crawlers = lazyPage(() => import('./crawlers').then((pageModule) => pageModule.Crawlers));
const SiteAuditPage = lazyPage(() => import('./site-audit').then((pageModule) => pageModule.SiteAuditPage));
const Answers = lazyPage(() => import('./answers').then((pageModule) => pageModule.Answers));
const Alerts = lazyPage(() => import('./alerts').then((pageModule) => pageModule.Alerts));

/** Starts the chunk (and, for the overview, the first requests) of the page at `path`. */
export function prefetchRoute(queryClient: QueryClient, path: string, query: URLSearchParams): void {
  let params: Record<string, string> | null;
  const quiet = (promise: Promise<unknown>) => void promise.catch(() => {});
  if ((params = match('/projects/:id', path))) {
    quiet(Overview.preload());
    const queries = overviewQueries(params.id, windowOf(query));
    quiet(queryClient.prefetchQuery(queries.project));
    quiet(queryClient.prefetchQuery(queries.summary));
    quiet(queryClient.prefetchQuery(queries.vis));
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
  else if (match('/projects/:id/crawlers', path)) quiet(Crawlers.preload());
  else if (match('/projects/:id/audit', path)) quiet(SiteAuditPage.preload());
}

/** The page of the current path. */
export function Pages() {
  const { path } = useLocation();
  let params: Record<string, string> | null;
  if (path === '/projects' || path === '/') return <ProjectList />;
  if (path === '/settings') return <Settings />;
  if (path === '/team') return <Members />;
  if (path === '/team/audit') return <Audit />;
  if ((params = match('/projects/:id', path))) return <Overview projectId={params.id} />;
  if ((params = match('/projects/:id/answers', path))) return <Answers projectId={params.id} />;
  if ((params = match('/projects/:id/prompts', path))) return <Prompts projectId={params.id} />;
  if ((params = match('/projects/:id/prompts/:pid', path))) return <PromptDetail projectId={params.id} promptId={params.pid} />;
  if ((params = match('/projects/:id/competitors', path))) return <Competitors projectId={params.id} />;
  if ((params = match('/projects/:id/sources', path))) return <Sources projectId={params.id} />;
  if ((params = match('/projects/:id/actions', path))) return <Actions projectId={params.id} />;
  if ((params = match('/projects/:id/alerts', path))) return <Alerts projectId={params.id} />;
  if ((params = match('/projects/:id/settings', path))) return <ProjectSettings projectId={params.id} />;
  if ((params = match('/projects/:id/crawlers', path))) return <Crawlers projectId={params.id} />;
  if ((params = match('/projects/:id/audit', path))) return <SiteAuditPage projectId={params.id} />;
  // The answers feed moved to /answers (the old /chats links keep working).
  if ((params = match('/projects/:id/chats', path))) return <Redirect to={`/projects/${params.id}/answers`} />;
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
