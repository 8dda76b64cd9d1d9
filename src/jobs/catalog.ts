import { z } from 'zod';
import type { SqlExecutor } from '../store/types.js';

/**
 * The job catalog: every job's queue name, payload schema and retry policy, and nothing
 * else. Senders import an entry from here (never a handler), so enqueueing a job loads no
 * code of the work it stands for; the handlers are bound to these entries in
 * src/jobs/registry.ts. A payload that fails its schema is a bug in the sender: it is
 * refused at send time, and a stored one fails its job without retries.
 */
export interface JobSpec<P = unknown> {
  name: string;
  payload: z.ZodType<P>;
  retry: { limit: number; delaySeconds: number; backoff: boolean };
  /** Seconds a handler may run before the job counts as failed and is retried. */
  expireInSeconds: number;
  /** Handlers running at once per worker process. */
  concurrency?: number;
  /** Queue policy: 'singleton' lets only one job of the queue be active at once. */
  policy?: 'standard' | 'short' | 'singleton' | 'stately';
  /** Cron (UTC) on which the scheduler sends this job; once per slot across processes. */
  cron?: string;
}

const spec = <P>(s: JobSpec<P>): JobSpec<P> => s;

export interface SendOptions {
  /** Send inside this transaction: the job exists only if the transaction commits. */
  tx?: SqlExecutor;
  /** A fixed id makes the send idempotent (a second send of the same id is a no-op). */
  id?: string;
  startAfter?: Date | number;
  singletonKey?: string;
}

export interface JobStatus {
  id: string;
  name: string;
  state: string;
  output: unknown;
  createdOn: Date;
  completedOn: Date | null;
}

/** The job queue as services see it: send a catalog job, look a job up. */
export interface JobQueue {
  send<P>(job: JobSpec<P>, payload: P, opts?: SendOptions): Promise<string | null>;
  find(id: string): Promise<JobStatus | null>;
}

export const BOOTSTRAP_RETRIES = 3;

export const bootstrapJob = spec({
  name: 'project-bootstrap',
  payload: z.object({ projectId: z.uuid() }),
  retry: { limit: BOOTSTRAP_RETRIES, delaySeconds: 20, backoff: true },
  expireInSeconds: 15 * 60,
  concurrency: 2,
});

export const refreshJob = spec({
  name: 'project-refresh',
  payload: z.object({
    projectId: z.uuid(),
    day: z.iso.date(),
    runId: z.uuid(),
    kind: z.enum(['daily', 'manual', 'new_prompts']),
    promptIds: z.array(z.uuid()).optional(),
  }),
  retry: { limit: 5, delaySeconds: 30, backoff: true },
  expireInSeconds: 60 * 60,
  concurrency: 4,
});
export type RefreshPayload = z.infer<typeof refreshJob.payload>;

/** Fires hourly (UTC); each project gets one daily run whatever the number of ticks or schedulers. */
export const dailyTickJob = spec({
  name: 'daily-refresh-tick',
  payload: z.looseObject({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  expireInSeconds: 10 * 60,
  policy: 'singleton',
  cron: '5 * * * *',
});

/** Daily (UTC): removes audit-log entries past their 400 days. */
export const auditRetentionJob = spec({
  name: 'audit-retention',
  payload: z.looseObject({}),
  retry: { limit: 2, delaySeconds: 300, backoff: false },
  expireInSeconds: 30 * 60,
  policy: 'singleton',
  cron: '17 3 * * *',
});

/** Daily (UTC): drops the answers' month partitions past RETENTION_MONTHS (docs/retention.md). */
export const answerRetentionJob = spec({
  name: 'answer-retention',
  payload: z.looseObject({}),
  retry: { limit: 2, delaySeconds: 300, backoff: false },
  expireInSeconds: 30 * 60,
  policy: 'singleton',
  cron: '41 3 * * *',
});

export const reanalyseJob = spec({
  name: 'project-reanalyse',
  payload: z.object({ projectId: z.uuid() }),
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireInSeconds: 60 * 60,
  policy: 'short',
});

/**
 * One delivery attempt. Retries are scheduled by the handler itself (delays with jitter
 * and Retry-After, docs/webhooks.md), each as a new job with a fixed id per attempt.
 */
export const deliveryJob = spec({
  name: 'delivery-attempt',
  payload: z.object({ deliveryId: z.uuid(), attempt: z.number().int().min(1) }),
  retry: { limit: 2, delaySeconds: 5, backoff: true },
  expireInSeconds: 60,
  concurrency: 16,
});

export const WORKFLOW_RETRIES = 3;

export const workflowStepJob = spec({
  name: 'workflow-step',
  payload: z.object({ workflowId: z.uuid(), version: z.number().int().min(0) }),
  retry: { limit: WORKFLOW_RETRIES, delaySeconds: 10, backoff: true },
  expireInSeconds: 10 * 60,
  concurrency: 2,
});

export const RECOMMEND_RETRIES = 2;

export const recommendJob = spec({
  name: 'actions-recommend',
  payload: z.object({ projectId: z.uuid(), taskId: z.uuid() }),
  retry: { limit: RECOMMEND_RETRIES, delaySeconds: 15, backoff: true },
  expireInSeconds: 15 * 60,
  concurrency: 2,
});

/** One site audit (issue 28): polite fetches of up to SITE_AUDIT_MAX_PAGES pages; a restart reruns it. */
export const siteAuditJob = spec({
  name: 'site-audit',
  payload: z.object({ auditId: z.uuid() }),
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  expireInSeconds: 15 * 60,
  concurrency: 2,
});

/** Weekly (Monday 05:30 UTC): a site audit of every project with a website. */
export const siteAuditWeeklyJob = spec({
  name: 'site-audit-weekly',
  payload: z.looseObject({}),
  retry: { limit: 2, delaySeconds: 300, backoff: false },
  expireInSeconds: 10 * 60,
  policy: 'singleton',
  cron: '30 5 * * 1',
});

/** After a collection run: evaluate the project's alert rules on the run's day (issue 27). */
export const alertsEvaluateJob = spec({
  name: 'alerts-evaluate',
  payload: z.object({ projectId: z.uuid(), day: z.iso.date(), runId: z.uuid().nullable() }),
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireInSeconds: 10 * 60,
  concurrency: 2,
});

/** Mondays 08:00 UTC: the weekly digest to every member who opted in. */
export const weeklyDigestJob = spec({
  name: 'weekly-digest',
  payload: z.looseObject({}),
  retry: { limit: 1, delaySeconds: 300, backoff: false },
  expireInSeconds: 30 * 60,
  policy: 'singleton',
  cron: '0 8 * * 1',
});

/** Every job the service knows, in the order their queues are created. */
// biome-ignore lint/suspicious/noExplicitAny: a list of specs of different payload types; each is checked by its own schema.
export const jobCatalog: JobSpec<any>[] = [bootstrapJob, refreshJob, dailyTickJob, reanalyseJob, answerRetentionJob, deliveryJob, workflowStepJob, recommendJob, auditRetentionJob, siteAuditJob, siteAuditWeeklyJob, alertsEvaluateJob, weeklyDigestJob];
