import * as webhooks from '../modules/webhooks/service.js';
import * as webhookSchemas from '../modules/webhooks/schema.js';
import { successEnvelope } from '../lib/envelope.js';
import { plural, tool } from './tool-kit.js';
import { READ } from './tools-projects.js';

export const webhookTools = [
  tool({
    name: 'list_webhooks',
    title: 'List webhooks',
    description: "The team's webhooks (without their secrets): url, events (action.checkpoint, action.completed, action.failed), is_active.",
    scope: 'read',
    hints: READ,
    output: webhookSchemas.WebhookListEnvelope,
    run: async (ctx) => successEnvelope(await webhooks.listWebhooks(ctx)),
    summary: ({ data }) => `${plural(data.length, 'webhook')}${data.length ? `: ${data.map((w) => w.url).join(', ')}` : ''}`,
  }),
  tool({
    name: 'create_webhook',
    title: 'Register a webhook',
    description:
      'Register an HTTPS endpoint that receives action events (action.checkpoint, action.completed, action.failed) as signed POSTs. The signing secret is in this result only: keep it to verify the X-Webhook-Signature header of each delivery (hex HMAC-SHA256 of the raw body, keyed with the whole secret). A private or loopback address is refused.',
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    body: webhookSchemas.CreateWebhookBody,
    output: webhookSchemas.WebhookCreatedEnvelope,
    run: async (ctx, { body }) => successEnvelope(await webhooks.createWebhook(ctx, body)),
    summary: ({ data }) => `Webhook ${data.id} registered for ${data.events.join(', ')} at ${data.url}; its secret is in this result only.`,
  }),
  tool({
    name: 'list_webhook_deliveries',
    title: "A webhook's deliveries",
    description:
      "A webhook's recent deliveries, newest first (limit 1-100, default 50): event, status (pending while retries remain, then delivered or failed), attempts, the receiver's last status code and the last error.",
    scope: 'read',
    hints: READ,
    params: webhookSchemas.WebhookParams,
    query: webhookSchemas.DeliveriesQuery,
    output: webhookSchemas.WebhookDeliveriesEnvelope,
    run: async (ctx, { params, query }) => successEnvelope(await webhooks.listDeliveries(ctx, params.webhook_id, query.limit ?? 50)),
    summary: ({ data }) => {
      const failed = data.filter((d) => d.status === 'failed').length;
      return `${plural(data.length, 'delivery', 'deliveries')}${failed ? `, ${failed} failed` : ''}.`;
    },
  }),
  tool({
    name: 'delete_webhook',
    title: 'Delete a webhook',
    description: 'Delete a webhook; deliveries to it stop. This cannot be undone.',
    scope: 'admin',
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    params: webhookSchemas.WebhookParams,
    output: webhookSchemas.WebhookDeletedEnvelope,
    run: async (ctx, { params }) => successEnvelope(await webhooks.deleteWebhook(ctx, params.webhook_id)),
    summary: ({ data }) => data.message,
  }),
];
