import { sendAppNotFound } from '../dashboard/serve.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { asAppError, codeOfStatus, type ErrorCode } from '../lib/errors.js';
import type { z } from 'zod';
import { registerRequestText } from './request-text.js';

interface ValidationItem {
  keyword: string;
  instancePath: string;
  message: string;
  params: { keys?: string[]; expected?: string; input?: unknown };
}

/** One readable sentence from a zod validation failure (custom messages win). */
function validationDetail(err: FastifyError): string {
  return validationItemsDetail(err.validation as unknown as ValidationItem[], err.validationContext ?? 'body');
}

/**
 * The same sentence from zod's issues, for a surface that validates without Fastify (MCP):
 * the items are made the way fastify-type-provider-zod makes them.
 */
export function zodIssuesDetail(issues: readonly z.core.$ZodIssue[], part: 'body' | 'querystring' | 'params'): string {
  const items = issues.map(({ code, path, message, ...params }) => ({
    keyword: code,
    instancePath: `/${path.join('/')}`,
    message,
    params: params as ValidationItem['params'],
  }));
  return validationItemsDetail(items, part);
}

function validationItemsDetail(items: ValidationItem[], part: string): string {
  const first = items[0];
  const where = first.instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : p))
    .join('.')
    .replace(/\.\[/g, '[');
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

export function registerErrorHandling(app: FastifyInstance): void {
  // Text that is not valid Unicode, or holds a NUL, anywhere in the request: one 400.
  registerRequestText(app);
  // JSON only: without this, Fastify's built-in text/plain parser hands a plain string to
  // the route (a misleading 400, or a body silently accepted by routes without a schema)
  // instead of the 415 every other non-JSON type gets.
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const fail = (status: number, detail: string, code: ErrorCode = codeOfStatus(status)) =>
      reply.status(status).send(errorBody(req, detail, code));
    const known = asAppError(err, req.log);
    if (known) {
      reply.headers(known.headers);
      return fail(known.status, known.detail, known.code);
    }
    if (hasZodFastifySchemaValidationErrors(err)) return fail(400, validationDetail(err));
    if (isResponseSerializationError(err)) {
      req.log.error({ err, cause: err.cause }, 'response does not match its schema');
      return fail(500, 'Internal server error');
    }
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return fail(413, 'Request body is too large');
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return fail(415, 'Content-Type must be application/json');
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return fail(400, 'Request body is empty but Content-Type is application/json');
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return fail(400, 'Content-Length does not match the body');
    }
    if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') return fail(400, 'Malformed JSON body');
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) return fail(status, err.message || 'Bad request');
    req.log.error({ err }, 'unhandled error');
    return fail(500, 'Internal server error');
  });

  app.setNotFoundHandler((req, reply) => {
    if (sendAppNotFound(req, reply)) return;
    reply.status(404).send(errorBody(req, `No route for ${req.method} ${req.url.split('?')[0]}`, 'not_found'));
  });
}

/** The one error body of every surface's HTTP answers: `{detail, code, request_id}`. */
export function errorBody(req: FastifyRequest, detail: string, code: ErrorCode) {
  return { detail, code, request_id: req.id };
}
