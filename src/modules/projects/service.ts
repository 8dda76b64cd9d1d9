import type { RequestContext } from '../../context.js';
import { Forbidden, NotFound } from '../../lib/errors.js';
import { planOf } from '../../lib/plans.js';
import { registrableDomain } from '../../lib/url.js';
import type { Tx } from '../../store/index.js';
import { iso } from '../common.js';
import type { ProjectRow } from './project-row.js';

export type { ProjectRow } from './project-row.js';
import { bootstrapJob } from '../../jobs/catalog.js';
import { assertDeliverableUrl } from '../deliveries/target.js';
import { bootstrapCallbackId } from '../deliveries/outbox.js';


const COLUMNS = `id, team_id, name, brand_name, website_url, domain, location, language, brand_aliases, status, created_at`;

export function presentProject(row: ProjectRow, withAliases: boolean) {
  return {
    id: row.id,
    name: row.name,
    brand_name: row.brand_name,
    website_url: row.website_url,
    location: row.location,
    language: row.language,
    brand_aliases: withAliases ? (row.brand_aliases ?? []) : [],
    created_at: iso(row.created_at),
  };
}

/**
 * The project, if the caller's team owns it. Every route under /projects/{id} calls this
 * first: another team's project is 403 and nothing under it is read or changed.
 */
export async function requireProject(ctx: RequestContext, projectId: string, tx: Tx = ctx.store): Promise<ProjectRow> {
  // Outside a transaction the row may come from the per-process cache: a project's team
  // never changes, and the fields shown here only change at its creation.
  const cacheable = tx === ctx.store;
  let row = cacheable ? ctx.projectCache.get(projectId) : undefined;
  if (!row) {
    const { rows } = await tx.query<ProjectRow>(`select ${COLUMNS} from projects where id = $1`, [projectId]);
    row = rows[0];
    if (row && cacheable) ctx.projectCache.set(projectId, row);
  }
  if (!row) throw new NotFound('Project not found');
  if (row.team_id !== ctx.auth.teamId) throw new Forbidden('Project does not belong to your team');
  return row;
}

export async function listProjects(ctx: RequestContext) {
  const { rows } = await ctx.store.query<ProjectRow>(
    `select ${COLUMNS} from projects where team_id = $1 order by created_at, id`,
    [ctx.auth.teamId],
  );
  return rows.map((r) => presentProject(r, false));
}

interface BootstrapState {
  status: 'initializing' | 'completed' | 'error';
  status_error: string | null;
  callback_status: 'pending' | 'delivered' | 'failed' | null;
}

/** The project with its bootstrap's state, read fresh (the cached row's status may be stale). */
export async function getProject(ctx: RequestContext, projectId: string) {
  const project = presentProject(await requireProject(ctx, projectId), true);
  const { rows } = await ctx.store.query<BootstrapState>(
    `select p.status, p.status_error, d.status as callback_status
       from projects p left join deliveries d on d.id = $2
      where p.id = $1`,
    [projectId, bootstrapCallbackId(projectId)],
  );
  const state = rows[0];
  return {
    ...project,
    bootstrap_status: state?.status ?? 'initializing',
    bootstrap_error: state?.status === 'error' ? (state.status_error ?? 'Bootstrap failed') : null,
    callback_status: state?.callback_status ?? null,
  };
}

export interface CreateProjectInput {
  brand_name: string;
  brand_url: string;
  webhook_url: string;
  language?: string;
  location?: string;
}

/** Creates the project and enqueues its bootstrap in the same transaction. */
export async function createProject(ctx: RequestContext, input: CreateProjectInput) {
  const limit = planOf(ctx.auth.plan).projects;
  await assertDeliverableUrl(ctx, 'webhook_url', input.webhook_url);
  return ctx.store.tx(async (tx) => {
    // Serialise creations of one team so two concurrent requests cannot both pass the limit.
    await tx.query(`select id from teams where id = $1 for update`, [ctx.auth.teamId]);
    const count = await tx.query<{ n: number }>(`select count(*)::int as n from projects where team_id = $1`, [ctx.auth.teamId]);
    if (count.rows[0].n >= limit) {
      // The spec fixes only the opening words. No project DELETE exists yet, so the text
      // offers the one way out there is; the project DELETE issue restores "Delete a project".
      throw new Forbidden(
        `You've reached the maximum number of projects for your plan (${limit}). Upgrade your plan to create more.`,
        'project_limit_reached',
      );
    }
    const website = new URL(input.brand_url).toString();
    const { rows } = await tx.query<{ id: string }>(
      `insert into projects (team_id, name, brand_name, website_url, domain, location, language, webhook_url, status)
       values ($1, $2, $2, $3, $4, $5, $6, $7, 'initializing') returning id`,
      [
        ctx.auth.teamId,
        input.brand_name,
        website,
        registrableDomain(website),
        input.location?.toUpperCase() ?? null,
        input.language?.toLowerCase() ?? null,
        input.webhook_url,
      ],
    );
    const projectId = rows[0].id;
    await ctx.jobs.send(bootstrapJob, { projectId }, { tx });
    return { project_id: projectId, status: 'initializing' as const };
  });
}

