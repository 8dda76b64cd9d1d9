import crypto from 'node:crypto';
import type { ServiceContext } from '../../context.js';
import { alertEmail, alertSlack, alertWebhookData, type AlertNotice } from './messages.js';
import { ALERT_EVENT, subscribedWebhooks } from './notify.js';
import type { ChannelInput } from './schema.js';
import { OutboundError, safeRequest } from '../../ports/http/safe-request.js';
import { webhookHeaders } from '../webhooks/sign.js';

export interface ChannelResult {
  type: ChannelInput['type'];
  ok: boolean;
  detail: string;
}

/** One POST as deliveries make it (10 s deadline, the address policy, no redirects); null on 2xx, else why. */
async function post(ctx: ServiceContext, url: string, body: string, headers: Record<string, string>): Promise<string | null> {
  try {
    const res = await safeRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Sightline-Webhooks/1.0', ...headers },
      body,
      timeoutMs: ctx.config.webhookTimeoutMs,
      maxBytes: 64 * 1024,
      allowPrivate: ctx.config.allowPrivateUrls,
      tls: ctx.config.outboundCa ? { ca: ctx.config.outboundCa } : undefined,
    });
    if (res.status >= 200 && res.status < 300) return null;
    return res.status >= 300 && res.status < 400 ? `redirect (${res.status}) not followed` : `receiver answered ${res.status}`;
  } catch (err) {
    return err instanceof OutboundError ? `${err.code}: ${err.message}` : (err as Error).message;
  }
}

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
};

/**
 * The test endpoint: a sample notice sent now, once, to every channel of a rule (no outbox,
 * no retries: the caller reads the outcome in the answer). A URL is shown by its origin only.
 */
export async function sendAlertTest(ctx: ServiceContext, teamId: string, channels: ChannelInput[], notice: AlertNotice): Promise<ChannelResult[]> {
  const out: ChannelResult[] = [];
  for (const c of channels) {
    if (c.type === 'email') {
      const mailer = ctx.ports.mailer;
      if (!mailer) {
        out.push({ type: 'email', ok: false, detail: 'mail is off: SMTP_URL and MAIL_FROM are not both set' });
        continue;
      }
      try {
        await mailer.send({ to: c.to, ...alertEmail(notice) });
        out.push({ type: 'email', ok: true, detail: `sent to ${c.to.join(', ')}` });
      } catch (err) {
        out.push({ type: 'email', ok: false, detail: `SMTP: ${(err as Error).message}` });
      }
    } else if (c.type === 'slack') {
      const why = await post(ctx, c.url, JSON.stringify(alertSlack(notice)), {});
      out.push({ type: 'slack', ok: why === null, detail: why === null ? `posted to ${originOf(c.url)}` : why.split(c.url).join(originOf(c.url)) });
    } else {
      const hooks = await subscribedWebhooks(ctx.store, teamId);
      if (!hooks.length) {
        out.push({ type: 'webhook', ok: false, detail: `no active webhook of the team is subscribed to ${ALERT_EVENT}` });
        continue;
      }
      const body = JSON.stringify({ event: ALERT_EVENT, timestamp: new Date().toISOString(), data: alertWebhookData(notice) });
      const failures: string[] = [];
      for (const w of hooks) {
        const why = await post(ctx, w.url, body, webhookHeaders(ctx.box.open(w.secret_encrypted), `msg_${crypto.randomUUID()}`, body));
        if (why) failures.push(`${w.id}: ${why.split(w.url).join(originOf(w.url))}`);
      }
      out.push({ type: 'webhook', ok: failures.length === 0, detail: failures.length ? failures.join('; ') : `delivered to ${hooks.length} webhook${hooks.length === 1 ? '' : 's'}` });
    }
  }
  return out;
}
