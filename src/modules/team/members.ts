import type { RequestContext } from '../../context.js';
import { Conflict, NotFound } from '../../lib/errors.js';
import type { Tx } from '../../store/index.js';
import { iso } from '../common.js';
import { creditStanding } from '../credits/standing.js';

export type Role = 'admin' | 'viewer';

interface MemberRow {
  user_id: string;
  email: string;
  role: Role;
  created_at: Date;
}

const present = (ctx: RequestContext, r: MemberRow) => ({
  user_id: r.user_id,
  email: r.email,
  role: r.role,
  joined_at: iso(r.created_at),
  is_you: r.user_id === ctx.auth.userId,
});

/** The caller's team: plan, credits of the month, members and pending invitations. */
export async function getTeam(ctx: RequestContext) {
  const [c, { rows }] = await Promise.all([
    creditStanding(ctx, ctx.auth.teamId),
    ctx.store.query<{ members: number; admins: number; pending: number; your_role: Role | null }>(
      `select (select count(*)::int from team_members m where m.team_id = $1) as members,
              (select count(*)::int from team_members m where m.team_id = $1 and m.role = 'admin') as admins,
              (select count(*)::int from invitations i where i.team_id = $1 and i.accepted_at is null and i.revoked_at is null and i.expires_at > now()) as pending,
              (select m.role from team_members m where m.team_id = $1 and m.user_id = $2::uuid) as your_role`,
      [ctx.auth.teamId, ctx.auth.userId ?? null],
    ),
  ]);
  const r = rows[0];
  return {
    team_id: ctx.auth.teamId,
    plan: c.plan,
    rate_limit_tier: c.rate_limit_tier,
    credits_month: c.credits_month,
    credits_included: c.credits_included,
    credits_used: c.credits_used,
    credits_left: c.credits_left,
    member_count: r.members,
    admin_count: r.admins,
    pending_invitations: r.pending,
    your_role: r.your_role,
  };
}

export async function listMembers(ctx: RequestContext) {
  const { rows } = await ctx.store.query<MemberRow>(
    `select m.user_id, u.email, m.role, m.created_at from team_members m join users u on u.id = m.user_id
      where m.team_id = $1 order by m.created_at, u.email`,
    [ctx.auth.teamId],
  );
  return rows.map((r) => present(ctx, r));
}

/**
 * The team row locked for the rest of the transaction: every change to the team's admins
 * takes this lock first, so two concurrent demotions (or removals) run one after the other
 * and the second one sees the first one's result when it counts the admins.
 */
async function lockedMember(tx: Tx, teamId: string, userId: string): Promise<{ member: MemberRow; admins: number }> {
  await tx.query('select id from teams where id = $1 for update', [teamId]);
  const { rows } = await tx.query<MemberRow>(
    `select m.user_id, u.email, m.role, m.created_at from team_members m join users u on u.id = m.user_id
      where m.team_id = $1 and m.user_id = $2`,
    [teamId, userId],
  );
  if (!rows[0]) throw new NotFound('Member not found');
  const admins = await tx.query<{ n: number }>(`select count(*)::int as n from team_members where team_id = $1 and role = 'admin'`, [teamId]);
  return { member: rows[0], admins: admins.rows[0].n };
}

export async function setMemberRole(ctx: RequestContext, userId: string, role: Role) {
  const row = await ctx.store.tx(async (tx) => {
    const { member, admins } = await lockedMember(tx, ctx.auth.teamId, userId);
    if (member.role === role) return member;
    if (member.role === 'admin' && admins <= 1) throw new Conflict('The last admin of a team cannot be demoted; make another member admin first');
    await tx.query('update team_members set role = $3 where team_id = $1 and user_id = $2', [ctx.auth.teamId, userId, role]);
    return { ...member, role };
  });
  ctx.teamChanged(ctx.auth.teamId);
  return present(ctx, row);
}

/** Removes a person from the team and ends their sessions in it at once; their keys stay. */
export async function removeMember(ctx: RequestContext, userId: string) {
  const ended = await ctx.store.tx(async (tx) => {
    const { member, admins } = await lockedMember(tx, ctx.auth.teamId, userId);
    if (member.role === 'admin' && admins <= 1) throw new Conflict('The last admin of a team cannot be removed');
    await tx.query('delete from team_members where team_id = $1 and user_id = $2', [ctx.auth.teamId, userId]);
    const { rows } = await tx.query(
      'update sessions set revoked_at = now() where team_id = $1 and user_id = $2 and revoked_at is null returning id',
      [ctx.auth.teamId, userId],
    );
    return rows.length;
  });
  ctx.teamChanged(ctx.auth.teamId);
  return { user_id: userId, message: 'Member removed', sessions_ended: ended };
}
