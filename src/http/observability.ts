import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** A caller's own request id is kept when it looks like one: short, no spaces or controls. */
const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the caller's `X-Request-Id` when well formed, else a new UUID. */
export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers['x-request-id'];
  const id = Array.isArray(given) ? given[0] : given;
  return id && WELL_FORMED_ID.test(id) ? id : crypto.randomUUID();
}

/** What the access log may show of an API key: its public prefix, never the key. */
export function keyPrefixOf(header: string | string[] | undefined): string | undefined {
  const key = (Array.isArray(header) ? header[0] : header)?.trim();
  return key ? key.slice(0, 12) : undefined;
}

/** Whether a line at info level would be written (pino's check; true for a logger without one). */
const infoEnabled = (log: FastifyBaseLogger): boolean => (log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ?? true;

/**
 * Every response carries `X-Request-Id` (errors included); every request leaves one access
 * log line at info level once answered: method, route, status, duration and the key's
 * prefix. Fastify binds the id to `req.log`, so every line logged for the request (by the
 * services too, which log through it) carries `request_id`.
 */
export function registerObservability(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  app.addHook('onResponse', async (req, reply) => {
    const status = reply.statusCode;
    // Below the level (LOG_LEVEL=warn): no line to build for an answer that went well.
    if (status < 500 && !infoEnabled(req.log)) return;
    const line = {
      method: req.method,
      route: req.routeOptions.url ?? null,
      url: req.routeOptions.url ? undefined : req.url.split('?')[0].slice(0, 200),
      status,
      duration_ms: Math.round(reply.elapsedTime * 100) / 100,
      key_prefix: keyPrefixOf(req.headers['x-api-key']),
    };
    if (status >= 500) req.log.warn(line, 'request failed');
    else req.log.info(line, 'request');
  });
}
