import crypto from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks headers, signed over `{id}.{timestamp}.{body}` with the key that a
 * `whsec_<base64>` secret encodes (the library decodes the base64 after the prefix).
 */
export function standardWebhookHeaders(secret: string, messageId: string, body: string, now = new Date()): Record<string, string> {
  const signer = new Webhook(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signer.sign(messageId, now, body),
  };
}

/**
 * Registered webhooks (spec 6.2, docs/webhooks.md): lowercase hex HMAC-SHA256 of the raw body,
 * keyed with the secret string exactly as returned at registration (`whsec_` included).
 */
export function webhookHeaders(secret: string, messageId: string, body: string, now = new Date()): Record<string, string> {
  return {
    'x-webhook-signature': crypto.createHmac('sha256', secret).update(body).digest('hex'),
    'x-webhook-id': messageId,
    'x-webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
  };
}

/**
 * Everything a registered webhook's delivery carries: the contract's headers and the
 * Standard Webhooks ones, both from the one secret returned at registration. That secret is
 * `whsec_` + base64 of 24 random bytes, so `new Webhook(secret).verify(body, headers)`
 * takes it as it is; the contract's hex HMAC keeps using the whole string as its key.
 */
export function registeredWebhookHeaders(secret: string, messageId: string, body: string, now = new Date()): Record<string, string> {
  return { ...webhookHeaders(secret, messageId, body, now), ...standardWebhookHeaders(secret, messageId, body, now) };
}
