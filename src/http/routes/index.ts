import type { FastifyInstance } from 'fastify';
import accountRoutes from './accounts.js';
import actionRoutes from './actions.js';
import enrichRoutes from './enrich.js';
import adminRoutes from './admin.js';
import analyticsRoutes from './analytics.js';
import projectChatsRoutes from './project-chats.js';
import sourceRoutes from './sources.js';
import competitorRoutes from './competitors.js';
import keyRoutes from './keys.js';
import sessionRoutes from './sessions.js';
import projectRoutes from './projects.js';
import promptRoutes from './prompts.js';
import topicRoutes from './topics.js';
import webhookRoutes from './webhooks.js';
import auditRoutes from './audit.js';
import ownAccountRoutes from './own-account.js';
import teamRoutes from './team.js';
import workflowRoutes from './workflows.js';
import overviewRoutes from './overview.js';
import creditRoutes from './credits.js';
import crawlerLogRoutes from './crawler-logs.js';
import crawlerLogDrainRoutes from './crawler-log-drains.js';
import siteAuditRoutes from './site-audit.js';
import alertRoutes from './alerts.js';
import digestRoutes from './digest.js';
import reportRoutes from './reports.js';
import themeRoutes from './themes.js';

/** The REST surface's route plugins, one per domain, registered under /v1. */
export const v1Routes: Array<(app: FastifyInstance) => Promise<void>> = [
  accountRoutes,
  keyRoutes,
  sessionRoutes,
  teamRoutes,
  creditRoutes,
  ownAccountRoutes,
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
