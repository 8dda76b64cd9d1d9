import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';

/** An inline image, shown where the HTML says `<img src="cid:{cid}">`. */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  cid?: string;
}

/** One message out: plain text always (a link inside is a link in any mail client), HTML and inline images optionally. */
export interface MailMessage {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

export interface Mailer {
  send(msg: MailMessage): Promise<void>;
}

/**
 * SMTP through nodemailer when SMTP_URL and MAIL_FROM are both set; null otherwise (the
 * dashboard then shows the invitation link for an admin to copy).
 */
export function createMailer(config: Config): Mailer | null {
  const url = config.smtpUrl;
  const from = config.mailFrom;
  if (!url || !from) return null;
  const transport = nodemailer.createTransport(url);
  return {
    async send(msg) {
      await transport.sendMail({ from, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html, attachments: msg.attachments });
    },
  };
}
