import type { z } from 'zod';
import type { AppContext } from '../context';

export interface JobMeta {
  id: string;
  retryCount: number;
}

/**
 * A job: its queue name, payload schema and retry policy, beside its handler. A payload
 * that fails its schema is a bug in the sender and fails the job without retries.
 */
export interface JobDefinition<P = any> {
  name: string;
  payload: z.ZodType<P>;
  retry: { limit: number; delaySeconds: number; backoff: boolean };
  /** Seconds a handler may run before the job counts as failed and is retried. */
  expireInSeconds: number;
  /** Handlers running at once per worker process. */
  concurrency?: number;
  /** Queue policy: 'singleton' lets only one job of the queue be active at once. */
  policy?: 'standard' | 'short' | 'singleton' | 'stately';
  /** Cron (UTC) on which the scheduler sends this job; pg-boss sends once per slot across processes. */
  cron?: string;
  handle?: (ctx: AppContext, payload: P, meta: JobMeta) => Promise<unknown>;
}

export const defineJob = <P>(def: JobDefinition<P>): JobDefinition<P> => def;
