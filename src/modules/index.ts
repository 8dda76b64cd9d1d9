import type { FastifyInstance } from 'fastify';
import accountRoutes from './accounts/routes';
import actionRoutes from './actions/routes';
import enrichRoutes from './actions/enrich-routes';
import adminRoutes from './admin/routes';
import analyticsRoutes from './analytics/routes';
import sourceRoutes from './sources/routes';
import competitorRoutes from './competitors/routes';
import keyRoutes from './keys/routes';
import projectRoutes from './projects/routes';
import promptRoutes from './prompts/routes';
import topicRoutes from './topics/routes';
import webhookRoutes from './webhooks/routes';
import workflowRoutes from './actions/workflow-routes';

/** Route plugins of every domain module, registered under /v1. */
export const moduleRoutes: Array<(app: FastifyInstance) => Promise<void>> = [
  accountRoutes,
  keyRoutes,
  projectRoutes,
  topicRoutes,
  promptRoutes,
  competitorRoutes,
  analyticsRoutes,
  sourceRoutes,
  actionRoutes,
  enrichRoutes,
  webhookRoutes,
  workflowRoutes,
  adminRoutes,
];
