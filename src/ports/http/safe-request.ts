import { promises as dns } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { blockedAddressReason, isMetadataHost, normalizeHost } from './address-policy.js';

// Every outbound request the service makes to an address a user gave it (callbacks,
// webhooks, page fetches) goes through here (docs/webhooks.md). The address check
// runs inside the socket's own DNS lookup, so the address that is checked is the address
// that is connected to: no window for DNS rebinding between check and connect.

export type OutboundErrorCode = 'blocked_address' | 'timeout' | 'network' | 'too_large' | 'invalid_url';

export class OutboundError extends Error {
  readonly code: OutboundErrorCode;
  constructor(code: OutboundErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OutboundError';
    this.code = code;
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has; the default is the system resolver. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface SafeRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Covers DNS, connect, TLS and the whole response body. */
  timeoutMs: number;
  /** Body bytes kept; default 10 MB. */
  maxBytes?: number;
  /** What to do past `maxBytes`: keep the first bytes (`truncated: true`, default) or throw `too_large`. */
  onOverflow?: 'truncate' | 'error';
  allowPrivate: boolean;
  /** Trust settings for https (tests use a self-signed certificate). */
  tls?: { ca?: string | Buffer; rejectUnauthorized?: boolean };
  /** Replaces the system resolver (tests: a name that resolves to a private address). */
  resolve?: HostResolver;
}

export interface SafeResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
}

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

const systemResolver: HostResolver = async (hostname) => {
  const found = await dns.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function blocked(target: string, reason: string): OutboundError {
  return new OutboundError('blocked_address', `Refusing to connect to ${target}: ${reason} address`);
}

function parseTarget(url: string): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new OutboundError('invalid_url', `Not a valid URL: ${JSON.stringify(url)}`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new OutboundError('invalid_url', `Only http and https URLs can be requested, not ${target.protocol}`);
  }
  if (!target.hostname) throw new OutboundError('invalid_url', `URL has no host: ${url}`);
  return target;
}

/** The socket's lookup: resolve, then refuse the connection if any address is not allowed. */
function guardedLookup(resolver: HostResolver, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const done = callback as (err: Error | null, address: unknown, family?: number) => void;
    resolver(hostname)
      .catch((cause: unknown) => {
        throw new OutboundError('network', `Could not resolve ${hostname}`, { cause });
      })
      .then((addresses) => {
        if (addresses.length === 0) throw new OutboundError('network', `Could not resolve ${hostname}`);
        for (const a of addresses) {
          const reason = blockedAddressReason(a.address, allowPrivate);
          if (reason) throw blocked(`${hostname} (${a.address})`, reason);
        }
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
        if (usable.length === 0) throw new OutboundError('network', `${hostname} has no IPv${wanted} address`);
        if (options.all) done(null, usable);
        else done(null, usable[0].address, usable[0].family);
      })
      .catch((err: Error) => done(err, undefined));
  };
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function networkError(err: unknown, target: URL): OutboundError {
  if (err instanceof OutboundError) return err;
  const code = (err as NodeJS.ErrnoException)?.code;
  const detail = err instanceof Error ? err.message || code : String(err);
  return new OutboundError('network', `Request to ${target.host} failed: ${detail}`, { cause: err });
}

/**
 * One HTTP(S) request to a user-supplied URL: never follows redirects (a 3xx comes back
 * as is), refuses private destinations unless `allowPrivate`, bounds time and size.
 */
export async function safeRequest(url: string, opts: SafeRequestOptions): Promise<SafeResponse> {
  const target = parseTarget(url);
  const host = normalizeHost(target.hostname);
  if (isMetadataHost(host)) throw blocked(host, 'cloud metadata');
  if (isIP(host)) {
    // The socket skips lookup for an IP literal, so the literal is checked here.
    const reason = blockedAddressReason(host, opts.allowPrivate);
    if (reason) throw blocked(host, reason);
  }
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length')) {
    headers['content-length'] = String(Buffer.byteLength(opts.body));
  }
  const client = target.protocol === 'https:' ? https : http;

  return new Promise<SafeResponse>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let req: http.ClientRequest | undefined;
    const settle = (err: OutboundError | null, value?: SafeResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(value!);
      req?.destroy();
    };

    const onResponse = (res: http.IncomingMessage) => {
      const chunks: Buffer[] = [];
      let received = 0;
      const respond = (truncated: boolean) =>
        settle(null, { status: res.statusCode ?? 0, headers: flattenHeaders(res.headers), body: Buffer.concat(chunks), truncated });
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        if (received + chunk.length <= maxBytes) {
          chunks.push(chunk);
          received += chunk.length;
          return;
        }
        if (opts.onOverflow === 'error') {
          settle(new OutboundError('too_large', `Response from ${target.host} is larger than ${maxBytes} bytes`));
          return;
        }
        chunks.push(chunk.subarray(0, maxBytes - received));
        respond(true); // stop reading: the socket is destroyed by settle
      });
      res.on('end', () => respond(false));
      res.on('error', (err) => settle(networkError(err, target)));
      res.on('close', () => {
        if (!res.complete) settle(new OutboundError('network', `Connection to ${target.host} closed before the response ended`));
      });
    };

    try {
      req = client.request(
        target,
        {
          method: opts.method ?? 'GET',
          headers,
          agent: false,
          lookup: guardedLookup(opts.resolve ?? systemResolver, opts.allowPrivate),
          ...(target.protocol === 'https:' ? opts.tls : {}),
        },
        onResponse,
      );
    } catch (err) {
      // Invalid header names or values throw before any I/O.
      settle(new OutboundError('invalid_url', `Cannot build a request to ${target.host}: ${(err as Error).message}`));
      return;
    }
    timer = setTimeout(
      () => settle(new OutboundError('timeout', `Request to ${target.host} took longer than ${opts.timeoutMs} ms`)),
      opts.timeoutMs,
    );
    req.on('error', (err) => settle(networkError(err, target)));
    req.end(opts.body);
  });
}
