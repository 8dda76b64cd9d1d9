import type { JobDefinition } from './definition';
import { bootstrapJob, dailyTickJob, reanalyseJob, refreshJob } from '../collection/jobs';
import { deliveryJob } from '../deliveries/jobs';
import { recommendJob } from '../modules/actions/jobs';
import { workflowStepJob } from '../workflows/jobs';

/** Every job the service knows; a worker starts a handler for each one that has one. */
export const jobDefinitions: JobDefinition[] = [bootstrapJob, refreshJob, dailyTickJob, reanalyseJob, deliveryJob, workflowStepJob, recommendJob];
