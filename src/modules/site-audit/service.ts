import type { RequestContext, ServiceContext } from '../../context.js';
import { siteAuditJob } from '../../jobs/catalog.js';
import { Invalid, NotFound } from '../../lib/errors.js';
import type { Tx } from '../../store/index.js';
import { iso, isoOrNull } from '../common.js';
import { requireProject } from '../projects/service.js';
import { findingKey, offerActions, type Finding } from './findings.js';
import { runAudit, type AuditedPage } from './run-audit.js';

export type AuditStatus = 'queued' | 'running' | 'completed' | 'failed';

interface AuditRow {
  id: string;
  project_id: string;
  status: AuditStatus;
  started_at: Date | null;
  finished_at: Date | null;
  pages: AuditedPage[];
  findings: Finding[];
  error: string | null;
  created_at: Date;
}
const COLUMNS = 'id, project_id, status, started_at, finished_at, pages, findings, error, created_at';

async function queueAudit(ctx: ServiceContext, tx: Tx, projectId: string): Promise<{ audit_id: string; status: 'queued' | 'running' }> {
  const { rows } = await tx.query<{ id: string }>(`insert into site_audits (project_id, status) values ($1, 'queued') returning id`, [projectId]);
  await ctx.jobs.send(siteAuditJob, { auditId: rows[0].id }, { tx, id: rows[0].id });
  return { audit_id: rows[0].id, status: 'queued' };
}

/** Queues an audit of the project's website; one already queued or running is returned instead. */
export async function startAudit(ctx: RequestContext, projectId: string) {
  const project = await requireProject(ctx, projectId);
  if (!project.website_url) throw new Invalid('The project has no website_url to audit: set one with PATCH /projects/{project_id}');
  return ctx.store.tx(async (tx) => {
    await tx.query(`select id from projects where id = $1 for update`, [projectId]);
    const { rows } = await tx.query<{ id: string; status: 'queued' | 'running' }>(
      `select id, status from site_audits where project_id = $1 and status in ('queued', 'running') order by created_at desc limit 1`,
      [projectId],
    );
    return rows[0] ? { audit_id: rows[0].id, status: rows[0].status } : queueAudit(ctx, tx, projectId);
  });
}

const present = (f: Finding) => ({ code: f.code, severity: f.severity, url: f.url, ...(f.agent ? { agent: f.agent } : {}), detail: f.detail, fix: f.fix });

/** The latest audit, with what changed since the last completed one before it. */
export async function latestAudit(ctx: RequestContext, projectId: string) {
  await requireProject(ctx, projectId);
  const { rows } = await ctx.store.query<AuditRow>(`select ${COLUMNS} from site_audits where project_id = $1 order by created_at desc limit 1`, [projectId]);
  const audit = rows[0];
  if (!audit) throw new NotFound('No site audit yet: start one with POST /projects/{project_id}/site-audit');
  const { rows: before } = await ctx.store.query<AuditRow>(
    `select ${COLUMNS} from site_audits where project_id = $1 and status = 'completed' and created_at < $2 order by created_at desc limit 1`,
    [projectId, audit.created_at],
  );
  const previous = before[0];
  const findings = audit.findings ?? [];
  let changes: { previous_audit_id: string; new: ReturnType<typeof present>[]; resolved: ReturnType<typeof present>[] } | null = null;
  if (previous && audit.status === 'completed') {
    const was = new Set(previous.findings.map(findingKey));
    const now = new Set(findings.map(findingKey));
    changes = {
      previous_audit_id: previous.id,
      new: findings.filter((f) => !was.has(findingKey(f))).map(present),
      resolved: previous.findings.filter((f) => !now.has(findingKey(f))).map(present),
    };
  }
  return {
    audit_id: audit.id,
    status: audit.status,
    created_at: iso(audit.created_at),
    started_at: isoOrNull(audit.started_at),
    finished_at: isoOrNull(audit.finished_at),
    error: audit.error,
    pages: audit.pages,
    findings: findings.map(present),
    changes,
  };
}

/** The job: runs one audit. A rerun after a crash starts it over (status running again). */
export async function runSiteAudit(ctx: ServiceContext, auditId: string) {
  const { rows } = await ctx.store.query<{ project_id: string }>(
    `update site_audits set status = 'running', started_at = now() where id = $1 and status in ('queued', 'running') returning project_id`,
    [auditId],
  );
  if (!rows[0]) return { skipped: true };
  const projectId = rows[0].project_id;
  const { rows: projects } = await ctx.store.query<{ website_url: string | null; domain: string | null; team_id: string }>(
    `select website_url, domain, team_id from projects where id = $1`,
    [projectId],
  );
  const project = projects[0];
  try {
    if (!project?.website_url) throw new Error('The project has no website_url');
    const origin = new URL(project.website_url).origin;
    const { rows: cited } = await ctx.store.query<{ url: string }>(
      `select distinct url from cited_pages where project_id = $1 and url like $2 || '/%' order by url limit 200`,
      [projectId, origin],
    );
    const result = await runAudit(ctx, { origin, citedUrls: cited.map((c) => c.url), maxPages: ctx.config.env.SITE_AUDIT_MAX_PAGES });
    await ctx.store.tx(async (tx) => {
      await tx.query(`update site_audits set status = 'completed', finished_at = now(), pages = $2::jsonb, findings = $3::jsonb where id = $1`, [
        auditId,
        JSON.stringify(result.pages),
        JSON.stringify(result.findings),
      ]);
      await offerActions(tx, projectId, project.team_id, result.findings);
    });
    return { pages: result.pages.length, findings: result.findings.length };
  } catch (err) {
    await ctx.store.query(`update site_audits set status = 'failed', finished_at = now(), error = $2 where id = $1`, [auditId, (err as Error).message.slice(0, 500)]);
    return { failed: (err as Error).message };
  }
}

/** The weekly run: an audit for each project with a website and none in the last 6 days. */
export async function scheduleWeeklyAudits(ctx: ServiceContext): Promise<number> {
  const { rows } = await ctx.store.query<{ id: string }>(
    `select p.id from projects p
      where p.website_url is not null
        and not exists (select 1 from site_audits a where a.project_id = p.id and a.created_at > now() - interval '6 days')`,
  );
  for (const r of rows) await ctx.store.tx((tx) => queueAudit(ctx, tx, r.id));
  return rows.length;
}
