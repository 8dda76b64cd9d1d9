import type { BaseLogger, Bindings, ChildLoggerOptions } from 'pino';

/** The logger services and handlers write to: pino's, or a request's child of it. */
export interface Logger extends Omit<BaseLogger, 'msgPrefix'> {
  child(bindings: Bindings, options?: ChildLoggerOptions): Logger;
}
