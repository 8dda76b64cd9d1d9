import type { ServiceContext } from '../../context.js';
import { refreshJob } from '../../jobs/catalog.js';
import { Invalid, NotFound } from '../../lib/errors.js';
import { planOf } from '../../lib/plans.js';
import crypto from 'node:crypto';
import { utcDay, utcMonth } from '../../lib/time.js';
import { iso } from '../common.js';

/** Operator: change a team's plan or rate-limit tier (the spec's "contact the operator"). */
export async function patchTeam(ctx: ServiceContext, teamId: string, input: { plan?: string; rate_limit_tier?: string }) {
  if (input.plan === undefined && input.rate_limit_tier === undefined) {
    throw new Invalid('Request body must contain plan or rate_limit_tier');
  }
  const { rows } = await ctx.store.query<{ id: string; plan: string; rate_limit_tier: string; created_at: Date; used: number | null }>(
    `with t as (
       update teams set plan = coalesce($2, plan), rate_limit_tier = coalesce($3, rate_limit_tier)
        where id = $1 returning id, plan, rate_limit_tier, created_at)
     select t.*, c.used from t left join credit_usage c on c.team_id = t.id and c.month = $4`,
    [teamId, input.plan ?? null, input.rate_limit_tier ?? null, utcMonth()],
  );
  if (!rows[0]) throw new NotFound('Team not found');
  ctx.teamChanged(teamId);
  const r = rows[0];
  return {
    team_id: r.id,
    plan: r.plan,
    rate_limit_tier: r.rate_limit_tier,
    monthly_credits: planOf(r.plan).credits,
    credits_used: Number(r.used ?? 0),
    created_at: iso(r.created_at),
  };
}

/**
 * Every team (or the teams an email belongs to) with its plan, this month's credits and
 * members: what `npm run admin -- teams` prints and how `plan <email>` finds the team.
 */
export async function listTeams(ctx: ServiceContext, input: { email?: string }) {
  const email = input.email?.trim().toLowerCase();
  const { rows } = await ctx.store.query<{
    id: string; plan: string; rate_limit_tier: string; created_at: Date; used: number | null; emails: string[] | null; projects: number;
  }>(
    `select t.id, t.plan, t.rate_limit_tier, t.created_at, c.used,
            (select array_agg(u.email order by m.created_at) from team_members m join users u on u.id = m.user_id where m.team_id = t.id) as emails,
            (select count(*)::int from projects p where p.team_id = t.id) as projects
       from teams t left join credit_usage c on c.team_id = t.id and c.month = $1
      where $2::text is null or exists (
              select 1 from team_members m join users u on u.id = m.user_id where m.team_id = t.id and u.email = $2)
      order by t.created_at, t.id`,
    [utcMonth(), email ?? null],
  );
  return rows.map((r) => ({
    team_id: r.id,
    plan: r.plan,
    rate_limit_tier: r.rate_limit_tier,
    monthly_credits: planOf(r.plan).credits,
    credits_used: Number(r.used ?? 0),
    created_at: iso(r.created_at),
    members: r.emails ?? [],
    projects: Number(r.projects),
  }));
}

/** Runs a project's collection now, as the daily scheduler would. */
export async function refreshProject(ctx: ServiceContext, projectId: string) {
  const { rows } = await ctx.store.query(`select id from projects where id = $1`, [projectId]);
  if (!rows[0]) throw new NotFound('Project not found');
  const runId = crypto.randomUUID();
  await ctx.jobs.send(refreshJob, { projectId, day: utcDay(), runId, kind: 'manual' }, { id: runId });
  return { job_id: runId };
}

export async function getJob(ctx: ServiceContext, jobId: string) {
  const job = await ctx.jobs.find(jobId);
  if (!job) throw new NotFound('Job not found');
  const out = job.output as { message?: string } | null;
  return {
    job_id: job.id,
    name: job.name,
    status: job.state as 'created',
    error: job.state === 'failed' ? (out?.message ?? 'failed') : null,
    output: job.state === 'failed' ? null : (job.output ?? null),
    created_at: iso(job.createdOn),
    completed_at: job.completedOn ? iso(job.completedOn) : null,
  };
}

/**
 * The secret that signs bootstrap callbacks, for the operator to give receivers. It is
 * never written to a log; this (and `npm run callback-secret`) is where it is read.
 */
export function callbackSecret(ctx: ServiceContext) {
  return { secret: ctx.callbackSecret, source: ctx.config.callbackSigningSecret ? ('environment' as const) : ('generated' as const) };
}
