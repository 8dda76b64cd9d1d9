import type { JobDefinition } from './definition';
import { bootstrapJob } from '../modules/projects/jobs';

/** Every job the service knows; a worker starts a handler for each one that has one. */
export const jobDefinitions: JobDefinition[] = [bootstrapJob];
