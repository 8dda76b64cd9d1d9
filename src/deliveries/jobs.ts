import { z } from 'zod';
import { defineJob } from '../jobs/definition';
import { attemptDelivery } from './send';

/**
 * One delivery attempt. Retries are scheduled by the handler itself (delays with jitter
 * and Retry-After, DECISIONS 8), each as a new job with a fixed id per attempt.
 */
export const deliveryJob = defineJob({
  name: 'delivery-attempt',
  payload: z.object({ deliveryId: z.uuid(), attempt: z.number().int().min(1) }),
  retry: { limit: 2, delaySeconds: 5, backoff: true },
  expireInSeconds: 60,
  concurrency: 16,
  handle: (ctx, p) => attemptDelivery(ctx, p.deliveryId, p.attempt),
});
