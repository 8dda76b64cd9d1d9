import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import { cachedRead } from '../cached-read.js';
import { markRetention } from '../retained-from.js';
import { ProjectParams } from '../../modules/common.js';
import * as promptAnalytics from '../../modules/analytics/prompt-analytics.js';
import * as promptCitations from '../../modules/analytics/prompt-citations.js';
import * as projectAnalytics from '../../modules/analytics/project-analytics.js';
import { projectModelChanges } from '../../modules/analytics/model-changes.js';
import { promptSearchQueries } from '../../modules/analytics/prompt-searches.js';
import { promptSeries } from '../../modules/analytics/prompt-series.js';
import { samplingPlan } from '../../modules/analytics/sampling-plan.js';
import * as schemas from '../../modules/analytics/schema.js';
import { resolveWindow, WindowQuery } from '../../modules/analytics/window.js';

/** Analytics (spec 4.4 analytics, 4.6): every figure from the daily rollups, except chats. */
export default async function analyticsRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['analytics'];
  const errs = errorResponses(400, 401, 403, 404, 429);

  app.get(
    '/projects/:project_id/prompts/:prompt_id/analytics',
    { schema: { operationId: 'getPromptAnalytics', tags, summary: 'Daily visibility, position and sentiment of a prompt per provider', params: schemas.PromptParams, querystring: WindowQuery, response: { 200: schemas.PromptAnalytics, ...errs } } },
    async (req, reply) => {
      const w = resolveWindow(req.query);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await promptAnalytics.promptAnalytics(ctx, req.params.project_id, req.params.prompt_id, w)));
    },
  );

  app.get(
    '/projects/:project_id/prompts/series',
    {
      schema: {
        operationId: 'getPromptSeries',
        tags,
        summary: 'Daily visibility of every prompt of the project over the window (extension; for sparklines)',
        params: ProjectParams,
        querystring: WindowQuery,
        response: { 200: schemas.PromptSeries, ...errs },
      },
    },
    async (req, reply) => {
      const w = resolveWindow(req.query);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await promptSeries(ctx, req.params.project_id, w)));
    },
  );

  app.get(
    '/projects/:project_id/prompts/:prompt_id/chats',
    {
      schema: {
        operationId: 'listChats',
        tags,
        summary: "The prompt's AI answers in the window, newest first (paged: page, page_size)",
        params: schemas.PromptParams,
        querystring: schemas.PagedWindowQuery,
        response: { 200: schemas.Chats, ...errs },
      },
    },
    async (req, reply) => {
      const { page, page_size, ...window } = req.query;
      const w = resolveWindow(window);
      markRetention(req, reply, w.from);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await promptAnalytics.promptChats(ctx, req.params.project_id, req.params.prompt_id, w, page, page_size)));
    },
  );

  app.get(
    '/projects/:project_id/prompts/:prompt_id/domains',
    { schema: { operationId: 'listPromptDomains', tags, summary: "Domains cited in the prompt's answers, most cited first", params: schemas.PromptParams, querystring: WindowQuery, response: { 200: schemas.Domains, ...errs } } },
    async (req, reply) => {
      const w = resolveWindow(req.query);
      markRetention(req, reply, w.from);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await promptCitations.promptDomains(ctx, req.params.project_id, req.params.prompt_id, w)));
    },
  );

  app.get(
    '/projects/:project_id/prompts/:prompt_id/urls',
    { schema: { operationId: 'listPromptUrls', tags, summary: "URLs cited in the prompt's answers, most cited first", params: schemas.PromptParams, querystring: WindowQuery, response: { 200: schemas.Urls, ...errs } } },
    async (req, reply) => {
      const w = resolveWindow(req.query);
      markRetention(req, reply, w.from);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await promptCitations.promptUrls(ctx, req.params.project_id, req.params.prompt_id, w)));
    },
  );

  app.get(
    '/projects/:project_id/overview',
    { schema: { operationId: 'getProjectOverview', tags, summary: 'Per-prompt figures of the window', params: ProjectParams, querystring: schemas.OverviewQuery, response: { 200: schemas.Overview, ...errs } } },
    async (req, reply) => {
      const { prompt_type, ...window } = req.query;
      const w = resolveWindow(window);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await projectAnalytics.overview(ctx, req.params.project_id, w, prompt_type)));
    },
  );

  app.get(
    '/projects/:project_id/visibility',
    { schema: { operationId: 'getProjectVisibility', tags, summary: 'Daily visibility, sentiment and position of each active brand', params: ProjectParams, querystring: WindowQuery, response: { 200: schemas.Visibility, ...errs } } },
    async (req, reply) => {
      const w = resolveWindow(req.query);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await projectAnalytics.visibilitySeries(ctx, req.params.project_id, w)));
    },
  );

  app.get(
    '/projects/:project_id/prompts/:prompt_id/search-queries',
    {
      schema: {
        operationId: 'listPromptSearchQueries',
        tags,
        summary: "The web searches the engines ran for the prompt's answers in the window, most run first (extension)",
        params: schemas.PromptParams,
        querystring: WindowQuery,
        response: { 200: schemas.SearchQueries, ...errs },
      },
    },
    async (req, reply) => {
      const w = resolveWindow(req.query);
      markRetention(req, reply, w.from);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await promptSearchQueries(ctx, req.params.project_id, req.params.prompt_id, w)));
    },
  );

  app.get(
    '/projects/:project_id/model-changes',
    {
      schema: {
        operationId: 'listModelChanges',
        tags,
        summary: "The days in the window on which an engine answered with another model than on its previous day with answers, oldest first (extension)",
        params: ProjectParams,
        querystring: WindowQuery,
        response: { 200: schemas.ModelChanges, ...errs },
      },
    },
    async (req, reply) => {
      const w = resolveWindow(req.query);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await projectModelChanges(ctx, req.params.project_id, w)));
    },
  );

  app.get(
    '/projects/:project_id/sampling-plan',
    {
      schema: {
        operationId: 'getSamplingPlan',
        tags,
        summary: "Per active prompt: its answers, its visibility interval's half-width, and the samples and credits a 95% interval of ±margin points needs (extension)",
        params: ProjectParams,
        querystring: schemas.SamplingPlanQuery,
        response: { 200: schemas.SamplingPlan, ...errs },
      },
    },
    async (req, reply) => {
      const { margin, ...window } = req.query;
      const w = resolveWindow(window);
      return cachedRead(req, reply, req.params.project_id, async (ctx) => successEnvelope(await samplingPlan(ctx, req.params.project_id, w, margin)));
    },
  );
}
