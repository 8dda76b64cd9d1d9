import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundError, safeRequest, type HostResolver } from './safe-request.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const routes: Record<string, Handler> = {
  '/ok': (_req, res) => res.end('hello'),
  '/echo': (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.setHeader('x-method', req.method ?? '');
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.end(Buffer.concat(chunks));
    });
  },
  '/redirect': (_req, res) => {
    res.writeHead(302, { location: '/final' });
    res.end('moved');
  },
  '/final': (_req, res) => res.end('final'),
  '/big': (_req, res) => res.end(Buffer.alloc(200_000, 'x')),
  '/hang': () => {
    /* never answers */
  },
  '/slow-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('start');
    // ...and never ends
  },
};

const hits: string[] = [];
const handle: Handler = (req, res) => {
  hits.push(req.url ?? '');
  (
    routes[req.url ?? ''] ??
    ((_q, r) => {
      r.statusCode = 404;
      r.end();
    })
  )(req, res);
};

function listen(server: http.Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });
}

let server: http.Server;
let port: number;
let base: string;
/** Any name resolves to loopback: a public-looking name that points at a private address. */
const toLoopback: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];

beforeAll(async () => {
  server = http.createServer(handle);
  port = await listen(server, '127.0.0.1');
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

async function refused(promise: Promise<unknown>): Promise<OutboundError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutboundError);
  return err as OutboundError;
}

describe('safeRequest: private destinations', () => {
  it.each([
    ['127.0.0.1', () => `http://127.0.0.1:${port}/ok`],
    ['localhost', () => `http://localhost:${port}/ok`],
    ['[::1]', () => `http://[::1]:${port}/ok`],
    ['::ffff:127.0.0.1', () => `http://[::ffff:127.0.0.1]:${port}/ok`],
    ['decimal 2130706433', () => `http://2130706433:${port}/ok`],
    ['10.0.0.1', () => 'http://10.0.0.1/ok'],
    ['169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/'],
  ])('refuses %s when allowPrivate is false', async (_label, url) => {
    const before = hits.length;
    const err = await refused(safeRequest(url(), { timeoutMs: 2000, allowPrivate: false }));
    expect(err.code).toBe('blocked_address');
    expect(err.message).toMatch(/Refusing to connect/);
    expect(hits.length).toBe(before);
  });

  it('refuses a name that resolves to a private address (checked at connect time)', async () => {
    const err = await refused(
      safeRequest(`http://innocent.example.com:${port}/ok`, { timeoutMs: 2000, allowPrivate: false, resolve: toLoopback }),
    );
    expect(err.code).toBe('blocked_address');
    expect(err.message).toContain('innocent.example.com (127.0.0.1)');
    expect(err.message).toContain('loopback');
  });

  it('refuses a name when any of its addresses is private', async () => {
    const mixed: HostResolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    const err = await refused(safeRequest('http://mixed.example.com/ok', { timeoutMs: 2000, allowPrivate: false, resolve: mixed }));
    expect(err.code).toBe('blocked_address');
  });

  it('allows loopback when allowPrivate is true', async () => {
    for (const url of [`${base}/ok`, `http://localhost:${port}/ok`]) {
      const res = await safeRequest(url, { timeoutMs: 2000, allowPrivate: true });
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe('hello');
      expect(res.truncated).toBe(false);
    }
    const viaName = await safeRequest(`http://innocent.example.com:${port}/ok`, {
      timeoutMs: 2000,
      allowPrivate: true,
      resolve: toLoopback,
    });
    expect(viaName.body.toString()).toBe('hello');
  });

  it('allows [::1] when allowPrivate is true (where IPv6 loopback exists)', async (ctx) => {
    const v6 = http.createServer(handle);
    let v6port: number;
    try {
      v6port = await listen(v6, '::1');
    } catch {
      ctx.skip();
      return;
    }
    try {
      const res = await safeRequest(`http://[::1]:${v6port}/ok`, { timeoutMs: 2000, allowPrivate: true });
      expect(res.body.toString()).toBe('hello');
    } finally {
      v6.close();
    }
  });

  it('refuses metadata names and addresses even when allowPrivate is true', async () => {
    const byName = await refused(safeRequest('http://metadata.google.internal/computeMetadata/v1/', { timeoutMs: 2000, allowPrivate: true }));
    expect(byName.code).toBe('blocked_address');
    const byAddress = await refused(safeRequest('http://169.254.169.254/', { timeoutMs: 2000, allowPrivate: true }));
    expect(byAddress.code).toBe('blocked_address');
    const metadata: HostResolver = async () => [{ address: '169.254.169.254', family: 4 }];
    const byResolution = await refused(safeRequest('http://sneaky.example.com/', { timeoutMs: 2000, allowPrivate: true, resolve: metadata }));
    expect(byResolution.code).toBe('blocked_address');
  });
});

describe('safeRequest: behaviour', () => {
  const open = { timeoutMs: 2000, allowPrivate: true } as const;

  it('rejects invalid and non-http URLs', async () => {
    expect((await refused(safeRequest('not a url', open))).code).toBe('invalid_url');
    expect((await refused(safeRequest('ftp://example.com/file', open))).code).toBe('invalid_url');
    expect((await refused(safeRequest('file:///etc/passwd', open))).code).toBe('invalid_url');
  });

  it('sends method, headers and body; flattens repeated response headers', async () => {
    const res = await safeRequest(`${base}/echo`, { ...open, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(res.status).toBe(200);
    expect(res.headers['x-method']).toBe('POST');
    expect(res.headers['set-cookie']).toBe('a=1, b=2');
    expect(res.body.toString()).toBe('{"a":1}');
  });

  it('returns a 3xx as is and does not follow it', async () => {
    const before = hits.filter((h) => h === '/final').length;
    const res = await safeRequest(`${base}/redirect`, open);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/final');
    expect(hits.filter((h) => h === '/final').length).toBe(before);
  });

  it('times out when the server never answers', async () => {
    const started = Date.now();
    const err = await refused(safeRequest(`${base}/hang`, { ...open, timeoutMs: 200 }));
    expect(err.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('times out when the body never ends (the timeout covers the whole response)', async () => {
    const err = await refused(safeRequest(`${base}/slow-body`, { ...open, timeoutMs: 300 }));
    expect(err.code).toBe('timeout');
  });

  it('stops reading at maxBytes and says the body was truncated', async () => {
    const res = await safeRequest(`${base}/big`, { ...open, maxBytes: 1000 });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(1000);
    expect(res.truncated).toBe(true);
    const whole = await safeRequest(`${base}/big`, { ...open, maxBytes: 200_000 });
    expect(whole.body.length).toBe(200_000);
    expect(whole.truncated).toBe(false);
  });

  it('throws too_large past maxBytes when asked to', async () => {
    const err = await refused(safeRequest(`${base}/big`, { ...open, maxBytes: 1000, onOverflow: 'error' }));
    expect(err.code).toBe('too_large');
  });

  it('reports a refused connection as a network error', async () => {
    const closed = http.createServer();
    const closedPort = await listen(closed, '127.0.0.1');
    await new Promise((r) => closed.close(r));
    const err = await refused(safeRequest(`http://127.0.0.1:${closedPort}/`, open));
    expect(err.code).toBe('network');
  });
});

function haveOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!haveOpenssl())('safeRequest over https (self-signed certificate made with openssl)', () => {
  let dir: string;
  let cert: Buffer;
  let tlsServer: https.Server;
  let tlsPort: number;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sightline-tls-'));
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost',
        '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')],
      { stdio: 'ignore' },
    );
    cert = readFileSync(path.join(dir, 'cert.pem'));
    tlsServer = https.createServer({ key: readFileSync(path.join(dir, 'key.pem')), cert }, handle);
    tlsPort = await listen(tlsServer, '127.0.0.1');
  });
  afterAll(() => {
    tlsServer?.closeAllConnections();
    tlsServer?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('works when the certificate is trusted through tls.ca', async () => {
    const res = await safeRequest(`https://localhost:${tlsPort}/ok`, { timeoutMs: 3000, allowPrivate: true, tls: { ca: cert } });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('hello');
  });

  it('works with rejectUnauthorized: false', async () => {
    const res = await safeRequest(`https://127.0.0.1:${tlsPort}/ok`, { timeoutMs: 3000, allowPrivate: true, tls: { rejectUnauthorized: false } });
    expect(res.status).toBe(200);
  });

  it('fails as a network error on an untrusted certificate', async () => {
    const err = await refused(safeRequest(`https://localhost:${tlsPort}/ok`, { timeoutMs: 3000, allowPrivate: true }));
    expect(err.code).toBe('network');
    expect(err.message).toMatch(/certificate/i);
  });

  it('still refuses loopback over https when allowPrivate is false', async () => {
    const err = await refused(safeRequest(`https://localhost:${tlsPort}/ok`, { timeoutMs: 3000, allowPrivate: false, tls: { ca: cert } }));
    expect(err.code).toBe('blocked_address');
  });
});
