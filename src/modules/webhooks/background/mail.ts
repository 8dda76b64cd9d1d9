import type { ServiceContext } from '../../../context.js';
import type { MailDeliveryBody } from '../outbox.js';

/**
 * Sends an e-mail delivery (an alert's message, stored as its body) through the mailer.
 * Mail off (SMTP_URL or MAIL_FROM unset) is a failure like any other, retried: the
 * operator may set it up before the retries run out, and the event shows why meanwhile.
 */
export async function sendMailDelivery(ctx: ServiceContext, body: string): Promise<void> {
  const mailer = ctx.ports.mailer;
  if (!mailer) throw new Error('mail is off: SMTP_URL and MAIL_FROM are not both set');
  const m = JSON.parse(body) as MailDeliveryBody;
  await mailer.send({ to: m.to, subject: m.subject, text: m.text, html: m.html });
}
