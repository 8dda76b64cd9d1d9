import type { RequestContext, ServiceContext } from '../../context.js';
import { NotFound, Unauthorized } from '../../lib/errors.js';
import { hashApiKey, randomBase62 } from '../../lib/crypto.js';
import { systemCallerFor } from '../projects/system-caller.js';
import { iso } from '../common.js';
import { requireProject } from '../projects/service.js';

const DAY_MS = 86_400_000;

/** The link of a report: PUBLIC_URL/r/{token}, never a request's Host. */
export const reportUrl = (ctx: ServiceContext, token: string) => `${ctx.config.publicUrl}/r/${token}`;

/** A read-only link to the project's overview; the token is shown once, only its SHA-256 hash is kept. */
export async function createReport(ctx: RequestContext, projectId: string, input: { window_days?: number; expires_in_days?: number }) {
  const project = await requireProject(ctx, projectId);
  const token = `rp_${randomBase62(32)}`;
  const expiresAt = new Date(ctx.clock.now().getTime() + (input.expires_in_days ?? 30) * DAY_MS);
  const { rows } = await ctx.store.query<{ id: string; window_days: number; created_at: Date }>(
    `insert into shared_reports (team_id, project_id, token_hash, window_days, expires_at) values ($1, $2, $3, $4, $5) returning id, window_days, created_at`,
    [project.team_id, projectId, hashApiKey(token), input.window_days ?? 30, expiresAt],
  );
  return { report_id: rows[0].id, url: reportUrl(ctx, token), token, window_days: rows[0].window_days, expires_at: iso(expiresAt), created_at: iso(rows[0].created_at) };
}

export async function listReports(ctx: RequestContext, projectId: string) {
  await requireProject(ctx, projectId);
  const { rows } = await ctx.store.query<{ id: string; window_days: number; expires_at: Date; revoked_at: Date | null; created_at: Date }>(
    `select id, window_days, expires_at, revoked_at, created_at from shared_reports where project_id = $1 order by created_at desc, id`,
    [projectId],
  );
  const now = ctx.clock.now();
  return rows.map((r) => ({
    report_id: r.id,
    window_days: r.window_days,
    expires_at: iso(r.expires_at),
    created_at: iso(r.created_at),
    status: r.revoked_at ? ('revoked' as const) : r.expires_at <= now ? ('expired' as const) : ('active' as const),
  }));
}

/** Revokes a report: its link shows "not found" from now on. */
export async function revokeReport(ctx: RequestContext, projectId: string, reportId: string) {
  await requireProject(ctx, projectId);
  const { rowCount } = await ctx.store.query(`update shared_reports set revoked_at = coalesce(revoked_at, now()) where id = $1 and project_id = $2`, [reportId, projectId]);
  if (!rowCount) throw new NotFound('Report not found');
  return { report_id: reportId, message: 'Report revoked' };
}

export interface OpenReport {
  reportId: string;
  projectId: string;
  windowDays: number;
  expiresAt: Date;
  /** The project's team as a read-only caller: what the report may read, and nothing else. */
  ctx: RequestContext;
}

/** The report a token opens, if it is neither revoked nor expired; null otherwise (indistinguishable from unknown). */
export async function openReport(ctx: ServiceContext, token: string): Promise<OpenReport | null> {
  if (!/^rp_[0-9A-Za-z]{32}$/.test(token)) return null;
  const { rows } = await ctx.store.query<{ id: string; project_id: string; window_days: number; expires_at: Date }>(
    `select id, project_id, window_days, expires_at from shared_reports where token_hash = $1 and revoked_at is null and expires_at > now()`,
    [hashApiKey(token)],
  );
  const report = rows[0];
  if (!report) return null;
  const caller = await systemCallerFor(ctx, report.project_id);
  if (!caller) return null;
  return { reportId: report.id, projectId: report.project_id, windowDays: report.window_days, expiresAt: report.expires_at, ctx: caller };
}

/** A report token standing for a key on one project's read-only export; anything else is a 401. */
export async function reportContextFor(ctx: ServiceContext, token: string, projectId: string): Promise<RequestContext> {
  const open = await openReport(ctx, token);
  if (!open || open.projectId !== projectId.toLowerCase()) throw new Unauthorized('Invalid, revoked or expired report token for this project');
  return open.ctx;
}
