import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from './config.js';

/**
 * Fields that must never reach a log, whatever object is logged by mistake: keys, tokens,
 * passwords and secrets are replaced by "[redacted]". Nothing logs them on purpose (the
 * access log shows a key's 12-character prefix only); this is the second line of defence.
 */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-api-key"]',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.api_key',
  '*.apiKey',
  '*.secret',
  '*.token',
  'password',
  'api_key',
  'secret',
  'token',
];

/**
 * The process's logger, with secrets redacted: JSON lines, or with `pretty` (a person at a
 * terminal) one readable coloured line per entry. Redaction runs before either output.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, options: { pretty?: boolean } = {}): Logger {
  const settings = { level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  if (!options.pretty) return pino(settings);
  // In this thread and synchronous (no transport worker): the last lines before an exit are kept.
  const stream = pretty({
    colorize: true,
    translateTime: 'SYS:HH:MM:ss',
    singleLine: true,
    // An access line reads `GET /v1/projects 200 3.1 ms`; its fields are not repeated after it.
    ignore: `pid,hostname,${ACCESS_FIELDS.join(',')}`,
    messageFormat: (entry, messageKey) => {
      const message = String(entry[messageKey] ?? '');
      if (entry.method === undefined || entry.status === undefined) return message;
      return `${entry.method} ${entry.route ?? entry.url} ${entry.status} ${entry.duration_ms} ms`;
    },
    sync: true,
  });
  return pino(settings, stream);
}

/** The fields of the access log line (src/http/observability.ts) that its pretty form shows in the message. */
const ACCESS_FIELDS = ['method', 'route', 'url', 'status', 'duration_ms'];
