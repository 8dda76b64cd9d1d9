import { z } from 'zod';
import { defineJob } from '../jobs/definition';
import { runBootstrap } from './bootstrap';
import { reanalyseProject } from './reanalyse';
import { runRefresh, scheduleDailyRefreshes } from './refresh';

const BOOTSTRAP_RETRIES = 3;

export const bootstrapJob = defineJob({
  name: 'project-bootstrap',
  payload: z.object({ projectId: z.uuid() }),
  retry: { limit: BOOTSTRAP_RETRIES, delaySeconds: 20, backoff: true },
  expireInSeconds: 15 * 60,
  concurrency: 2,
  handle: (ctx, p, meta) => runBootstrap(ctx, p.projectId, meta.retryCount >= BOOTSTRAP_RETRIES),
});

export const refreshJob = defineJob({
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
  handle: (ctx, p) => runRefresh(ctx, p),
});

/** Fires hourly (UTC); each project gets one daily run whatever the number of ticks or schedulers. */
export const dailyTickJob = defineJob({
  name: 'daily-refresh-tick',
  payload: z.object({}).passthrough(),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  expireInSeconds: 10 * 60,
  policy: 'singleton',
  cron: '5 * * * *',
  handle: async (ctx) => ({ queued: await scheduleDailyRefreshes(ctx) }),
});

export const reanalyseJob = defineJob({
  name: 'project-reanalyse',
  payload: z.object({ projectId: z.uuid() }),
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireInSeconds: 60 * 60,
  policy: 'short',
  handle: async (ctx, p) => ({ analysed: await reanalyseProject(ctx, p.projectId) }),
});
