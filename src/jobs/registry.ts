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
import { Conflict } from '../lib/errors.js';
import { dropPastRetention } from '../modules/answers/retention.js';
import * as jobCatalog from './catalog.js';

export interface JobMeta {
  id: string;
  retryCount: number;
}

export type JobHandler<P> = (ctx: ServiceContext, payload: P, meta: JobMeta) => Promise<unknown>;

/** A catalog entry with the handler a worker runs for it. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds jobs of different payload types; bind() checks each pair.
export interface BoundJob<P = any> {
  spec: jobCatalog.JobSpec<P>;
  handle: JobHandler<P>;
}

const bind = <P>(spec: jobCatalog.JobSpec<P>, handle: JobHandler<P>): BoundJob<P> => ({ spec, handle });

/** Every job's handler; a worker starts each one. The only place that imports handlers. */
export const jobRegistry: BoundJob[] = [
  bind(jobCatalog.bootstrapJob, (ctx, p, meta) => runBootstrap(ctx, p.projectId, meta.retryCount >= jobCatalog.BOOTSTRAP_RETRIES)),
  bind(jobCatalog.refreshJob, (ctx, p) => runRefresh(ctx, p)),
  bind(jobCatalog.dailyTickJob, async (ctx) => ({ queued: await scheduleDailyRefreshes(ctx) })),
  bind(jobCatalog.reanalyseJob, async (ctx, p) => {
    try {
      return { analysed: await reanalyseProject(ctx, p.projectId) };
    } catch (err) {
      // past the retention: not worth a retry, the answers will not come back (docs/retention.md)
      if (!(err instanceof Conflict)) throw err;
      ctx.log.warn({ projectId: p.projectId, err: err.message }, 're-analysis refused');
      return { analysed: 0, refused: err.message };
    }
  }),
  bind(jobCatalog.answerRetentionJob, async (ctx) => ({ dropped: await dropPastRetention(ctx) })),
  bind(jobCatalog.deliveryJob, (ctx, p) => attemptDelivery(ctx, p.deliveryId, p.attempt)),
  bind(jobCatalog.workflowStepJob, (ctx, p, meta) => runStep(ctx, p.workflowId, p.version, meta.retryCount >= jobCatalog.WORKFLOW_RETRIES)),
  bind(jobCatalog.auditRetentionJob, async (ctx) => ({ removed: await pruneAudit(ctx) })),
  bind(jobCatalog.recommendJob, (ctx, p, meta) => runRecommendTask(ctx, p, meta.retryCount >= jobCatalog.RECOMMEND_RETRIES)),
  bind(jobCatalog.siteAuditJob, (ctx, p) => runSiteAudit(ctx, p.auditId)),
  bind(jobCatalog.siteAuditWeeklyJob, async (ctx) => ({ queued: await scheduleWeeklyAudits(ctx) })),
  bind(jobCatalog.alertsEvaluateJob, (ctx, p) => evaluateProjectAlerts(ctx, p)),
  bind(jobCatalog.weeklyDigestJob, async (ctx) => ({ sent: await sendWeeklyDigests(ctx) })),
];
