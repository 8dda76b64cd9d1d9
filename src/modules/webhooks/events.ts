import type { ServiceContext } from '../../context.js';
import type { Tx } from '../../store/index.js';
import { enqueueDelivery } from './outbox.js';

export type WebhookEvent = 'action.checkpoint' | 'action.completed' | 'action.failed' | 'alert.triggered';

/**
 * Emits a registered-webhook event (spec 6.2): one delivery per active webhook of the
 * team subscribed to it, written in the caller's transaction. Returns how many.
 */
export async function emitEvent(ctx: ServiceContext, tx: Tx, teamId: string, event: WebhookEvent, data: Record<string, unknown>): Promise<number> {
  const { rows } = await tx.query<{ id: string; url: string }>(
    `select id, url from webhooks where team_id = $1 and is_active and events @> $2::jsonb order by created_at, id`,
    [teamId, JSON.stringify([event])],
  );
  const body = { event, timestamp: new Date().toISOString(), data };
  for (const w of rows) {
    await enqueueDelivery(ctx, tx, { kind: 'webhook', teamId, webhookId: w.id, url: w.url, event, body });
  }
  return rows.length;
}

/** True when the team has an active webhook subscribed to the event. */
export async function hasSubscriber(tx: Tx, teamId: string, event: WebhookEvent): Promise<boolean> {
  const { rows } = await tx.query(`select 1 from webhooks where team_id = $1 and is_active and events @> $2::jsonb limit 1`, [
    teamId,
    JSON.stringify([event]),
  ]);
  return rows.length > 0;
}
