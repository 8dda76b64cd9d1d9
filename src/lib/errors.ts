/**
 * Typed errors thrown by services and handlers. Each surface maps them once: REST to a
 * status and `{detail, code, request_id}`, MCP to a tool error with the same detail.
 * `code` is stable and machine-readable; `detail` is the sentence a person reads (the
 * contract's texts where it gives one).
 */
export const ERROR_CODES = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'read_only_key',
  'csrf_failed',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'unprocessable',
  'rate_limited',
  'prompt_quota_reached',
  'competitor_limit_reached',
  'project_limit_reached',
  'internal_error',
  'upstream_failed',
  'unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code: ErrorCode = codeOfStatus(status),
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

/** The code of a status when the thrower names none. */
export function codeOfStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'invalid_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 422:
      return 'unprocessable';
    case 429:
      return 'rate_limited';
    case 502:
      return 'upstream_failed';
    case 503:
      return 'unavailable';
    default:
      return status >= 500 ? 'internal_error' : 'invalid_request';
  }
}

export class Invalid extends AppError {
  constructor(detail: string) {
    super(400, detail, 'invalid_request');
  }
}
export class Unauthorized extends AppError {
  constructor(detail: string) {
    super(401, detail, 'unauthorized');
  }
}
export class Forbidden extends AppError {
  constructor(detail: string, code: ErrorCode = 'forbidden') {
    super(403, detail, code);
  }
}
export class NotFound extends AppError {
  constructor(detail: string) {
    super(404, detail, 'not_found');
  }
}
export class Conflict extends AppError {
  constructor(detail: string) {
    super(409, detail, 'conflict');
  }
}
/**
 * A 429. `rate_limited` comes with Retry-After and is worth retrying; the quota codes
 * (`prompt_quota_reached`, `competitor_limit_reached`) are not: waiting does not help.
 */
export class LimitReached extends AppError {
  constructor(detail: string, code: ErrorCode = 'rate_limited', headers: Record<string, string> = {}) {
    super(429, detail, code, headers);
  }
}
export class Unavailable extends AppError {
  constructor(detail = 'Service temporarily unavailable, please retry shortly') {
    super(503, detail, 'unavailable', { 'retry-after': '5' });
  }
}

// Connection-level failures of the store: answered 503, never 500, so clients retry.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01', // admin_shutdown
  '57P02',
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000',
  '08003',
  '08006',
]);

export function isUnavailableError(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  if (e?.code && UNAVAILABLE_CODES.has(e.code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|PGlite is closed/i.test(
    e?.message ?? '',
  );
}

/**
 * PostgreSQL's serialization_failure and deadlock_detected: the server aborted the
 * transaction so another could go on. Nothing was written; the same request again succeeds.
 */
const TRANSACTION_ABORTED_CODES = new Set(['40001', '40P01']);

/** PostgreSQL's foreign_key_violation. */
const FOREIGN_KEY_VIOLATION = '23503';

/**
 * What a failure means to a client, the same on every surface: a typed error as it is; the
 * store out of reach as a 503 to retry (and a warn line); a record the request refers to
 * that was deleted meanwhile (another process may still have trusted a cached row for
 * AUTH_CACHE_MS) as a 404, not a server error; a transaction the server aborted (a
 * deadlock, a serialization failure) as a 503 to retry, with an error line, since a
 * writer out of the lock order (docs/architecture.md) is a bug. Undefined for anything
 * else: the surface's own cases, then a 500.
 */
export function asAppError(err: unknown, log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void }): AppError | undefined {
  if (err instanceof AppError) return err;
  if (isUnavailableError(err)) {
    log.warn({ err }, 'store unavailable');
    return new Unavailable();
  }
  const code = (err as { code?: unknown } | null | undefined)?.code;
  if (typeof code === 'string' && TRANSACTION_ABORTED_CODES.has(code)) {
    log.error({ err }, 'transaction aborted by the store; answered 503');
    return new Unavailable();
  }
  if (code === FOREIGN_KEY_VIOLATION) return new NotFound('A record this request refers to no longer exists');
  return undefined;
}
