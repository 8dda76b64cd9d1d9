import { eq } from 'drizzle-orm';
import type { RequestContext, ServiceContext } from '../../context.js';
import { AppError, Conflict, Unauthorized, isUnavailableError } from '../../lib/errors.js';
import { generatePassword, hashPassword, verifyPassword } from '../../lib/crypto.js';
import { users } from '../../store/schema.js';
import { isUniqueViolation } from '../common.js';
import { recordAudit } from '../audit/service.js';
import { creditStanding } from '../credits/standing.js';
import { createKey, findActiveAdminKey, findActiveViewerKeyOf } from '../keys/service.js';

/** Where a call without a key came from, for the audit log. */
export interface Origin {
  ip: string;
  requestId: string;
}

export async function createAccount(ctx: ServiceContext, input: { email: string }, origin?: Origin) {
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  try {
    return await ctx.store.tx(async (tx) => {
      // SIGNUP_PLAN: the operator chooses what a new team starts with (the contract's skip_trial by default).
      const team = await tx.query<{ id: string }>(`insert into teams (plan) values ($1) returning id`, [ctx.config.signupPlan ?? 'skip_trial']);
      const teamId = team.rows[0].id;
      const user = await tx.query<{ id: string }>(
        `insert into users (team_id, email, password_hash, role) values ($1, $2, $3, 'admin') returning id`,
        [teamId, input.email, passwordHash],
      );
      await tx.query(`insert into team_members (team_id, user_id, role) values ($1, $2, 'admin')`, [teamId, user.rows[0].id]);
      const userId = user.rows[0].id;
      await recordAudit({ store: tx }, { teamId, actorUserId: userId, actorLabel: input.email, action: 'account.create', targetType: 'user', targetId: userId, ...originOf(origin) });
      return { user_id: userId, team_id: teamId, email: input.email, password };
    });
  } catch (err) {
    if (isUniqueViolation(err, 'users_email_key')) {
      throw new Conflict('Failed to create account. The email may already be registered.');
    }
    throw err;
  }
}

/**
 * The account's key: for an admin of the team, the team's active admin key, or a new one
 * (standard tier, one year) when it has none; for a viewer, their own read-only key, made
 * the same way when they have none (a viewer never gets admin scope here). Any store
 * failure here is the spec's 500 "Authentication service unavailable".
 */
export async function getAccountKey(ctx: ServiceContext, input: { email: string; password: string }, origin?: Origin) {
  try {
    const [user] = await ctx.store.db.select().from(users).where(eq(users.email, input.email)).limit(1);
    // Same work whether or not the user exists, so timing does not reveal accounts.
    const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
    if (!user || !ok) throw new Unauthorized('Invalid email or password');
    // The account's own team while they are still a member of it, else the first team they
    // joined; an admin there gets the admin key, a viewer a viewer key of their own.
    const { rows } = await ctx.store.query<{ team_id: string; role: 'admin' | 'viewer' }>(
      `select team_id, role from team_members where user_id = $1 order by (team_id = $2) desc, created_at limit 1`,
      [user.id, user.teamId],
    );
    const member = rows[0];
    if (!member) throw new Unauthorized('Invalid email or password');
    const teamId = member.team_id;
    const existing = member.role === 'admin' ? await findActiveAdminKey(ctx, teamId) : await findActiveViewerKeyOf(ctx, teamId, user.id);
    if (existing) return existing;
    const created = await createKey(ctx, teamId, { scope: member.role, name: member.role === 'admin' ? 'Account key' : `Read-only key of ${user.email}`, userId: user.id });
    await recordAudit(ctx, { teamId, actorUserId: user.id, actorLabel: user.email, action: 'key.create', targetType: 'key', targetId: created.id, ...originOf(origin) });
    return { api_key: created.api_key, team_id: teamId, key_prefix: created.key_prefix, rate_limit_tier: created.rate_limit_tier };
  } catch (err) {
    if (err instanceof AppError) throw err;
    ctx.log.error({ err }, 'account key retrieval failed');
    if (isUnavailableError(err) || err instanceof Error) throw new AppError(500, 'Authentication service unavailable');
    throw err;
  }
}

const originOf = (o?: Origin) => ({ ip: o?.ip ?? null, requestId: o?.requestId ?? null });

const DUMMY_HASH =
  'scrypt$16384$8$1$c2lnaHRsaW5lLWR1bW15$YQ1Y4Kx7mX3lV8b5nY2b3n4x5c6v7b8n9m0a1s2d3f4=';

/** The caller's team: plan, its limits, this month's credits used and left, rate-limit tier. */
export async function accountSummary(ctx: RequestContext) {
  const c = await creditStanding(ctx, ctx.auth.teamId);
  return {
    team_id: ctx.auth.teamId,
    plan: c.plan,
    rate_limit_tier: c.rate_limit_tier,
    scope: ctx.auth.scope,
    credits_month: c.credits_month,
    credits_included: c.credits_included,
    credits_used: c.credits_used,
    credits_left: c.credits_left,
    max_projects: c.limits.projects,
    max_active_prompts: c.limits.activePrompts,
  };
}
