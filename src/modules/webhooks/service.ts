import type { RequestContext } from '../../context.js';
import { Conflict, NotFound } from '../../lib/errors.js';
import { generateWebhookSecret, randomBase62 } from '../../lib/crypto.js';
import { iso, isUniqueViolation } from '../common.js';

interface WebhookRow {
  id: string;
  url: string;
  events: string[];
  is_active: boolean;
  created_at: Date;
}

const present = (r: WebhookRow) => ({ id: r.id, url: r.url, events: r.events, is_active: r.is_active, created_at: iso(r.created_at) });

export async function createWebhook(ctx: RequestContext, input: { url: string; events: string[] }) {
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
