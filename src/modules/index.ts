import type { FastifyInstance } from 'fastify';
import accountRoutes from './accounts/routes';
import keyRoutes from './keys/routes';
import projectRoutes from './projects/routes';

/** Route plugins of every domain module, registered under /v1. */
export const moduleRoutes: Array<(app: FastifyInstance) => Promise<void>> = [accountRoutes, keyRoutes, projectRoutes];
