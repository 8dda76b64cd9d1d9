import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';

/** One message out: plain text (a link inside is a link in any mail client). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
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
      await transport.sendMail({ from, to: msg.to, subject: msg.subject, text: msg.text });
    },
  };
}
