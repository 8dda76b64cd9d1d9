import type { RequestContext } from '../../context.js';
import { Conflict, NotFound } from '../../lib/errors.js';
import { generateWebhookSecret, randomBase62 } from '../../lib/crypto.js';
import { iso, isoOrNull, isUniqueViolation } from '../common.js';
import { assertDeliverableUrl } from '../webhooks/target.js';

interface WebhookRow {
  id: string;
  url: string;
  events: string[];
  is_active: boolean;
  created_at: Date;
}

const present = (r: WebhookRow) => ({ id: r.id, url: r.url, events: r.events, is_active: r.is_active, created_at: iso(r.created_at) });

export async function createWebhook(ctx: RequestContext, input: { url: string; events: string[] }) {
  await assertDeliverableUrl(ctx, 'url', input.url);
  const secret = generateWebhookSecret();
  const events = [...new Set(input.events)];
  try {
    const { rows } = await ctx.store.query<WebhookRow>(
      `insert into webhooks (id, team_id, url, events, secret_encrypted) values ($1, $2, $3, $4::jsonb, $5)
       returning id, url, events, is_active, created_at`,
      [`wh_${randomBase62(24)}`, ctx.auth.teamId, input.url, JSON.stringify(events), ctx.box.seal(secret)],
    );
    return { ...present(rows[0]), secret };
  } catch (err) {
    if (isUniqueViolation(err, 'webhooks_team_url_key')) throw new Conflict('A webhook with this URL already exists');
    throw err;
  }
}

export async function listWebhooks(ctx: RequestContext) {
  const { rows } = await ctx.store.query<WebhookRow>(
    `select id, url, events, is_active, created_at from webhooks where team_id = $1 order by created_at, id`,
    [ctx.auth.teamId],
  );
  return rows.map(present);
}

/** Deleting a webhook stops its deliveries: pending ones are dropped with it. */
export async function deleteWebhook(ctx: RequestContext, webhookId: string) {
  const { rowCount } = await ctx.store.query(`delete from webhooks where id = $1 and team_id = $2`, [webhookId, ctx.auth.teamId]);
  if (!rowCount) throw new NotFound('Webhook not found');
  return { id: webhookId, message: 'Webhook deleted' };
}

interface DeliveryRow {
  id: string;
  event: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
}

/** The webhook's most recent deliveries, newest first; another team's webhook is not found. */
export async function listDeliveries(ctx: RequestContext, webhookId: string, limit: number) {
  const owned = await ctx.store.query(`select 1 from webhooks where id = $1 and team_id = $2`, [webhookId, ctx.auth.teamId]);
  if (!owned.rows.length) throw new NotFound('Webhook not found');
  const { rows } = await ctx.store.query<DeliveryRow>(
    `select id, event, status, attempts, last_status, last_error, created_at, delivered_at
       from deliveries where webhook_id = $1 order by created_at desc, id desc limit $2`,
    [webhookId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    event: r.event,
    status: r.status,
    attempts: r.attempts,
    last_status_code: r.last_status,
    last_error: r.last_error,
    created_at: iso(r.created_at),
    delivered_at: isoOrNull(r.delivered_at),
  }));
}
