import type { ServiceContext, RequestContext } from '../../context.js';
import { NotFound } from '../../lib/errors.js';
import { generateApiKey } from '../../lib/crypto.js';
import type { Tx } from '../../store/index.js';
import { iso } from '../common.js';

const YEAR_MS = 365 * 24 * 3600 * 1000;

interface KeyRow {
  id: string;
  key_prefix: string;
  key_encrypted: string;
  scope: 'admin' | 'viewer';
  name: string | null;
  is_active: boolean;
  expires_at: Date;
  created_at: Date;
  rate_limit_tier: 'standard' | 'premium';
  user_id: string | null;
  creator_email: string | null;
}

const SELECT = `select k.id, k.key_prefix, k.key_encrypted, k.scope, k.name, k.is_active, k.expires_at, k.created_at,
                       t.rate_limit_tier, k.user_id, u.email as creator_email
                  from api_keys k join teams t on t.id = k.team_id left join users u on u.id = k.user_id`;

function present(row: KeyRow) {
  return {
    id: row.id,
    key_prefix: row.key_prefix,
    scope: row.scope,
    name: row.name,
    is_active: row.is_active,
    expires_at: iso(row.expires_at),
    rate_limit_tier: row.rate_limit_tier,
    created_at: iso(row.created_at),
    created_by: row.user_id && row.creator_email ? { user_id: row.user_id, email: row.creator_email } : null,
  };
}

/** Creates a key; the full key is returned here and kept only encrypted and hashed. */
export async function createKey(
  ctx: ServiceContext,
  teamId: string,
  input: { scope: 'admin' | 'viewer'; name?: string; expiresAt?: Date; userId?: string },
  tx: Tx = ctx.store,
) {
  const { key, prefix, hash } = generateApiKey();
  const expiresAt = input.expiresAt ?? new Date(Date.now() + YEAR_MS);
  const { rows } = await tx.query<{ id: string }>(
    `insert into api_keys (team_id, user_id, name, key_hash, key_prefix, key_encrypted, scope, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
    [teamId, input.userId ?? null, input.name ?? null, hash, prefix, ctx.box.seal(key), input.scope, expiresAt],
  );
  const row = (await tx.query<KeyRow>(`${SELECT} where k.id = $1`, [rows[0].id])).rows[0];
  return { ...present(row), api_key: key };
}

/** The team's newest usable admin key, decrypted, in the account endpoint's shape. */
export async function findActiveAdminKey(ctx: ServiceContext, teamId: string) {
  const { rows } = await ctx.store.query<KeyRow>(
    `${SELECT} where k.team_id = $1 and k.scope = 'admin' and k.is_active and k.expires_at > now()
      order by k.created_at desc limit 1`,
    [teamId],
  );
  return accountKeyOf(ctx, teamId, rows[0]);
}

/** A person's own active read-only key in a team, newest first, or null. */
export async function findActiveViewerKeyOf(ctx: ServiceContext, teamId: string, userId: string) {
  const { rows } = await ctx.store.query<KeyRow>(
    `${SELECT} where k.team_id = $1 and k.user_id = $2 and k.scope = 'viewer' and k.is_active and k.expires_at > now()
      order by k.created_at desc limit 1`,
    [teamId, userId],
  );
  return accountKeyOf(ctx, teamId, rows[0]);
}

function accountKeyOf(ctx: ServiceContext, teamId: string, row: KeyRow | undefined) {
  if (!row) return null;
  return {
    api_key: ctx.box.open(row.key_encrypted),
    team_id: teamId,
    key_prefix: row.key_prefix,
    rate_limit_tier: row.rate_limit_tier,
  };
}

export async function listKeys(ctx: RequestContext) {
  const { rows } = await ctx.store.query<KeyRow>(`${SELECT} where k.team_id = $1 order by k.created_at, k.id`, [
    ctx.auth.teamId,
  ]);
  return rows.map(present);
}

export async function createTeamKey(ctx: RequestContext, input: { scope: 'admin' | 'viewer'; name?: string; expires_at?: string }) {
  return createKey(ctx, ctx.auth.teamId, {
    scope: input.scope,
    name: input.name,
    expiresAt: input.expires_at ? new Date(input.expires_at) : undefined,
    userId: ctx.auth.userId ?? undefined,
  });
}

export async function setKeyActive(ctx: RequestContext, keyId: string, isActive: boolean) {
  const { rowCount } = await ctx.store.query(`update api_keys set is_active = $3 where id = $1 and team_id = $2`, [
    keyId,
    ctx.auth.teamId,
    isActive,
  ]);
  if (!rowCount) throw new NotFound('API key not found');
  ctx.teamChanged(ctx.auth.teamId);
  const { rows } = await ctx.store.query<KeyRow>(`${SELECT} where k.id = $1`, [keyId]);
  return present(rows[0]);
}

export async function deleteKey(ctx: RequestContext, keyId: string) {
  const { rowCount } = await ctx.store.query(`delete from api_keys where id = $1 and team_id = $2`, [keyId, ctx.auth.teamId]);
  if (!rowCount) throw new NotFound('API key not found');
  ctx.teamChanged(ctx.auth.teamId);
  return { id: keyId, message: 'API key deleted' };
}
