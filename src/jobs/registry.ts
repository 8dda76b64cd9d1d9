import { runBootstrap } from '../collection/bootstrap.js';
import { reanalyseProject } from '../collection/reanalyse.js';
import { runRefresh, scheduleDailyRefreshes } from '../collection/refresh.js';
import type { ServiceContext } from '../context.js';
import { attemptDelivery } from '../modules/webhooks/background/send.js';
import { runRecommendTask } from '../modules/actions/background/recommend-task.js';
import { pruneAudit } from '../modules/audit/service.js';
import { evaluateProjectAlerts } from '../modules/alerts/evaluate.js';
import { sendWeeklyDigests } from '../modules/digest/service.js';
import { runStep } from '../modules/workflows/background/engine.js';
import { runSiteAudit, scheduleWeeklyAudits } from '../modules/site-audit/service.js';
import * as C from './catalog.js';

export interface JobMeta {
  id: string;
  retryCount: number;
}

export type JobHandler<P> = (ctx: ServiceContext, payload: P, meta: JobMeta) => Promise<unknown>;

/** A catalog entry with the handler a worker runs for it. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds jobs of different payload types; bind() checks each pair.
export interface BoundJob<P = any> {
  spec: C.JobSpec<P>;
  handle: JobHandler<P>;
}

const bind = <P>(spec: C.JobSpec<P>, handle: JobHandler<P>): BoundJob<P> => ({ spec, handle });

/** Every job's handler; a worker starts each one. The only place that imports handlers. */
export const jobRegistry: BoundJob[] = [
  bind(C.bootstrapJob, (ctx, p, meta) => runBootstrap(ctx, p.projectId, meta.retryCount >= C.BOOTSTRAP_RETRIES)),
  bind(C.refreshJob, (ctx, p) => runRefresh(ctx, p)),
  bind(C.dailyTickJob, async (ctx) => ({ queued: await scheduleDailyRefreshes(ctx) })),
  bind(C.reanalyseJob, async (ctx, p) => ({ analysed: await reanalyseProject(ctx, p.projectId) })),
  bind(C.deliveryJob, (ctx, p) => attemptDelivery(ctx, p.deliveryId, p.attempt)),
  bind(C.workflowStepJob, (ctx, p, meta) => runStep(ctx, p.workflowId, p.version, meta.retryCount >= C.WORKFLOW_RETRIES)),
  bind(C.auditRetentionJob, async (ctx) => ({ removed: await pruneAudit(ctx) })),
  bind(C.recommendJob, (ctx, p, meta) => runRecommendTask(ctx, p, meta.retryCount >= C.RECOMMEND_RETRIES)),
  bind(C.siteAuditJob, (ctx, p) => runSiteAudit(ctx, p.auditId)),
  bind(C.siteAuditWeeklyJob, async (ctx) => ({ queued: await scheduleWeeklyAudits(ctx) })),
  bind(C.alertsEvaluateJob, (ctx, p) => evaluateProjectAlerts(ctx, p)),
  bind(C.weeklyDigestJob, async (ctx) => ({ sent: await sendWeeklyDigests(ctx) })),
];
