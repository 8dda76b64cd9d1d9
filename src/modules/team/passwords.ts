import type { RequestContext, ServiceContext } from '../../context.js';
import { hashApiKey, hashPassword, randomBase62, verifyPassword } from '../../lib/crypto.js';
import { Invalid, NotFound } from '../../lib/errors.js';

/** A reset link made by the operator works once, for a day. */
export const RESET_TTL_MS = 24 * 3600 * 1000;
const RESET_PREFIX = 'slr_';

/**
 * Changes the signed-in person's own password (the current one is required) and ends
 * their other sessions, in every team; the session that made the change stays open.
 */
export async function changePassword(ctx: RequestContext, input: { current_password: string; new_password: string }, sessionId: string | null) {
  const userId = ctx.auth.userId;
  if (!userId) throw new Invalid("This changes the signed-in person's password: sign in to the dashboard with email and password (an API key has no password)");
  const { rows } = await ctx.store.query<{ password_hash: string }>('select password_hash from users where id = $1', [userId]);
  if (!rows[0] || !(await verifyPassword(input.current_password, rows[0].password_hash))) {
    throw new Invalid('current_password is not the current password');
  }
  const hash = await hashPassword(input.new_password);
  const ended = await ctx.store.tx(async (tx) => {
    await tx.query('update users set password_hash = $2 where id = $1', [userId, hash]);
    const r = await tx.query(
      `update sessions set revoked_at = now() where user_id = $1 and revoked_at is null and ($2::uuid is null or id <> $2::uuid) returning id`,
      [userId, sessionId],
    );
    return r.rows.length;
  });
  return { message: 'Password changed', sessions_ended: ended };
}

/** The dashboard page that sets a new password; the token rides in the fragment, out of server logs. */
export const resetUrl = (origin: string, token: string) => `${origin.replace(/\/+$/, '')}/reset-password#${token}`;

/** For the operator CLI: a one-time reset token for the user with this email. */
export async function createPasswordReset(ctx: Pick<ServiceContext, 'store' | 'clock'>, email: string): Promise<{ userId: string; teamId: string; token: string; expiresAt: Date }> {
  const { rows } = await ctx.store.query<{ id: string; team_id: string }>('select id, team_id from users where email = $1', [email.trim().toLowerCase()]);
  if (!rows[0]) throw new NotFound(`No user with the email ${email}`);
  const token = RESET_PREFIX + randomBase62(32);
  const expiresAt = new Date(ctx.clock.now().getTime() + RESET_TTL_MS);
  await ctx.store.tx(async (tx) => {
    // Only the newest link works: earlier ones are spent.
    await tx.query('update password_resets set used_at = now() where user_id = $1 and used_at is null', [rows[0].id]);
    await tx.query('insert into password_resets (user_id, token_hash, expires_at) values ($1, $2, $3)', [rows[0].id, hashApiKey(token), expiresAt]);
  });
  return { userId: rows[0].id, teamId: rows[0].team_id, token, expiresAt };
}

/** Sets a new password with a reset link's token (once) and ends every session of the user. */
export async function resetPassword(ctx: ServiceContext, input: { token: string; new_password: string }) {
  const hash = await hashPassword(input.new_password);
  return ctx.store.tx(async (tx) => {
    const { rows } = await tx.query<{ user_id: string; email: string; team_id: string }>(
      `update password_resets p set used_at = now() from users u
        where p.token_hash = $1 and p.used_at is null and p.expires_at > now() and u.id = p.user_id
        returning p.user_id, u.email, u.team_id`,
      [hashApiKey(input.token)],
    );
    if (!rows[0]) throw new Invalid('This reset link is invalid, already used or expired; ask the operator for a new one');
    await tx.query('update users set password_hash = $2 where id = $1', [rows[0].user_id, hash]);
    const ended = await tx.query('update sessions set revoked_at = now() where user_id = $1 and revoked_at is null returning id', [rows[0].user_id]);
    return { userId: rows[0].user_id, email: rows[0].email, teamId: rows[0].team_id, result: { message: 'Password set', sessions_ended: ended.rows.length } };
  });
}
