import { z } from 'zod';
import { defineJob } from '../jobs/definition';
import { runStep, WORKFLOW_STEP_JOB } from './engine';

const RETRIES = 3;

export const workflowStepJob = defineJob({
  name: WORKFLOW_STEP_JOB,
  payload: z.object({ workflowId: z.uuid(), version: z.number().int().min(0) }),
  retry: { limit: RETRIES, delaySeconds: 10, backoff: true },
  expireInSeconds: 10 * 60,
  concurrency: 2,
  handle: (ctx, p, meta) => runStep(ctx, p.workflowId, p.version, meta.retryCount >= RETRIES),
});
