import crypto from 'node:crypto';
import type { ServiceContext } from '../../context.js';
import type { Tx } from '../../store/index.js';
import { deliveryJob } from '../../jobs/catalog.js';
import { stableUuid } from '../../lib/crypto.js';

export interface NewDelivery {
  /** A fixed id, so the delivery can be found again by what it is for (the bootstrap callback of a project). */
  id?: string;
  kind: 'callback' | 'webhook' | 'slack' | 'email';
  teamId: string | null;
  webhookId?: string | null;
  url: string;
  event: string;
  body: unknown;
  /** The alert event the delivery tells of: its status shows on the event. */
  alertEventId?: string;
}

/** An e-mail delivery's body: the message, sent through the mailer rather than HTTP (background/mail.ts). */
export interface MailDeliveryBody {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** The id of a project's bootstrap callback delivery: one per project, found by primary key. */
export const bootstrapCallbackId = (projectId: string): string => stableUuid('bootstrap-callback', projectId);

/**
 * Writes a delivery and its first attempt in the caller's transaction: the event and its
 * delivery commit together or not at all, and a restart loses neither.
 */
export async function enqueueDelivery(ctx: ServiceContext, tx: Tx, d: NewDelivery): Promise<string> {
  const messageId = `msg_${crypto.randomUUID()}`;
  const body = JSON.stringify(d.body);
  const { rows } = await tx.query<{ id: string }>(
    `insert into deliveries (id, kind, team_id, webhook_id, url, event, message_id, body, alert_event_id)
     values (coalesce($8::uuid, gen_random_uuid()), $1, $2, $3, $4, $5, $6, $7, $9) returning id`,
    [d.kind, d.teamId, d.webhookId ?? null, d.url, d.event, messageId, body, d.id ?? null, d.alertEventId ?? null],
  );
  await ctx.jobs.send(deliveryJob, { deliveryId: rows[0].id, attempt: 1 }, { tx });
  return rows[0].id;
}
