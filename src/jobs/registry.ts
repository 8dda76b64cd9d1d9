import { runBootstrap } from '../collection/bootstrap';
import { reanalyseProject } from '../collection/reanalyse';
import { runRefresh, scheduleDailyRefreshes } from '../collection/refresh';
import type { ServiceContext } from '../context';
import { attemptDelivery } from '../deliveries/send';
import { runRecommendTask } from '../modules/actions/recommend-task';
import { runStep } from '../workflows/engine';
import * as C from './catalog';

export interface JobMeta {
  id: string;
  retryCount: number;
}

export type JobHandler<P> = (ctx: ServiceContext, payload: P, meta: JobMeta) => Promise<unknown>;

/** A catalog entry with the handler a worker runs for it. */
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
  bind(C.recommendJob, (ctx, p, meta) => runRecommendTask(ctx, p, meta.retryCount >= C.RECOMMEND_RETRIES)),
];
