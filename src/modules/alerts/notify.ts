import type { ServiceContext } from '../../context.js';
import type { Tx } from '../../store/index.js';
import { enqueueDelivery, type MailDeliveryBody } from '../webhooks/outbox.js';
import { alertEmail, alertSlack, alertWebhookData, type AlertNotice } from './messages.js';
import type { ChannelInput } from './schema.js';

export const ALERT_EVENT = 'alert.triggered';

/**
 * Writes one delivery per channel of a fired event, in the transaction that records the
 * event: retried like every webhook delivery (docs/webhooks.md), each visible on the event.
 * `{type: "webhook"}` is one delivery per active webhook of the team subscribed to
 * alert.triggered, signed with that webhook's secret.
 */
export async function enqueueAlertDeliveries(ctx: ServiceContext, tx: Tx, teamId: string, channels: ChannelInput[], notice: AlertNotice): Promise<number> {
  let n = 0;
  for (const c of channels) {
    if (c.type === 'email') {
      const body: MailDeliveryBody = { to: c.to, ...alertEmail(notice) };
      await enqueueDelivery(ctx, tx, { kind: 'email', teamId, url: `mailto:${c.to.join(',')}`, event: ALERT_EVENT, body, alertEventId: notice.event_id });
      n += 1;
    } else if (c.type === 'slack') {
      await enqueueDelivery(ctx, tx, { kind: 'slack', teamId, url: c.url, event: ALERT_EVENT, body: alertSlack(notice), alertEventId: notice.event_id });
      n += 1;
    } else {
      const hooks = await subscribedWebhooks(tx, teamId);
      const body = { event: ALERT_EVENT, timestamp: new Date().toISOString(), data: alertWebhookData(notice) };
      for (const w of hooks) {
        await enqueueDelivery(ctx, tx, { kind: 'webhook', teamId, webhookId: w.id, url: w.url, event: ALERT_EVENT, body, alertEventId: notice.event_id });
        n += 1;
      }
    }
  }
  return n;
}

/** The team's active webhooks subscribed to alert.triggered. */
export async function subscribedWebhooks(tx: Tx, teamId: string): Promise<Array<{ id: string; url: string; secret_encrypted: string }>> {
  const { rows } = await tx.query<{ id: string; url: string; secret_encrypted: string }>(
    `select id, url, secret_encrypted from webhooks where team_id = $1 and is_active and events @> $2::jsonb order by created_at, id`,
    [teamId, JSON.stringify([ALERT_EVENT])],
  );
  return rows;
}
