import crypto from 'node:crypto';
import type { RequestContext, ServiceContext } from '../../context.js';
import { hashApiKey, randomBase62, verifyPassword } from '../../lib/crypto.js';
import { Forbidden, NotFound, Unauthorized } from '../../lib/errors.js';
import { utcMonth } from '../../lib/time.js';
import { iso } from '../common.js';
import { createKey } from '../keys/service.js';

/** A session lasts this long at most, and never past its key's expiry. */
export const SESSION_TTL_MS = 12 * 3600 * 1000;
const TOKEN_PREFIX = 'sls_';

export type Scope = 'admin' | 'viewer';

/** What a sign-in hands the surface: the cookie's token (once) and the session as shown. */
export interface NewSession {
  token: string;
  session: SessionView;
  userId: string | null;
  keyId: string;
}

export interface SessionView {
  id: string;
  team_id: string;
  scope: Scope;
  email: string | null;
  expires_at: string;
  csrf_token: string;
}

/**
 * The CSRF token of a session: derived from its secret token, so only a page that can read
 * the session (same origin) can send it, and nothing more is stored.
 */
export function csrfTokenOf(token: string): string {
  return crypto.createHmac('sha256', token).update('sightline csrf v1').digest('base64url');
}

export function hashSessionToken(token: string): string {
  return hashApiKey(token);
}

/**
 * Sign-in with email and password: a session on the team's admin key, with the person's
 * role in that team (admin or viewer). A person in several teams names one (team_id);
 * without it, the team they joined first.
 */
export async function signInWithPassword(ctx: ServiceContext, input: { email: string; password: string; team_id?: string }): Promise<NewSession> {
  const { rows } = await ctx.store.query<{ id: string; password_hash: string; email: string }>(
    'select id, password_hash, email from users where email = $1',
    [input.email],
  );
  const user = rows[0];
  // Same work whether or not the user exists, so timing does not reveal accounts.
  const ok = await verifyPassword(input.password, user?.password_hash ?? DUMMY_HASH);
  if (!user || !ok) throw new Unauthorized('Invalid email or password');
  const member = await ctx.store.query<{ team_id: string; role: Scope }>(
    `select team_id, role from team_members where user_id = $1 and ($2::uuid is null or team_id = $2::uuid)
      order by created_at, team_id limit 1`,
    [user.id, input.team_id ?? null],
  );
  const m = member.rows[0];
  if (!m) throw new Forbidden(input.team_id ? 'You are not a member of this team' : 'You are not a member of any team');
  const key = await ctx.store.query<{ id: string; expires_at: Date }>(
    `select id, expires_at from api_keys where team_id = $1 and scope = 'admin' and is_active and expires_at > now()
      order by created_at desc limit 1`,
    [m.team_id],
  );
  let keyId = key.rows[0]?.id;
  let keyExpires = key.rows[0] ? new Date(key.rows[0].expires_at) : null;
  if (!keyId) {
    const created = await createKey(ctx, m.team_id, { scope: 'admin', name: 'Account key', userId: user.id });
    keyId = created.id;
    keyExpires = new Date(created.expires_at);
  }
  const scope: Scope = m.role === 'admin' ? 'admin' : 'viewer';
  return open(ctx, { teamId: m.team_id, userId: user.id, email: user.email, keyId, scope, keyExpires: keyExpires as Date });
}

/** Sign-in with an API key: a session of that key's scope, ending when the key does. */
export async function signInWithKey(ctx: ServiceContext, input: { api_key: string }): Promise<NewSession> {
  const { rows } = await ctx.store.query<{ id: string; team_id: string; scope: Scope; is_active: boolean; expires_at: Date }>(
    'select id, team_id, scope, is_active, expires_at from api_keys where key_hash = $1',
    [hashApiKey(input.api_key.trim())],
  );
  const key = rows[0];
  if (!key) throw new Unauthorized('Invalid API key');
  if (!key.is_active) throw new Unauthorized('API key is inactive');
  if (new Date(key.expires_at).getTime() <= ctx.clock.now().getTime()) throw new Unauthorized('API key has expired');
  return open(ctx, { teamId: key.team_id, userId: null, email: null, keyId: key.id, scope: key.scope, keyExpires: new Date(key.expires_at) });
}

async function open(
  ctx: ServiceContext,
  s: { teamId: string; userId: string | null; email: string | null; keyId: string; scope: Scope; keyExpires: Date },
): Promise<NewSession> {
  const token = TOKEN_PREFIX + randomBase62(40);
  const until = Math.min(ctx.clock.now().getTime() + SESSION_TTL_MS, s.keyExpires.getTime());
  const { rows } = await ctx.store.query<{ id: string }>(
    `insert into sessions (team_id, user_id, key_id, token_hash, scope, expires_at) values ($1, $2, $3, $4, $5, $6) returning id`,
    [s.teamId, s.userId, s.keyId, hashSessionToken(token), s.scope, new Date(until)],
  );
  return {
    token,
    userId: s.userId,
    keyId: s.keyId,
    session: { id: rows[0].id, team_id: s.teamId, scope: s.scope, email: s.email, expires_at: iso(new Date(until)), csrf_token: csrfTokenOf(token) },
  };
}

/** A session's record for the auth layer: the key's tier, plan and credits, the session's scope. */
export interface SessionRecord {
  sessionId: string;
  keyId: string;
  teamId: string;
  scope: Scope;
  userId: string | null;
  email: string | null;
  isActive: boolean;
  expiresAt: number;
  revoked: boolean;
  tier: string;
  plan: string;
  creditsUsed: number;
}

export async function findSession(ctx: ServiceContext, token: string): Promise<SessionRecord | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return null;
  const { rows } = await ctx.store.query<{
    id: string; key_id: string; team_id: string; scope: Scope; user_id: string | null; role: Scope | null; email: string | null; is_active: boolean;
    expires_at: Date; key_expires_at: Date; revoked_at: Date | null; rate_limit_tier: string; plan: string; used: number | null;
  }>(
    `select s.id, s.key_id, s.team_id, s.scope, s.user_id, m.role, u.email, k.is_active, s.expires_at, k.expires_at as key_expires_at,
            s.revoked_at, t.rate_limit_tier, t.plan, c.used
       from sessions s
       join api_keys k on k.id = s.key_id
       join teams t on t.id = s.team_id
       left join users u on u.id = s.user_id
       left join team_members m on m.team_id = s.team_id and m.user_id = s.user_id
       left join credit_usage c on c.team_id = s.team_id and c.month = $2
      where s.token_hash = $1`,
    [hashSessionToken(token), utcMonth()],
  );
  const r = rows[0];
  if (!r) return null;
  // A person's session follows their membership: it ends when they leave the team, and acts
  // with their current role (a demoted admin's open session is a viewer's from the next request on).
  const removed = r.user_id !== null && r.role === null;
  const scope: Scope = r.user_id === null ? r.scope : (r.role ?? 'viewer');
  return {
    sessionId: r.id,
    keyId: r.key_id,
    teamId: r.team_id,
    scope,
    userId: r.user_id,
    email: r.email,
    isActive: r.is_active,
    expiresAt: Math.min(new Date(r.expires_at).getTime(), new Date(r.key_expires_at).getTime()),
    revoked: r.revoked_at !== null || removed,
    tier: r.rate_limit_tier,
    plan: r.plan,
    creditsUsed: Number(r.used ?? 0),
  };
}

/** Ends one session of the caller's team (sign out, or an admin ending another one). */
export async function revokeSession(ctx: RequestContext, sessionId: string): Promise<void> {
  const { rows } = await ctx.store.query(
    'update sessions set revoked_at = now() where id = $1 and team_id = $2 and revoked_at is null returning id',
    [sessionId, ctx.auth.teamId],
  );
  if (rows.length === 0) throw new NotFound('Session not found');
}

/** Ends every open session of the caller's team; returns how many. */
export async function revokeTeamSessions(ctx: RequestContext): Promise<number> {
  const { rows } = await ctx.store.query(
    'update sessions set revoked_at = now() where team_id = $1 and revoked_at is null and expires_at > now() returning id',
    [ctx.auth.teamId],
  );
  return rows.length;
}

export async function listSessions(ctx: RequestContext) {
  const { rows } = await ctx.store.query<{ id: string; scope: Scope; email: string | null; created_at: Date; expires_at: Date }>(
    `select s.id, s.scope, u.email, s.created_at, s.expires_at from sessions s left join users u on u.id = s.user_id
      where s.team_id = $1 and s.revoked_at is null and s.expires_at > now() order by s.created_at desc limit 100`,
    [ctx.auth.teamId],
  );
  return rows.map((r) => ({ id: r.id, scope: r.scope, email: r.email, created_at: iso(r.created_at), expires_at: iso(r.expires_at) }));
}

const DUMMY_HASH = 'scrypt$16384$8$1$c2lnaHRsaW5lLWR1bW15$YQ1Y4Kx7mX3lV8b5nY2b3n4x5c6v7b8n9m0a1s2d3f4=';
