import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureProject, OWN, storeSpecs } from '../../../test/analytics-fixture.js';
import { startTestApp, until, type TestApp } from '../../../test/helpers.js';
import { startSmtpInbox, type SmtpInbox } from '../../../test/smtp-inbox.js';
import { utcDay } from '../../lib/time.js';
import { addDays } from '../analytics/window.js';

// The weekly digest through HTTP against a real SMTP server: opt-in, preview, send-now;
// the mail read back by mailparser carries a text part, an HTML part and the chart as an
// inline PNG (cid) attachment.

let t: TestApp;
let smtp: SmtpInbox;
let inbox: string[];

beforeAll(async () => {
  smtp = await startSmtpInbox();
  inbox = smtp.messages;
  t = await startTestApp({ role: 'api' }, { SMTP_URL: smtp.url, MAIL_FROM: 'Sightline <digest@sightline.test>', PUBLIC_URL: 'https://sightline.example.com' });
});
afterAll(async () => {
  await t?.stop();
  await smtp?.close();
});

describe('weekly digest', () => {
  it('opt-in, preview and send: the parsed mail has text, HTML and the chart as an inline PNG', async () => {
    const f = await fixtureProject(t, { brand: 'Umbrella', url: 'https://umbrella.com', prompts: ['Best umbrella brand?'] });
    const today = utcDay();
    const specs = [];
    for (let d = 1; d <= 14; d++)
      for (const provider of ['chatgpt', 'perplexity'] as const)
        specs.push({ prompt: f.promptIds[0], provider, day: addDays(today, -d), named: (d % 2 ? { [OWN]: [1, 1, 70] } : {}) as Record<string, [number, number, number]> });
    await storeSpecs(t, f.projectId, specs, 'umbrella.com');

    const me = await f.api.patch('/team/members/me', { digest: true });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().data).toMatchObject({ digest: true, email: expect.stringContaining('@'), mail_enabled: true });
    expect((await f.api.get('/team/members/me')).json().data).toMatchObject({ digest: true, mail_enabled: true });
    expect((await f.api.patch('/team/members/me', { digest: 'yes' })).statusCode).toBe(400);

    const preview = await f.api.post('/team/digest/preview');
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json().data;
    expect(p.subject).toContain('Umbrella');
    expect(p.text).toMatch(/Visibility: \d+\.\d%/);
    expect(p.text).toContain(`https://sightline.example.com/projects/${f.projectId}`);
    expect(p.html).toContain('data:image/png;base64,');

    const sent = await f.api.post('/team/digest/send');
    expect(sent.statusCode, sent.body).toBe(200);
    const email = me.json().data.email as string;
    expect(sent.json().data).toEqual({ sent: 1, recipients: [email] });
    const raw = await until(async () => inbox.find((m) => m.includes(email)), 20_000);
    const mail = await simpleParser(raw, { keepCidLinks: true });
    expect(mail.subject).toBe(p.subject);
    expect(mail.text).toContain('Umbrella');
    const [image] = mail.attachments;
    expect(image.contentType).toBe('image/png');
    expect(image.contentId).toBe('<visibility-chart@sightline>');
    expect(image.content.subarray(1, 4).toString()).toBe('PNG');
    expect(image.content.length).toBeGreaterThan(2000);
    expect(mail.html).toContain('cid:visibility-chart@sightline');
  });

  it('sends nothing to a team where nobody opted in', async () => {
    const f = await fixtureProject(t, { brand: 'Quiet', url: 'https://quiet.com', prompts: [] });
    const res = await f.api.post('/team/digest/send');
    expect(res.json().data).toEqual({ sent: 0, recipients: [] });
  });
});
