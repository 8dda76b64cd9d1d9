import type { z } from 'zod';
import type { Tx } from '../../store/index.js';
import type { ProjectDetail as ProjectDetailSchema } from './schema.js';

/**
 * A project as every service and job reads it: the ownership check (and the per-process
 * cache it keeps), the edits, the collection runs. One column list, PROJECT_COLUMNS.
 */
export interface ProjectRow {
  id: string;
  team_id: string;
  name: string;
  brand_name: string | null;
  website_url: string | null;
  domain: string | null;
  location: string | null;
  language: string | null;
  brand_aliases: string[];
  /** The engines as stored; none means the default ones (trackedProviders in service.ts). */
  providers: string[];
  /** As set on the project; a run asks min(this, the team plan's maximum). */
  samples_per_run: number;
  /** `fixed` or `adaptive` (collection/adaptive-sampling.ts). */
  sampling: string;
  /** The ± points adaptive sampling aims each prompt's interval at. */
  sampling_margin: number;
  status: string;
  /** Where the bootstrap callback goes, when one was given. */
  webhook_url: string | null;
  /** Its rollups keep market '*' rows (rollups/market-totals.ts): an all-market read reads those. */
  market_totals: boolean;
  created_at: Date;
}

/** A project with its owning team's plan: what work done for the team (runs, alerts) reads. */
export interface ProjectWithPlan extends ProjectRow {
  plan: string;
}

/** GET /projects/{id}'s answer: the project as shown, with how its bootstrap and callback went (the contract's schema). */
export type ProjectDetail = z.infer<typeof ProjectDetailSchema>;

/** A project's answer as the per-process cache keeps it: the owning team is checked on every hit. */
export interface CachedProjectDetail {
  teamId: string;
  detail: Readonly<ProjectDetail>;
}

const FIELDS = [
  'id',
  'team_id',
  'name',
  'brand_name',
  'website_url',
  'domain',
  'location',
  'language',
  'brand_aliases',
  'providers',
  'samples_per_run',
  'sampling',
  'sampling_margin',
  'status',
  'webhook_url',
  'market_totals',
  'created_at',
] as const satisfies ReadonlyArray<keyof ProjectRow>;

/** The columns of a ProjectRow, for `select … from projects` and `returning`. */
export const PROJECT_COLUMNS = FIELDS.join(', ');
/** PROJECT_COLUMNS of the table under `alias`, for a query that joins projects to another table. */
export const projectColumnsOf = (alias: string): string => FIELDS.map((f) => `${alias}.${f}`).join(', ');

/** The project with its team's plan, read fresh; null when there is no such project. */
export async function loadProjectWithPlan(tx: Tx, projectId: string): Promise<ProjectWithPlan | null> {
  const { rows } = await tx.query<ProjectWithPlan>(
    `select ${FIELDS.map((f) => `p.${f}`).join(', ')}, t.plan from projects p join teams t on t.id = p.team_id where p.id = $1`,
    [projectId],
  );
  return rows[0] ?? null;
}

/**
 * Whatever this process caches of the project is stale (an edit, a deletion, its bootstrap
 * ended, its callback was delivered or failed): the next read goes to the store.
 */
export function forgetProject(caches: { projectCache: { delete(key: string): void }; projectDetails: { delete(key: string): void } }, projectId: string): void {
  const key = projectId.toLowerCase();
  caches.projectCache.delete(key);
  caches.projectDetails.delete(key);
}
