import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendAlertTest } from '../../modules/alerts/test-notice.js';
import { ctxOf } from '../request.js';
import { ProjectParams } from '../../modules/common.js';
import { successEnvelope, errorResponses } from '../../lib/envelope.js';
import { alertTestSample, listAlertEvents } from '../../modules/alerts/events.js';
import * as schemas from '../../modules/alerts/schema.js';
import * as alerts from '../../modules/alerts/service.js';

export default async function alertRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['alerts'];

  app.get(
    '/projects/:project_id/alerts',
    {
      schema: {
        operationId: 'listAlerts',
        tags,
        summary: "The project's alert rules",
        params: ProjectParams,
        response: { 200: schemas.AlertListEnvelope, ...errorResponses(400, 401, 403, 404, 414, 429) },
      },
    },
    async (req) => successEnvelope(await alerts.listAlerts(ctxOf(req), req.params.project_id)),
  );

  app.post(
    '/projects/:project_id/alerts',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'createAlert',
        tags,
        summary: 'Create an alert rule, evaluated after every collection run',
        description:
          'significant_* conditions fire only when the trend test finds the change significant (95%) and both windows have at least 10 responses; below/above need a threshold in the metric’s unit. One event per change: not repeated while the condition holds.',
        params: ProjectParams,
        body: schemas.CreateAlertBody,
        response: { 200: schemas.AlertEnvelope, ...errorResponses(400, 401, 403, 404, 414, 429) },
      },
    },
    async (req) => successEnvelope(await alerts.createAlert(ctxOf(req), req.params.project_id, req.body)),
  );

  app.get(
    '/projects/:project_id/alerts/events',
    {
      schema: {
        operationId: 'listAlertEvents',
        tags,
        summary: 'Fired alert events, newest first, with the status of each delivery',
        params: ProjectParams,
        querystring: schemas.EventsQuery,
        response: { 200: schemas.AlertEventsEnvelope, ...errorResponses(400, 401, 403, 404, 414, 429) },
      },
    },
    async (req) => successEnvelope(await listAlertEvents(ctxOf(req), req.params.project_id, req.query)),
  );

  app.get(
    '/projects/:project_id/alerts/:alert_id',
    {
      schema: {
        operationId: 'getAlert',
        tags,
        summary: 'One alert rule',
        params: schemas.AlertParams,
        response: { 200: schemas.AlertEnvelope, ...errorResponses(400, 401, 403, 404, 414, 429) },
      },
    },
    async (req) => successEnvelope(await alerts.getAlert(ctxOf(req), req.params.project_id, req.params.alert_id)),
  );

  app.patch(
    '/projects/:project_id/alerts/:alert_id',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'updateAlert',
        tags,
        summary: 'Change an alert rule; a change of what it watches starts it afresh',
        params: schemas.AlertParams,
        body: schemas.PatchAlertBody,
        response: { 200: schemas.AlertEnvelope, ...errorResponses(400, 401, 403, 404, 414, 429) },
      },
    },
    async (req) => successEnvelope(await alerts.updateAlert(ctxOf(req), req.params.project_id, req.params.alert_id, req.body)),
  );

  app.delete(
    '/projects/:project_id/alerts/:alert_id',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'deleteAlert',
        tags,
        summary: 'Delete an alert rule and its events',
        params: schemas.AlertParams,
        response: { 200: schemas.AlertDeletedEnvelope, ...errorResponses(400, 401, 403, 404, 414, 429) },
      },
    },
    async (req) => successEnvelope(await alerts.deleteAlert(ctxOf(req), req.params.project_id, req.params.alert_id)),
  );

  app.post(
    '/projects/:project_id/alerts/:alert_id/test',
    {
      config: { scope: 'admin' },
      schema: {
        operationId: 'testAlert',
        tags,
        summary: 'Send a sample of the alert to each of its channels now',
        description: 'Returns one `{type, ok, detail}` per channel. Nothing is stored and nothing is retried.',
        params: schemas.AlertParams,
        response: { 200: schemas.TestResultsEnvelope, ...errorResponses(400, 401, 403, 404, 414, 429) },
      },
    },
    async (req) => {
      const ctx = ctxOf(req);
      const sample = await alertTestSample(ctx, req.params.project_id, req.params.alert_id);
      return successEnvelope(await sendAlertTest(ctx, sample.teamId, sample.channels, sample.notice));
    },
  );
}
