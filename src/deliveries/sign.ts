import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** Bootstrap callbacks: Standard Webhooks headers, signed over `{id}.{timestamp}.{body}`. */
export function standardWebhookHeaders(secret: string, messageId: string, body: string, now = new Date()): Record<string, string> {
  const signer = new Webhook(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signer.sign(messageId, now, body),
  };
}

/**
 * Registered webhooks (spec 6.2, DECISIONS 8): lowercase hex HMAC-SHA256 of the raw body,
 * keyed with the secret string exactly as returned at registration (`whsec_` included).
 */
export function webhookHeaders(secret: string, messageId: string, body: string, now = new Date()): Record<string, string> {
  return {
    'x-webhook-signature': crypto.createHmac('sha256', secret).update(body).digest('hex'),
    'x-webhook-id': messageId,
    'x-webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
  };
}
