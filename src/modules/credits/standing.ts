import type { ServiceContext } from '../../context.js';
import { planOf, type RateLimitTier } from '../../lib/plans.js';
import { utcMonth } from '../../lib/time.js';

/**
 * A team's plan, tier and credits of the current UTC month: the one reading behind the
 * account summary, the team page and the credits page, so the three show the same figures.
 * A team row that cannot be found reads as a new team's (the columns' defaults).
 */
export async function creditStanding(ctx: Pick<ServiceContext, 'store' | 'clock'>, teamId: string, now = ctx.clock.now()) {
  const month = utcMonth(now);
  const { rows } = await ctx.store.query<{ plan: string; rate_limit_tier: string; used: number | null }>(
    `select t.plan, t.rate_limit_tier, c.used from teams t left join credit_usage c on c.team_id = t.id and c.month = $2 where t.id = $1`,
    [teamId, month],
  );
  const planName = rows[0]?.plan ?? 'skip_trial';
  const plan = planOf(planName);
  const used = Number(rows[0]?.used ?? 0);
  return {
    plan: planName,
    /** What the plan allows: credits, projects, active prompts, samples per run. */
    limits: plan,
    rate_limit_tier: (rows[0]?.rate_limit_tier ?? 'standard') as RateLimitTier,
    credits_month: month,
    credits_included: plan.credits,
    credits_used: used,
    credits_left: Math.max(0, plan.credits - used),
  };
}
