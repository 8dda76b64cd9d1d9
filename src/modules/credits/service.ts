import type { RequestContext } from '../../context.js';
import { trackedProviders } from '../projects/service.js';
import { creditStanding } from './standing.js';

// What the team's credits buy (an extension for the dashboard): one answer costs one
// credit, and each project's daily run asks every active prompt of every engine it tracks
// as many times as its samples per run (capped by the plan), so a day of tracking costs
// prompts × engines × samples. Credits reset on the first day of each UTC month.

const DAY_MS = 86_400_000;

export async function teamCredits(ctx: RequestContext) {
  const teamId = ctx.auth.teamId;
  const now = ctx.clock.now();
  const [team, projects] = await Promise.all([
    creditStanding(ctx, teamId, now),
    ctx.store.query<{ id: string; name: string; providers: string[] | null; samples_per_run: number; prompts: number }>(
      `select p.id, p.name, p.providers, p.samples_per_run,
              (select count(*)::int from prompts q where q.project_id = p.id and q.prompt_type = 'active') as prompts
         from projects p where p.team_id = $1 order by p.created_at, p.id`,
      [teamId],
    ),
  ]);
  const plan = team.limits;
  const left = team.credits_left;
  const perProject = projects.rows.map((p) => {
    const engines = trackedProviders(p.providers).length;
    const samples = Math.max(1, Math.min(p.samples_per_run, plan.samplesPerRun));
    return { project_id: p.id, name: p.name, active_prompts: Number(p.prompts), engines, samples_per_run: samples, credits_per_day: Number(p.prompts) * engines * samples };
  });
  const perDay = perProject.reduce((n, p) => n + p.credits_per_day, 0);
  const resets = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const daysToReset = Math.ceil((resets.getTime() - now.getTime()) / DAY_MS);
  const daysLeft = perDay > 0 ? Math.floor(left / perDay) : null;
  return {
    plan: team.plan,
    credits_included: team.credits_included,
    credits_used: team.credits_used,
    credits_left: left,
    resets_at: resets.toISOString(),
    days_to_reset: daysToReset,
    credits_per_day: perDay,
    days_of_tracking_left: daysLeft,
    // Enough when the credits last until the reset; otherwise the daily runs stop short.
    enough_until_reset: daysLeft === null || daysLeft >= daysToReset,
    projects: perProject,
  };
}
