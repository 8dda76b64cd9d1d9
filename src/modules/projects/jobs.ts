import { z } from 'zod';
import { defineJob } from '../../jobs/definition';

/** Bootstrap of a new project (the pipeline itself lands with the collection engine). */
export const bootstrapJob = defineJob({
  name: 'project-bootstrap',
  payload: z.object({ projectId: z.uuid() }),
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  expireInSeconds: 15 * 60,
});
