import type { FastifyInstance } from 'fastify';
import accountRoutes from './accounts/routes.js';
import actionRoutes from './actions/routes.js';
import enrichRoutes from './actions/enrich-routes.js';
import adminRoutes from './admin/routes.js';
import analyticsRoutes from './analytics/routes.js';
import projectChatsRoutes from './analytics/project-chats-routes.js';
import sourceRoutes from './sources/routes.js';
import competitorRoutes from './competitors/routes.js';
import keyRoutes from './keys/routes.js';
import sessionRoutes from './sessions/routes.js';
import projectRoutes from './projects/routes.js';
import promptRoutes from './prompts/routes.js';
import topicRoutes from './topics/routes.js';
import webhookRoutes from './webhooks/routes.js';
import auditRoutes from './audit/routes.js';
import personRoutes from './team/account-routes.js';
import teamRoutes from './team/routes.js';
import workflowRoutes from './actions/workflow-routes.js';
import overviewRoutes from './overview/routes.js';
import creditRoutes from './credits/routes.js';
import crawlerLogDrainRoutes from './crawler-logs/drain-routes.js';
import crawlerLogRoutes from './crawler-logs/routes.js';
import siteAuditRoutes from './site-audit/routes.js';
import alertRoutes from './alerts/routes.js';
import digestRoutes from './digest/routes.js';
import reportRoutes from './reports/routes.js';
import themeRoutes from './themes/routes.js';

/** Route plugins of every domain module, registered under /v1. */
export const moduleRoutes: Array<(app: FastifyInstance) => Promise<void>> = [
  accountRoutes,
  keyRoutes,
  sessionRoutes,
  teamRoutes,
  creditRoutes,
  personRoutes,
  auditRoutes,
  projectRoutes,
  topicRoutes,
  promptRoutes,
  competitorRoutes,
  themeRoutes,
  analyticsRoutes,
  overviewRoutes,
  projectChatsRoutes,
  sourceRoutes,
  actionRoutes,
  enrichRoutes,
  webhookRoutes,
  workflowRoutes,
  adminRoutes,
  crawlerLogRoutes,
  crawlerLogDrainRoutes,
  siteAuditRoutes,
  alertRoutes,
  digestRoutes,
  reportRoutes,
];
