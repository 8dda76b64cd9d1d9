import type { RequestContext, ServiceContext } from '../../context.js';
import type { Tx } from '../../store/index.js';
import { iso } from '../common.js';

/** Audit entries are kept this long, then removed by the daily retention job. */
export const AUDIT_RETENTION_DAYS = 400;

/**
 * One write, as the log keeps it. Never a secret: ids, an action name, the client address
 * and the request id. Bodies, tokens and URLs with tokens are never passed here.
 */
export interface AuditEntry {
  teamId: string;
  actorUserId?: string | null;
  actorKeyId?: string | null;
  /** How the actor is shown; looked up (email or key prefix) when left out. */
  actorLabel?: string | null;
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  ip?: string | null;
  requestId?: string | null;
}

async function labelOf(ctx: { store: Tx }, e: AuditEntry): Promise<string> {
  if (e.actorLabel) return e.actorLabel;
  if (e.actorUserId) {
    const { rows } = await ctx.store.query<{ email: string }>('select email from users where id = $1', [e.actorUserId]);
    if (rows[0]) return rows[0].email;
  }
  if (e.actorKeyId) {
    const { rows } = await ctx.store.query<{ key_prefix: string }>('select key_prefix from api_keys where id = $1', [e.actorKeyId]);
    if (rows[0]) return `key ${rows[0].key_prefix}…`;
  }
  return 'unknown';
}

export async function recordAudit(ctx: { store: Tx }, e: AuditEntry): Promise<void> {
  await ctx.store.query(
    `insert into audit_log (team_id, actor_user_id, actor_key_id, actor_label, action, target_type, target_id, ip, request_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [e.teamId, e.actorUserId ?? null, e.actorKeyId ?? null, await labelOf(ctx, e), e.action, e.targetType ?? null, e.targetId ?? null, e.ip ?? null, e.requestId ?? null],
  );
}

/** One entry in each team the user belongs to (a password set through a reset link, say). */
export async function recordAuditForUser(ctx: { store: Tx }, userId: string, e: Omit<AuditEntry, 'teamId'>): Promise<void> {
  const { rows } = await ctx.store.query<{ team_id: string }>('select team_id from team_members where user_id = $1', [userId]);
  for (const r of rows) await recordAudit(ctx, { ...e, teamId: r.team_id });
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  date_from?: string;
  date_to?: string;
  page: number;
  page_size: number;
}

interface AuditRow {
  id: string;
  actor_user_id: string | null;
  actor_key_id: string | null;
  actor_label: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  request_id: string | null;
  created_at: Date;
}

/**
 * The team's log, newest first. `actor` is a user id, a key id, an email or a key prefix;
 * `action` is an exact action (`member.remove`) or a family (`member`); dates are UTC days.
 */
export async function listAudit(ctx: RequestContext, f: AuditFilter) {
  const where = ['team_id = $1'];
  const args: unknown[] = [ctx.auth.teamId];
  const arg = (v: unknown) => {
    args.push(v);
    return `$${args.length}`;
  };
  if (f.actor) {
    const p = arg(f.actor);
    where.push(`(actor_user_id::text = ${p} or actor_key_id::text = ${p} or actor_label = ${p} or actor_label = 'key ' || ${p} || '…')`);
  }
  if (f.action) {
    const p = arg(f.action);
    where.push(f.action.includes('.') ? `action = ${p}` : `split_part(action, '.', 1) = ${p}`);
  }
  if (f.date_from) where.push(`created_at >= ${arg(f.date_from)}::date`);
  if (f.date_to) where.push(`created_at < ${arg(f.date_to)}::date + 1`);
  const clause = where.join(' and ');
  const total = await ctx.store.query<{ n: number }>(`select count(*)::int as n from audit_log where ${clause}`, args);
  const { rows } = await ctx.store.query<AuditRow>(
    `select id, actor_user_id, actor_key_id, actor_label, action, target_type, target_id, ip, request_id, created_at
       from audit_log where ${clause} order by created_at desc, id desc limit ${arg(f.page_size)} offset ${arg((f.page - 1) * f.page_size)}`,
    args,
  );
  return {
    total: total.rows[0].n,
    page: f.page,
    page_size: f.page_size,
    items: rows.map((r) => ({
      id: r.id,
      actor: { user_id: r.actor_user_id, key_id: r.actor_key_id, label: r.actor_label },
      action: r.action,
      target_type: r.target_type,
      target_id: r.target_id,
      ip: r.ip,
      request_id: r.request_id,
      created_at: iso(r.created_at),
    })),
  };
}

/** The retention job: entries older than AUDIT_RETENTION_DAYS go. */
export async function pruneAudit(ctx: ServiceContext): Promise<number> {
  const { rows } = await ctx.store.query(
    `delete from audit_log where created_at < now() - make_interval(days => $1) returning id`,
    [AUDIT_RETENTION_DAYS],
  );
  return rows.length;
}
