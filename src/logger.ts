import pino, { type Logger } from 'pino';
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

/** The process's logger: JSON lines, with secrets redacted. */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } });
}
