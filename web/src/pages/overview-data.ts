import { get } from '../api';
import type { Data, Item, Schemas } from '../api-types';
import type { ViewWindow } from '../window';
import type { ProjectDetail } from './projects';

// The overview's data: its types and requests, apart from the page so the app's first
// script can start them (see prefetchRoute) without carrying the page's code.

export type Metrics = Schemas['CompetitorMetrics'];
export type Competitor = Item<Data<'/v1/projects/{project_id}/competitors'>['active_competitors']>;
export type Visibility = Data<'/v1/projects/{project_id}/visibility'>;

export const competitorsOf = (projectId: string, q: string) => get<Data<'/v1/projects/{project_id}/competitors'>>(`/projects/${projectId}/competitors${q}`);
/**
 * The overview's first requests. The app starts them (prefetchQuery) as soon as its script
 * runs on an overview URL, beside GET /session, instead of after the session and the
 * page's first render: the charts then wait for the slowest answer only.
 */
export function overviewQueries(projectId: string, w: ViewWindow) {
  return {
    project: { queryKey: ['project', projectId], queryFn: () => get<ProjectDetail>(`/projects/${projectId}`) },
    now: { queryKey: ['competitors', projectId, w.query], queryFn: () => competitorsOf(projectId, w.query) },
    vis: { queryKey: ['visibility', projectId, w.query], queryFn: () => get<Visibility>(`/projects/${projectId}/visibility${w.query}`) },
    prev: { queryKey: ['competitors', projectId, w.prevQuery], queryFn: () => competitorsOf(projectId, w.prevQuery) },
  };
}

