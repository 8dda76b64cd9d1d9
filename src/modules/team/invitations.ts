import type { RequestContext, ServiceContext } from '../../context.js';
import { generatePassword, hashApiKey, hashPassword, randomBase62 } from '../../lib/crypto.js';
import { Conflict, NotFound } from '../../lib/errors.js';
import { iso } from '../common.js';
import type { Role } from './members.js';

/** Seven days, single use; the token is 32 base62 characters (about 190 bits) after its prefix. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
const TOKEN_PREFIX = 'sli_';

interface InvitationRow {
  id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  created_at: Date;
  expires_at: Date;
}

const present = (r: InvitationRow) => ({
  id: r.id,
  email: r.email,
  role: r.role,
  invited_by: r.invited_by,
  created_at: iso(r.created_at),
  expires_at: iso(r.expires_at),
});

const SELECT = `select i.id, i.email, i.role, u.email as invited_by, i.created_at, i.expires_at
                  from invitations i left join users u on u.id = i.invited_by`;
const PENDING = 'i.accepted_at is null and i.revoked_at is null and i.expires_at > now()';

/**
 * The dashboard page that accepts an invitation; the token rides in the fragment, never sent
 * to a server log. The origin is PUBLIC_URL, never the request's Host or forwarded headers:
 * a forged Host would otherwise put an attacker's host in the mailed link.
 */
export const acceptUrl = (publicUrl: string, token: string) => `${publicUrl}/accept-invitation#${token}`;

/**
 * Invites a person by email. A pending invitation for the same address is replaced (its
 * link stops working). The token is returned here once and mailed when SMTP is set up.
 */
export async function createInvitation(ctx: RequestContext, input: { email: string; role: Role }) {
  const member = await ctx.store.query(
    'select 1 from team_members m join users u on u.id = m.user_id where m.team_id = $1 and u.email = $2',
    [ctx.auth.teamId, input.email],
  );
  if (member.rows.length) throw new Conflict('This person is already a member of the team');
  const token = TOKEN_PREFIX + randomBase62(32);
  const expires = new Date(ctx.clock.now().getTime() + INVITATION_TTL_MS);
  const id = await ctx.store.tx(async (tx) => {
    await tx.query(`update invitations i set revoked_at = now() where i.team_id = $1 and i.email = $2 and ${PENDING}`, [
      ctx.auth.teamId,
      input.email,
    ]);
    const { rows } = await tx.query<{ id: string }>(
      `insert into invitations (team_id, email, role, token_hash, invited_by, expires_at) values ($1, $2, $3, $4, $5, $6) returning id`,
      [ctx.auth.teamId, input.email, input.role, hashApiKey(token), ctx.auth.userId ?? null, expires],
    );
    return rows[0].id;
  });
  const row = (await ctx.store.query<InvitationRow>(`${SELECT} where i.id = $1`, [id])).rows[0];
  const url = acceptUrl(ctx.config.publicUrl, token);
  let mailed = false;
  const mailer = ctx.ports.mailer;
  if (mailer) {
    try {
      await mailer.send({
        to: input.email,
        subject: 'You are invited to a team on Sightline',
        text: `${row.invited_by ?? 'A team admin'} invited you to their team on Sightline as ${input.role}.\n\nAccept the invitation (valid for 7 days, once):\n${url}\n`,
      });
      mailed = true;
    } catch (err) {
      // The invitation stands: the admin can still copy the link from the dashboard.
      ctx.log.warn({ err: (err as Error).message, invitation_id: id }, 'invitation mail failed');
    }
  }
  return { ...present(row), token, accept_url: url, mailed };
}

export async function listInvitations(ctx: RequestContext) {
  const { rows } = await ctx.store.query<InvitationRow>(`${SELECT} where i.team_id = $1 and ${PENDING} order by i.created_at desc`, [ctx.auth.teamId]);
  return rows.map(present);
}

export async function revokeInvitation(ctx: RequestContext, id: string) {
  const { rows } = await ctx.store.query(
    `update invitations i set revoked_at = now() where i.id = $1 and i.team_id = $2 and ${PENDING} returning id`,
    [id, ctx.auth.teamId],
  );
  if (!rows.length) throw new NotFound('Invitation not found');
  return { id, message: 'Invitation revoked' };
}

/**
 * Accepts an invitation once: creates the user (with the given password, or a generated one
 * returned here once) or adds an existing user to the team. The invitation row is locked and
 * marked used in the same transaction, so two concurrent accepts cannot both succeed.
 */
export async function acceptInvitation(ctx: ServiceContext, token: string, input: { password?: string }) {
  const newPassword = input.password ?? null;
  const generated = newPassword === null ? generatePassword() : null;
  const passwordHash = await hashPassword(newPassword ?? (generated as string));
  return ctx.store.tx(async (tx) => {
    const { rows } = await tx.query<{
      id: string; team_id: string; email: string; role: Role; expires_at: Date; accepted_at: Date | null; revoked_at: Date | null;
    }>('select id, team_id, email, role, expires_at, accepted_at, revoked_at from invitations where token_hash = $1 for update', [
      hashApiKey(token),
    ]);
    const inv = rows[0];
    if (!inv) throw new NotFound('Invitation not found');
    if (inv.accepted_at) throw new Conflict('This invitation was already used');
    if (inv.revoked_at) throw new Conflict('This invitation was revoked');
    if (new Date(inv.expires_at).getTime() <= ctx.clock.now().getTime()) throw new Conflict('This invitation has expired');
    const existing = await tx.query<{ id: string }>('select id from users where email = $1', [inv.email]);
    let userId = existing.rows[0]?.id;
    const created = !userId;
    if (!userId) {
      const u = await tx.query<{ id: string }>(`insert into users (team_id, email, password_hash) values ($1, $2, $3) returning id`, [
        inv.team_id,
        inv.email,
        passwordHash,
      ]);
      userId = u.rows[0].id;
    }
    const added = await tx.query(
      'insert into team_members (team_id, user_id, role) values ($1, $2, $3) on conflict (team_id, user_id) do nothing returning user_id',
      [inv.team_id, userId, inv.role],
    );
    if (!added.rows.length) throw new Conflict('You are already a member of this team');
    await tx.query('update invitations set accepted_at = now(), accepted_by = $2 where id = $1', [inv.id, userId]);
    return {
      invitation_id: inv.id,
      result: { user_id: userId, team_id: inv.team_id, email: inv.email, role: inv.role, created, password: created ? generated : null },
    };
  });
}
