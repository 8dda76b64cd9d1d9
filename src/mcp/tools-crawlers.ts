import { ProjectParams } from '../modules/common.js';
import { aiTrafficReport, crawlerReport } from '../modules/crawler-logs/reads.js';
import * as crawlerSchemas from '../modules/crawler-logs/schema.js';
import { successEnvelope, successEnvelopeSchema } from '../lib/envelope.js';
import * as siteAuditSchemas from '../modules/site-audit/schema.js';
import { latestAudit, startAudit } from '../modules/site-audit/service.js';
import { plural, tool } from './tool-kit.js';
import { READ } from './tools-projects.js';

// The crawler-log reads and the site audit, through the same services and schemas as REST.
export const crawlerTools = [
  tool({
    name: 'get_crawlers',
    title: 'AI crawlers of the site',
    description:
      "From the site's own access logs: each AI agent (GPTBot, OAI-SearchBot, ChatGPT-User, ClaudeBot, PerplexityBot, ...) with its hits, hits verified against the operator's published addresses and pages fetched; and each page with hits per agent and the answers citing it in the window (start_date, end_date: YYYY-MM-DD, default the last 30 days).",
    scope: 'read',
    hints: READ,
    params: ProjectParams,
    query: crawlerSchemas.DayRangeQuery,
    output: successEnvelopeSchema(crawlerSchemas.CrawlerReport),
    run: async (ctx, { params, query }) => successEnvelope(await crawlerReport(ctx, params.project_id, crawlerSchemas.dayRange(query))),
    summary: ({ data }) =>
      data.bots.length ? `${plural(data.bots.length, 'agent')}: ${data.bots.map((b) => `${b.agent} ${b.hits} (${b.verified_hits} verified)`).join(', ')}` : 'No AI crawler hits in the window.',
  }),
  tool({
    name: 'get_ai_traffic',
    title: 'Visits referred by AI engines',
    description: 'Visits referred by AI engines (chatgpt.com, perplexity.ai, gemini.google.com, claude.ai, copilot.microsoft.com, ...) per engine and per landing page, from the ingested access logs, over the window (start_date, end_date).',
    scope: 'read',
    hints: READ,
    params: ProjectParams,
    query: crawlerSchemas.DayRangeQuery,
    output: successEnvelopeSchema(crawlerSchemas.AiTrafficReport),
    run: async (ctx, { params, query }) => successEnvelope(await aiTrafficReport(ctx, params.project_id, crawlerSchemas.dayRange(query))),
    summary: ({ data }) => (data.engines.length ? data.engines.map((e) => `${e.engine} ${e.visits}`).join(', ') : 'No AI referrals in the window.'),
  }),
  tool({
    name: 'start_site_audit',
    title: 'Audit the site for AI agents',
    description:
      "Start an audit of the project's website as AI agents see it (robots.txt per agent, blocks by user agent, noindex, text without JavaScript, llms.txt, sitemap, JSON-LD). It runs in the background; read it with get_site_audit. An audit already running is returned instead of a new one.",
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    params: ProjectParams,
    output: successEnvelopeSchema(siteAuditSchemas.AuditStarted),
    run: async (ctx, { params }) => successEnvelope(await startAudit(ctx, params.project_id)),
    summary: ({ data }) => `Site audit ${data.audit_id} ${data.status}.`,
  }),
  tool({
    name: 'get_site_audit',
    title: 'The latest site audit',
    description: 'The latest site audit: its status, pages (status, time to first byte, per-agent status, noindex, text, JSON-LD types), findings with a fix each, and what changed since the previous audit.',
    scope: 'read',
    hints: READ,
    params: ProjectParams,
    output: successEnvelopeSchema(siteAuditSchemas.SiteAudit),
    run: async (ctx, { params }) => successEnvelope(await latestAudit(ctx, params.project_id)),
    summary: ({ data }) => `Audit ${data.status}: ${plural(data.pages.length, 'page')}, ${plural(data.findings.length, 'finding')}${data.findings.length ? ` (${[...new Set(data.findings.map((f) => f.code))].join(', ')})` : ''}.`,
  }),
];
