import { z } from 'zod';
import { envA } from '../envelope.js';
import { isHttpsUrl } from '../../lib/url.js';
import { IsoDate } from '../common.js';

export const WEBHOOK_EVENTS = ['action.checkpoint', 'action.completed', 'action.failed'] as const;

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

export const WebhookCreatedEnvelope = envA(WebhookCreated);
export const WebhookListEnvelope = envA(z.array(Webhook));
export const WebhookDeletedEnvelope = envA(z.object({ id: z.string(), message: z.string() }));
