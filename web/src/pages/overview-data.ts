import { get } from '../api';
import type { ViewWindow } from '../window';
import type { ProjectDetail } from './projects';

// The overview's data: its types and requests, apart from the page so the app's first
// script can start them (see prefetchRoute) without carrying the page's code.

type Ci = [number, number] | null;
export interface Metrics {
  visibility: number | null;
  sentiment: number | null;
  position: number | null;
  mention_count: number | null;
  responses: number;
  visibility_ci: Ci;
  position_ci: Ci;
  sentiment_ci: Ci;
  share_of_voice: number;
  share_of_voice_ci: Ci;
}
export interface Competitor {
  competitor_id: string;
  name: string;
  website: string;
  is_own_brand: boolean;
  metrics: Metrics | null;
}
export interface Visibility {
  dates: string[];
  series: Array<{ competitor_id: string; name: string; is_own_brand: boolean; visibility: Array<number | null>; visibility_ci: Ci[]; responses: number[] }>;
}

export const competitorsOf = (projectId: string, q: string) => get<{ active_competitors: Competitor[] }>(`/projects/${projectId}/competitors${q}`);
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

