import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** What the receiver answers: a status, a hang (never answers), or a full reply. */
export type ReceiverReply = number | 'hang' | { status: number; headers?: Record<string, string>; body?: string };

export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `n` requests arrived (rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/**
 * A local webhook receiver (the outside world in tests): records every request and
 * answers from a script (`replies`, one per request), then `then` (default 200).
 * With `tls` it serves HTTPS with the given key and certificate.
 */
export async function startReceiver(
  opts: { replies?: ReceiverReply[]; then?: ReceiverReply; tls?: { key: string | Buffer; cert: string | Buffer } } = {},
): Promise<Receiver> {
  const script = [...(opts.replies ?? [])];
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const hanging = new Set<http.ServerResponse>();
  const handler = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    received.push({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')])),
      body: Buffer.concat(chunks).toString('utf8'),
      at: Date.now(),
    });
    for (const w of waiters.splice(0)) w();
    const step = script.length ? script.shift()! : (opts.then ?? 200);
    if (step === 'hang') {
      hanging.add(res);
      return;
    }
    const reply = typeof step === 'number' ? { status: step } : step;
    res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.headers ?? {}) });
    res.end(reply.body ?? '{}');
  };
  const server = opts.tls ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}/hook`,
    received,
    waitFor(n, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver: ${received.length}/${n} requests after ${timeoutMs} ms`)), timeoutMs);
        const check = () => {
          if (received.length >= n) {
            clearTimeout(timer);
            resolve(received.slice(0, n));
          } else waiters.push(check);
        };
        check();
      });
    },
    async close() {
      for (const r of hanging) r.destroy();
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
