import { get } from '../api';
import type { Data, Item, Schemas } from '../api-types';
import type { ViewWindow } from '../window';
import type { ProjectDetail } from './projects';

// The overview's data: its types and requests, apart from the page so the app's first
// script can start them (see prefetchRoute) without carrying the page's code.

export type Metrics = Schemas['CompetitorMetrics'];
export type Competitor = Item<Data<'/v1/projects/{project_id}/competitors'>['active_competitors']>;
export type Visibility = Data<'/v1/projects/{project_id}/visibility'>;
export type OverviewSummary = Data<'/v1/projects/{project_id}/overview/summary'>;

export const competitorsOf = (projectId: string, search: string) => get<Data<'/v1/projects/{project_id}/competitors'>>(`/projects/${projectId}/competitors${search}`);
/**
 * The overview's requests: the project, the chart's series and one summary (this window's
 * and the previous window's competitors, the own brand per engine). With GET /session that
 * is every request an overview load makes (4), so a team browsing together never meets its
 * rate limit. The app starts them (prefetchQuery) as soon as its script runs on an overview
 * URL, beside GET /session, instead of after the session and the page's first render.
 */
export function overviewQueries(projectId: string, viewWindow: ViewWindow) {
  return {
    project: { queryKey: ['project', projectId], queryFn: () => get<ProjectDetail>(`/projects/${projectId}`) },
    summary: { queryKey: ['overview-summary', projectId, viewWindow.query], queryFn: () => get<OverviewSummary>(`/projects/${projectId}/overview/summary${viewWindow.query}`) },
    vis: { queryKey: ['visibility', projectId, viewWindow.query], queryFn: () => get<Visibility>(`/projects/${projectId}/visibility${viewWindow.query}`) },
  };
}
