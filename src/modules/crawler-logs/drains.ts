import type { Readable } from 'node:stream';
import type { RequestContext, ServiceContext } from '../../context.js';
import { hashApiKey, randomBase62 } from '../../lib/crypto.js';
import { NotFound } from '../../lib/errors.js';
import { systemCallerFor } from '../projects/system-caller.js';
import { iso } from '../common.js';
import { requireProject } from '../projects/service.js';
import { ingestLog, type IngestResult } from './service.js';

/**
 * Log drains: a URL per drain that a CDN pushes the project's access logs to (Cloudflare
 * Logpush's HTTP destination, a Vercel log drain), with no API key: the URL's token is the
 * credential. Each push is ingested as one file (crawler-logs service), so a retried batch
 * (same bytes) counts once. The token is shown once, at creation; only its hash is kept.
 */
const TOKEN = /^ld_[0-9A-Za-z]{32}$/;

export const drainUrl = (ctx: ServiceContext, token: string) => `${ctx.config.publicUrl}/v1/crawler-log-drains/${token}`;

export async function createDrain(ctx: RequestContext, projectId: string, input: { name?: string; vercel_verify?: string }) {
  const project = await requireProject(ctx, projectId);
  const token = `ld_${randomBase62(32)}`;
  const { rows } = await ctx.store.query<{ id: string; created_at: Date }>(
    `insert into crawler_log_drains (team_id, project_id, name, token_hash, token_prefix, vercel_verify)
     values ($1, $2, $3, $4, $5, $6) returning id, created_at`,
    [project.team_id, projectId, input.name ?? null, hashApiKey(token), token.slice(0, 7), input.vercel_verify ?? null],
  );
  return { drain_id: rows[0].id, name: input.name ?? null, url: drainUrl(ctx, token), token, created_at: iso(rows[0].created_at) };
}

export async function listDrains(ctx: RequestContext, projectId: string) {
  await requireProject(ctx, projectId);
  const { rows } = await ctx.store.query<{ id: string; name: string | null; token_prefix: string; vercel_verify: string | null; last_used_at: Date | null; revoked_at: Date | null; created_at: Date }>(
    `select id, name, token_prefix, vercel_verify, last_used_at, revoked_at, created_at from crawler_log_drains where project_id = $1 order by created_at desc, id`,
    [projectId],
  );
  return rows.map((r) => ({
    drain_id: r.id,
    name: r.name,
    token_prefix: r.token_prefix,
    vercel_verify: r.vercel_verify !== null,
    created_at: iso(r.created_at),
    last_used_at: r.last_used_at ? iso(r.last_used_at) : null,
    status: r.revoked_at ? ('revoked' as const) : ('active' as const),
  }));
}

/** Revokes a drain: its URL answers 404 from now on. */
export async function revokeDrain(ctx: RequestContext, projectId: string, drainId: string) {
  await requireProject(ctx, projectId);
  const { rowCount } = await ctx.store.query(`update crawler_log_drains set revoked_at = coalesce(revoked_at, now()) where id = $1 and project_id = $2`, [drainId, projectId]);
  if (!rowCount) throw new NotFound('Log drain not found');
  return { drain_id: drainId, message: 'Log drain revoked' };
}

export interface OpenDrain {
  drainId: string;
  projectId: string;
  /** Vercel's ownership value, sent back as `x-vercel-verify`. */
  vercelVerify: string | null;
  /** The project's team as the drain's caller: it may add this project's logs and nothing else. */
  ctx: RequestContext;
}

/** The active drain a token opens; null for an unknown, malformed or revoked token (indistinguishable). */
export async function openDrain(ctx: ServiceContext, token: string): Promise<OpenDrain | null> {
  if (!TOKEN.test(token)) return null;
  const { rows } = await ctx.store.query<{ id: string; project_id: string; vercel_verify: string | null }>(
    `select id, project_id, vercel_verify from crawler_log_drains where token_hash = $1 and revoked_at is null`,
    [hashApiKey(token)],
  );
  const drain = rows[0];
  if (!drain) return null;
  const caller = await systemCallerFor(ctx, drain.project_id);
  if (!caller) return null;
  return { drainId: drain.id, projectId: drain.project_id, vercelVerify: drain.vercel_verify, ctx: caller };
}

/** One push: ingested like an uploaded file; an empty push (a CDN's test request) counts nothing. */
export async function ingestDrainPush(drain: OpenDrain, body: Readable, gzip: boolean): Promise<IngestResult> {
  const result = await ingestLog(drain.ctx, drain.projectId, body, gzip, { allowEmpty: true });
  await drain.ctx.store.query(`update crawler_log_drains set last_used_at = now() where id = $1`, [drain.drainId]);
  return result;
}
