import { z } from 'zod';
import { successEnvelopeSchema } from '../../lib/envelope.js';
import { isHttpsUrl } from '../../lib/url.js';
import { IsoDate } from '../common.js';

export const WEBHOOK_EVENTS = ['action.checkpoint', 'action.completed', 'action.failed', 'alert.triggered'] as const;

export const Webhook = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    is_active: z.boolean(),
    created_at: IsoDate,
  })
  .meta({ id: 'Webhook' });

export const WebhookCreated = Webhook.extend({ secret: z.string() }).meta({ id: 'WebhookCreated' });

export const CreateWebhookBody = z.strictObject({
  url: z
    .string({ error: 'url is required' })
    .trim()
    .min(1, 'url is required')
    .max(2048, 'url must be at most 2048 characters')
    .refine(isHttpsUrl, 'url must be a valid HTTPS URL'),
  events: z
    .array(
      z.string().refine((e) => (WEBHOOK_EVENTS as readonly string[]).includes(e), {
        error: (iss) => `Invalid event type: ${JSON.stringify(iss.input)}; allowed: ${WEBHOOK_EVENTS.join(', ')}`,
      }),
      { error: (iss) => (iss.input === undefined ? 'events is required' : 'events must be an array of event types') },
    )
    .min(1, 'events must contain at least one event type'),
});

export const WebhookParams = z.strictObject({
  webhook_id: z.string().regex(/^wh_[0-9A-Za-z]{1,64}$/, 'webhook_id must look like wh_…'),
});

/** One delivery attempt series of a webhook event (an extension: failed deliveries made visible). */
export const WebhookDelivery = z
  .object({
    id: z.uuid(),
    event: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']).meta({ description: 'pending while attempts remain' }),
    attempts: z.number().int().meta({ description: 'attempts made so far (at most 4: the first and 3 retries)' }),
    last_status_code: z.number().int().nullable().meta({ description: "the receiver's last HTTP status; null when none answered" }),
    last_error: z.string().nullable().meta({ description: 'why the last attempt failed (timeout, refused address, status)' }),
    created_at: IsoDate,
    delivered_at: IsoDate.nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

export const DeliveriesQuery = z.strictObject({
  limit: z.coerce
    .number({ error: 'limit must be a whole number from 1 to 100' })
    .int('limit must be a whole number from 1 to 100')
    .min(1, 'limit must be a whole number from 1 to 100')
    .max(100, 'limit must be a whole number from 1 to 100')
    .optional(),
});

export const WebhookCreatedEnvelope = successEnvelopeSchema(WebhookCreated);
export const WebhookListEnvelope = successEnvelopeSchema(z.array(Webhook));
export const WebhookDeliveriesEnvelope = successEnvelopeSchema(z.array(WebhookDelivery));
export const WebhookDeletedEnvelope = successEnvelopeSchema(z.object({ id: z.string(), message: z.string() }));
