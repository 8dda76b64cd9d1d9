import { SMTPServer } from 'smtp-server';

/** A real SMTP server on a free local port that keeps every message it receives, raw. */
export interface SmtpInbox {
  /** The raw messages received, oldest first. */
  messages: string[];
  /** `smtp://127.0.0.1:<port>`: the SMTP_URL to give the service. */
  url: string;
  close(): Promise<void>;
}

/** Starts an SMTP server (no TLS, no AUTH) that the service under test sends to. */
export async function startSmtpInbox(): Promise<SmtpInbox> {
  const messages: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, _session, done) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        messages.push(raw);
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { messages, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
