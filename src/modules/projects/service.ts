import type { RequestContext } from '../../context.js';
import { bootstrapJob, reanalyseJob } from '../../jobs/catalog.js';
import { Forbidden, Invalid, NotFound } from '../../lib/errors.js';
import { DEFAULT_SAMPLING_MARGIN, planOf, type SamplingMode } from '../../lib/plans.js';
import { registrableDomain } from '../../lib/url.js';
import type { Tx } from '../../store/index.js';
import { iso } from '../common.js';
import { forgetProject, PROJECT_COLUMNS, projectColumnsOf, type ProjectDetail, type ProjectRow } from './project-row.js';
import type { PatchProjectInput } from './schema.js';
import { DEFAULT_PROJECT_PROVIDERS, PROVIDERS, type ProviderName } from '../../ports/providers/types.js';

export type { ProjectRow } from './project-row.js';
import { assertDeliverableUrl } from '../webhooks/target.js';
import { bootstrapCallbackId } from '../webhooks/outbox.js';


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
export async function requireProject(ctx: RequestContext, projectId: string, tx: Tx = ctx.store, fresh = false): Promise<ProjectRow> {
  // Outside a transaction the row may come from the per-process cache (the ownership check
  // of every project route): a project's team never changes. Its other fields can (PATCH),
  // so what is shown of them is read fresh.
  const cacheable = tx === ctx.store && !fresh;
  const key = projectId.toLowerCase(); // a UUID in any case names one project
  let row = cacheable ? ctx.projectCache.get(key) : undefined;
  if (!row) {
    const { rows } = await tx.query<ProjectRow>(`select ${PROJECT_COLUMNS} from projects where id = $1`, [projectId]);
    row = rows[0];
    if (row && tx === ctx.store) ctx.projectCache.set(key, row);
  }
  if (!row) throw new NotFound('Project not found');
  if (row.team_id !== ctx.auth.teamId) throw new Forbidden('Project does not belong to your team');
  return row;
}

export async function listProjects(ctx: RequestContext) {
  const { rows } = await ctx.store.query<ProjectRow>(
    `select ${PROJECT_COLUMNS} from projects where team_id = $1 order by created_at, id`,
    [ctx.auth.teamId],
  );
  return rows.map((r) => presentProject(r, false));
}

interface BootstrapState {
  samples_per_run: number;
  sampling: SamplingMode;
  sampling_margin: number;
  providers: string[] | null;
  status: 'initializing' | 'completed' | 'error';
  status_error: string | null;
  callback_status: 'pending' | 'delivered' | 'failed' | null;
}

/**
 * The project with its bootstrap's state. Served from the per-process cache for
 * AUTH_CACHE_MS (the hot path of a client polling its project): whatever changes what it
 * shows forgets it at once in this process (forgetProject: an edit, a deletion, the
 * bootstrap's end, its callback's fate), and other processes read it again within
 * AUTH_CACHE_MS, as they do a changed key. The owning team is checked on every call.
 */
export async function getProject(ctx: RequestContext, projectId: string): Promise<Readonly<ProjectDetail>> {
  const key = projectId.toLowerCase();
  const cached = ctx.projectDetails.get(key);
  if (cached) {
    if (cached.teamId !== ctx.auth.teamId) throw new Forbidden('Project does not belong to your team');
    return cached.detail;
  }
  const version = ctx.projectDetails.version;
  // the row and its bootstrap's state in one round trip (the checks of requireProject on it)
  const { rows } = await ctx.store.query<ProjectRow & { state: BootstrapState }>(
    `select ${projectColumnsOf('p')},
            json_build_object('status', p.status, 'status_error', p.status_error, 'samples_per_run', p.samples_per_run, 'sampling', p.sampling,
                              'sampling_margin', p.sampling_margin, 'providers', p.providers, 'callback_status', d.status) as state
       from projects p left join deliveries d on d.id = $2
      where p.id = $1`,
    [projectId, bootstrapCallbackId(projectId)],
  );
  const found = rows[0];
  if (!found) throw new NotFound('Project not found');
  if (found.team_id !== ctx.auth.teamId) throw new Forbidden('Project does not belong to your team');
  const { state, ...row } = found;
  ctx.projectCache.set(key, row);
  const detail: ProjectDetail = {
    ...presentProject(row, true),
    bootstrap_status: state?.status ?? 'initializing',
    bootstrap_error: state?.status === 'error' ? (state.status_error ?? 'Bootstrap failed') : null,
    callback_status: state?.callback_status ?? null,
    providers: trackedProviders(state?.providers),
    samples_per_run: state?.samples_per_run ?? 1,
    sampling: state?.sampling ?? 'fixed',
    sampling_margin: state?.sampling_margin ?? DEFAULT_SAMPLING_MARGIN,
  };
  // Frozen: every caller of the next AUTH_CACHE_MS gets this same object.
  Object.freeze(detail.brand_aliases);
  Object.freeze(detail.providers);
  ctx.projectDetails.set(key, { teamId: row.team_id, detail: Object.freeze(detail) }, version);
  return detail;
}

/** The engines a project tracks: its stored list, or the five of the contract when it names none. */
export function trackedProviders(stored: string[] | null | undefined): ProviderName[] {
  return stored?.length ? PROVIDERS.filter((p) => stored.includes(p)) : [...DEFAULT_PROJECT_PROVIDERS];
}

export interface CreateProjectInput {
  brand_name: string;
  brand_url: string;
  /** Required of API keys; a signed-in person (the dashboard) may leave it out. */
  webhook_url?: string;
  language?: string;
  location?: string;
  /** Extension: the engines to track; absent = the five of the contract. */
  providers?: string[];
}

/** Creates the project and enqueues its bootstrap in the same transaction. */
export async function createProject(ctx: RequestContext, input: CreateProjectInput) {
  const limit = planOf(ctx.auth.plan).projects;
  // The contract requires a callback URL; a marketer in the dashboard has none and watches
  // the bootstrap on the page instead (finish() sends no callback without one).
  if (input.webhook_url === undefined && !ctx.auth.userId) throw new Invalid('webhook_url must be a valid URL');
  if (input.webhook_url !== undefined) await assertDeliverableUrl(ctx, 'webhook_url', input.webhook_url);
  // The brand's site is fetched (bootstrap, site audit): the same address policy as webhooks.
  await assertDeliverableUrl(ctx, 'brand_url', input.brand_url);
  return ctx.store.tx(async (tx) => {
    // Serialise creations of one team so two concurrent requests cannot both pass the limit.
    await tx.query(`select id from teams where id = $1 for update`, [ctx.auth.teamId]);
    const count = await tx.query<{ n: number }>(`select count(*)::int as n from projects where team_id = $1`, [ctx.auth.teamId]);
    if (count.rows[0].n >= limit) {
      // The spec fixes only the opening words; the rest names both ways out.
      throw new Forbidden(
        `You've reached the maximum number of projects for your plan (${limit}). Delete a project (DELETE /v1/projects/{project_id}) or upgrade your plan.`,
        'project_limit_reached',
      );
    }
    const website = new URL(input.brand_url).toString();
    const { rows } = await tx.query<{ id: string }>(
      `insert into projects (team_id, name, brand_name, website_url, domain, location, language, webhook_url, providers, status)
       values ($1, $2, $2, $3, $4, $5, $6, $7, $8::jsonb, 'initializing') returning id`,
      [
        ctx.auth.teamId,
        input.brand_name,
        website,
        registrableDomain(website),
        input.location?.toUpperCase() ?? null,
        input.language?.toLowerCase() ?? null,
        input.webhook_url ?? null,
        JSON.stringify(input.providers ? trackedProviders(input.providers) : []),
      ],
    );
    const projectId = rows[0].id;
    await ctx.jobs.send(bootstrapJob, { projectId }, { tx });
    return { project_id: projectId, status: 'initializing' as const };
  });
}


/**
 * Edits a project (extension). Only the fields sent change; a body that changes nothing is
 * a 400, as for prompts. A new brand name, alias list or website changes what the answers
 * are read for, so the project's stored answers are analysed again in the background
 * (one queued run per project), as when competitors change.
 */
export async function updateProject(ctx: RequestContext, projectId: string, input: PatchProjectInput) {
  if (Object.keys(input).length === 0) throw new Invalid('Request body must change at least one field');
  if (input.website_url) await assertDeliverableUrl(ctx, 'website_url', input.website_url);
  const updated = await ctx.store.tx(async (tx) => {
    const current = await requireProject(ctx, projectId, tx);
    await tx.query(`select id from projects where id = $1 for update`, [projectId]);
    const next = { ...current };
    if (input.name !== undefined) next.name = input.name;
    if (input.brand_name !== undefined) next.brand_name = input.brand_name;
    if (input.brand_aliases !== undefined) next.brand_aliases = uniqueNames(input.brand_aliases);
    if (input.website_url !== undefined) {
      next.website_url = new URL(input.website_url).toString();
      next.domain = registrableDomain(next.website_url);
    }
    if (input.location !== undefined) next.location = input.location?.toUpperCase() ?? null;
    if (input.language !== undefined) next.language = input.language?.toLowerCase() ?? null;
    if (input.samples_per_run !== undefined) {
      // The plan as stored now (the key's cached record may be a moment old).
      const team = await tx.query<{ plan: string }>(`select plan from teams where id = $1`, [current.team_id]);
      const plan = team.rows[0]?.plan ?? ctx.auth.plan;
      const max = planOf(plan).samplesPerRun;
      if (input.samples_per_run > max) throw new Invalid(`samples_per_run must be at most ${max} on the ${plan} plan`);
      next.samples_per_run = input.samples_per_run;
    }
    let providersChanged = false;
    if (input.providers !== undefined) {
      const stored = await tx.query<{ providers: string[] }>(`select providers from projects where id = $1`, [projectId]);
      const wanted = trackedProviders(input.providers);
      providersChanged = wanted.join() !== trackedProviders(stored.rows[0]?.providers).join();
      if (providersChanged) await tx.query(`update projects set providers = $2::jsonb where id = $1`, [projectId, JSON.stringify(wanted)]);
    }
    let samplingChanged = false;
    if (input.sampling !== undefined) {
      const stored = await tx.query<{ sampling: string }>(`update projects set sampling = $2 where id = $1 and sampling <> $2 returning sampling`, [projectId, input.sampling]);
      samplingChanged = stored.rows.length > 0;
    }
    if (input.sampling_margin !== undefined) {
      const stored = await tx.query(`update projects set sampling_margin = $2 where id = $1 and sampling_margin <> $2::real returning id`, [projectId, input.sampling_margin]);
      samplingChanged ||= stored.rows.length > 0;
    }
    const brandChanged =
      next.brand_name !== current.brand_name ||
      next.website_url !== current.website_url ||
      JSON.stringify(next.brand_aliases ?? []) !== JSON.stringify(current.brand_aliases ?? []);
    const changed =
      brandChanged ||
      next.name !== current.name ||
      next.location !== current.location ||
      next.language !== current.language ||
      next.samples_per_run !== current.samples_per_run ||
      providersChanged ||
      samplingChanged;
    if (!changed) throw new Invalid('No field changed: the project already has these values');
    const { rows } = await tx.query<ProjectRow>(
      `update projects set name = $2, brand_name = $3, brand_aliases = $4::jsonb, website_url = $5, domain = $6, location = $7, language = $8,
              samples_per_run = $9
        where id = $1 returning ${PROJECT_COLUMNS}`,
      [projectId, next.name, next.brand_name, JSON.stringify(next.brand_aliases ?? []), next.website_url, next.domain, next.location, next.language, next.samples_per_run],
    );
    if (brandChanged) await ctx.jobs.send(reanalyseJob, { projectId }, { tx, singletonKey: projectId });
    return rows[0];
  });
  forgetProject(ctx, projectId);
  ctx.projectCache.set(projectId.toLowerCase(), updated);
  return getProject(ctx, projectId);
}

/** Aliases compared as people read them: case and inner spacing do not make a new name. */
/** Names without repeats, compared in lower case with runs of white space as one space; the first spelling stays. */
export function uniqueNames(names: string[]): string[] {
  const seen = new Set<string>();
  return names.filter((n) => {
    const key = n.replace(/\s+/g, ' ').toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Deletes a project and everything under it in one transaction: prompts, answers,
 * citations, every rollup, competitors, topics, actions, workflows, runs (foreign keys
 * cascade), and the deliveries still pending about it (its bootstrap callback, its
 * actions' events). The plan's project slot is free again at once.
 */
export async function deleteProject(ctx: RequestContext, projectId: string) {
  await ctx.store.tx(async (tx) => {
    await requireProject(ctx, projectId, tx);
    await tx.query(`select id from projects where id = $1 for update`, [projectId]);
    await tx.query(
      `delete from deliveries d
        where d.team_id = $2 and d.status = 'pending'
          and (d.body::jsonb ->> 'project_id' = $1::text
               or d.body::jsonb -> 'data' ->> 'action_id' in (select id::text from actions where project_id = $1::text::uuid))`,
      [projectId, ctx.auth.teamId],
    );
    await tx.query(`delete from projects where id = $1`, [projectId]);
  });
  forgetProject(ctx, projectId);
  return { projectId, message: 'Project and everything under it deleted' };
}
