import type { ServiceContext } from '../../../context.js';
import { deliveryJob } from '../../../jobs/catalog.js';
import { stableUuid } from '../../../lib/crypto.js';
import { OutboundError, safeRequest } from '../../../ports/http/safe-request.js';
import { forgetProject } from '../../projects/project-row.js';
import { sendMailDelivery } from './mail.js';
import { registeredWebhookHeaders, standardWebhookHeaders } from '../sign.js';

/** Retries after the first attempt (spec 6.2: up to 3). */
export const MAX_RETRIES = 3;

interface DeliveryRow {
  id: string;
  kind: 'callback' | 'webhook' | 'slack' | 'email';
  url: string;
  message_id: string;
  event: string;
  body: string;
  status: string;
  attempts: number;
  webhook_id: string | null;
  secret_encrypted: string | null;
  webhook_active: boolean | null;
}

/** Delay before retry n (1-based): base × 2^(n-1) ± 20 %, or the receiver's longer Retry-After. */
export function retryDelayMs(base: number, retry: number, retryAfterHeader?: string, random = Math.random): number {
  const jittered = base * 2 ** (retry - 1) * (0.8 + 0.4 * random());
  const ra = retryAfterHeader ? parseRetryAfter(retryAfterHeader) : null;
  return Math.round(ra !== null && ra > jittered ? ra : jittered);
}

function parseRetryAfter(v: string): number | null {
  const secs = Number(v);
  if (Number.isFinite(secs) && secs >= 0) return Math.min(secs, 3600) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.min(Math.max(0, at - Date.now()), 3600_000);
}

/**
 * One attempt of one delivery: sign, POST with a 10 s deadline, 2xx is success, anything
 * else (3xx included, never followed) is a failure retried up to MAX_RETRIES times.
 */
export async function attemptDelivery(ctx: ServiceContext, deliveryId: string, attempt: number): Promise<void> {
  const { rows } = await ctx.store.query<DeliveryRow>(
    `select d.id, d.kind, d.url, d.message_id, d.event, d.body, d.status, d.attempts, d.webhook_id,
            w.secret_encrypted, w.is_active as webhook_active
       from deliveries d left join webhooks w on w.id = d.webhook_id
      where d.id = $1`,
    [deliveryId],
  );
  const d = rows[0];
  // Gone (its webhook was deleted), finished, or this attempt already ran.
  if (d?.status !== 'pending' || d.attempts >= attempt) return;
  if (d.kind === 'webhook' && (!d.secret_encrypted || d.webhook_active === false)) {
    logFailure(ctx, d, attempt, 'webhook removed or inactive', true);
    await finish(ctx, d, 'failed', null, 'webhook removed or inactive', attempt);
    return;
  }
  const now = new Date();
  // Registered webhooks carry the contract's X-Webhook-* headers and, beside them, the
  // Standard Webhooks ones: their signature covers the id and the timestamp too, so a
  // receiver can refuse a replayed delivery (see docs/webhooks.md).
  const headers =
    d.kind === 'callback'
      ? standardWebhookHeaders(ctx.callbackSecret, d.message_id, d.body, now)
      : d.kind === 'webhook'
        ? registeredWebhookHeaders(ctx.box.open(d.secret_encrypted!), d.message_id, d.body, now)
        : {}; // a Slack incoming webhook's URL is its secret; mail is not HTTP
  let status: number | null = null;
  let error: string | null = null;
  let retryAfter: string | undefined;
  try {
    if (d.kind === 'email') {
      await sendMailDelivery(ctx, d.body);
      await finish(ctx, d, 'delivered', null, null, attempt);
      return;
    }
    const res = await safeRequest(d.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Sightline-Webhooks/1.0', ...headers },
      body: d.body,
      timeoutMs: ctx.config.webhookTimeoutMs,
      maxBytes: 64 * 1024,
      allowPrivate: ctx.config.allowPrivateUrls,
      tls: ctx.config.outboundCa ? { ca: ctx.config.outboundCa } : undefined,
    });
    status = res.status;
    retryAfter = res.headers['retry-after'];
    if (status >= 200 && status < 300) {
      await finish(ctx, d, 'delivered', status, null, attempt);
      return;
    }
    error = status >= 300 && status < 400 ? `redirect (${status}) not followed` : `receiver answered ${status}`;
  } catch (err) {
    error = err instanceof OutboundError ? `${err.code}: ${err.message}` : (err as Error).message;
    if (err instanceof OutboundError && err.code === 'blocked_address') {
      // A private address is refused for good: retrying cannot change the answer.
      logFailure(ctx, d, attempt, error, true);
      await finish(ctx, d, 'failed', null, error, attempt);
      return;
    }
  }
  logFailure(ctx, d, attempt, error, attempt > MAX_RETRIES);
  if (attempt > MAX_RETRIES) {
    await finish(ctx, d, 'failed', status, error, attempt);
    return;
  }
  const delay = retryDelayMs(ctx.config.webhookRetryBaseMs, attempt, retryAfter);
  await ctx.store.tx(async (tx) => {
    const moved = await tx.query(
      `update deliveries set attempts = $2, last_status = $3, last_error = $4 where id = $1 and status = 'pending' and attempts < $2`,
      [d.id, attempt, status, error],
    );
    if (!moved.rowCount) return;
    await ctx.jobs.send(
      deliveryJob,
      { deliveryId: d.id, attempt: attempt + 1 },
      { tx, id: stableUuid('delivery', d.id, String(attempt + 1)), startAfter: new Date(Date.now() + delay) },
    );
  });
}

/** Scheme, host and port: what a log may show of a receiver URL (its path, query or user info may hold a token). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
}

/**
 * Every failed attempt leaves a warn line (issue 11: refused deliveries used to vanish in
 * silence): the delivery's id and why, never the URL beyond its origin. The team sees the
 * same through GET /v1/webhooks/{id}/deliveries.
 */
function logFailure(ctx: ServiceContext, d: DeliveryRow, attempt: number, reason: string, final: boolean): void {
  const origin = originOf(d.url);
  ctx.log.warn(
    {
      delivery_id: d.id,
      kind: d.kind,
      event: d.event,
      webhook_id: d.webhook_id,
      attempt,
      final,
      target: origin,
      reason: reason.split(d.url).join(origin),
    },
    final ? 'delivery failed for good' : 'delivery attempt failed; will retry',
  );
}

async function finish(ctx: ServiceContext, d: DeliveryRow, status: 'delivered' | 'failed', code: number | null, error: string | null, attempt: number) {
  const id = d.id;
  await ctx.store.query(
    `update deliveries set status = $2, attempts = $5, last_status = $3, last_error = $4,
            delivered_at = case when $2 = 'delivered' then now() else null end
      where id = $1 and status = 'pending'`,
    [id, status, code, error, attempt],
  );
  // A bootstrap callback's fate is part of its project's answer (callback_status).
  if (d.kind === 'callback') {
    const projectId = bootstrapProjectOf(d.body);
    if (projectId) forgetProject(ctx, projectId);
  }
}

function bootstrapProjectOf(body: string): string | null {
  try {
    const id = (JSON.parse(body) as { project_id?: unknown }).project_id;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}
