import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, Invalid, isUnavailableError } from '../lib/errors.js';

interface ValidationItem {
  keyword: string;
  instancePath: string;
  message: string;
  params: { keys?: string[]; expected?: string; input?: unknown };
}

/** One readable sentence from a zod validation failure (custom messages win). */
function validationDetail(err: FastifyError): string {
  const first = (err.validation as unknown as ValidationItem[])[0];
  const where = first.instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : p))
    .join('.')
    .replace(/\.\[/g, '[');
  const part = err.validationContext ?? 'body';
  if (first.keyword === 'unrecognized_keys') {
    const keys = first.params.keys ?? [];
    const s = keys.length > 1 ? 's' : '';
    return `Unknown ${part === 'querystring' ? 'query parameter' : 'field'}${s}${where ? ` in ${where}` : ''}: ${keys.join(', ')}`;
  }
  if (!where && first.keyword === 'invalid_type' && part === 'body') return 'Request body must be a JSON object';
  // Messages written as whole sentences in schemas ("brand_name is required") stand alone.
  if (/^[a-zA-Z_]+ (is|must|are)\b/.test(first.message) || first.message.startsWith('A ')) return first.message;
  return where ? `${where}: ${first.message}` : `${part}: ${first.message}`;
}

/**
 * Where a request value holds U+0000, as a field path ('' for the value itself), or null.
 * PostgreSQL text and jsonb cannot store it: let through, it fails in the store as a 500.
 */
export function nulPath(value: unknown): string | null {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path;
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        const at = Array.isArray(v) ? `${path}[${k}]` : path ? `${path}.${k}` : k;
        if (k.includes('\u0000')) return at;
        stack.push([child, at]);
      }
    }
  }
  return null;
}

export function registerErrorHandling(app: FastifyInstance): void {
  // After schema validation (its 400s come first), before any handler touches the store.
  app.addHook('preHandler', async (req) => {
    for (const [value, label] of [
      [req.body, ''],
      [req.query, 'query parameter '],
      [req.params, 'path parameter '],
    ] as const) {
      const at = nulPath(value);
      if (at !== null) throw new Invalid(`${label}${at || 'Request body'} must not contain the NUL character (\\u0000)`);
    }
  });
  // JSON only: without this, Fastify's built-in text/plain parser hands a plain string to
  // the route (a misleading 400, or a body silently accepted by routes without a schema)
  // instead of the 415 every other non-JSON type gets.
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof AppError) {
      return reply.status(err.status).headers(err.headers).send({ detail: err.detail });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      return reply.status(400).send({ detail: validationDetail(err) });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err, cause: (err as any).cause }, 'response does not match its schema');
      return reply.status(500).send({ detail: 'Internal server error' });
    }
    if (isUnavailableError(err)) {
      req.log.warn({ err }, 'store unavailable');
      return reply.status(503).header('retry-after', '5').send({ detail: 'Service temporarily unavailable, please retry shortly' });
    }
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.status(413).send({ detail: 'Request body is too large' });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.status(415).send({ detail: 'Content-Type must be application/json' });
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.status(400).send({ detail: 'Request body is empty but Content-Type is application/json' });
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return reply.status(400).send({ detail: 'Content-Length does not match the body' });
    }
    if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return reply.status(400).send({ detail: 'Malformed JSON body' });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ detail: err.message || 'Bad request' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ detail: 'Internal server error' });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send({ detail: `No route for ${req.method} ${req.url.split('?')[0]}` });
  });
}
