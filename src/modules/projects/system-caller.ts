import type { RequestContext, ServiceContext } from '../../context.js';
import { loadProjectWithPlan, type ProjectWithPlan } from './project-row.js';

/**
 * A service call made by the system for a project's team (a viewer: it only reads), so the
 * domain services it reuses run with their usual checks: alert evaluation, the weekly digest,
 * and the token-holding callers (a shared report's reader, a crawler-log drain's pusher).
 */
export function systemContext(ctx: ServiceContext, project: Pick<ProjectWithPlan, 'team_id' | 'plan'>): RequestContext {
  return { ...ctx, auth: { keyId: 'system', teamId: project.team_id, scope: 'viewer', tier: 'standard', plan: project.plan } };
}

/**
 * The read-only caller a token stands for on one project, or null when the project is gone:
 * shared reports and log drains both turn a token's row into this.
 */
export async function systemCallerFor(ctx: ServiceContext, projectId: string): Promise<RequestContext | null> {
  const project = await loadProjectWithPlan(ctx.store, projectId);
  return project ? systemContext(ctx, project) : null;
}
