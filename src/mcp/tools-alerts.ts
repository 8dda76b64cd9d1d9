import { listAlertEvents } from '../modules/alerts/events.js';
import * as alertSchemas from '../modules/alerts/schema.js';
import * as alerts from '../modules/alerts/service.js';
import { ProjectParams } from '../modules/common.js';
import { successEnvelope } from '../lib/envelope.js';
import { plural, tool } from './tool-kit.js';
import { READ } from './tools-projects.js';

/** Alert rules and their fired events (issue 27): the same services and schemas as /v1. */
export const alertTools = [
  tool({
    name: 'list_alerts',
    title: 'List alert rules',
    description: "The project's alert rules: metric, condition (significant_drop|significant_rise|significant_change on the trend test, or below|above a threshold), filters and channels.",
    scope: 'read',
    hints: READ,
    params: ProjectParams,
    output: alertSchemas.AlertListEnvelope,
    run: async (ctx, { params }) => successEnvelope(await alerts.listAlerts(ctx, params.project_id)),
    summary: ({ data }) => `${plural(data.length, 'alert rule')}${data.length ? `: ${data.map((r) => r.name).join(', ')}` : ''}`,
  }),
  tool({
    name: 'create_alert',
    title: 'Create an alert rule',
    description:
      'Create an alert rule evaluated after every collection run. metric: visibility, share_of_voice, position, sentiment, own_citations, new_competitor, new_cited_domain. significant_* fire only on a significant change (95%) with at least 10 responses in each window; below/above need a threshold. channels: {type:"email", to:[...]}, {type:"slack", url}, {type:"webhook"}.',
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    params: ProjectParams,
    body: alertSchemas.CreateAlertBody,
    output: alertSchemas.AlertEnvelope,
    run: async (ctx, { params, body }) => successEnvelope(await alerts.createAlert(ctx, params.project_id, body)),
    summary: ({ data }) => `Alert rule ${data.alert_id} "${data.name}" created: ${data.metric} ${data.condition}.`,
  }),
  tool({
    name: 'delete_alert',
    title: 'Delete an alert rule',
    description: 'Delete an alert rule and its events. This cannot be undone.',
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    params: alertSchemas.AlertParams,
    output: alertSchemas.AlertDeletedEnvelope,
    run: async (ctx, { params }) => successEnvelope(await alerts.deleteAlert(ctx, params.project_id, params.alert_id)),
    summary: ({ data }) => data.message,
  }),
  tool({
    name: 'list_alert_events',
    title: 'List fired alert events',
    description: 'Fired alert events, newest first: value, previous, p_value, the windows compared and each delivery’s status (limit 1-200, default 50; alert_id to filter).',
    scope: 'read',
    hints: READ,
    params: ProjectParams,
    query: alertSchemas.EventsQuery,
    output: alertSchemas.AlertEventsEnvelope,
    run: async (ctx, { params, query }) => successEnvelope(await listAlertEvents(ctx, params.project_id, query)),
    summary: ({ data }) => `${plural(data.length, 'alert event')}${data[0] ? `; latest ${data[0].metric} ${data[0].condition} at ${data[0].fired_at}` : ''}.`,
  }),
];
