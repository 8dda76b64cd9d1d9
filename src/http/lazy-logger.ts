import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level } from 'pino';

type Parent = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };

/**
 * A request's logger (Fastify makes one per request, bound to its request id), made only
 * when a line is written at an enabled level or something asks for it. Most requests write
 * nothing below the access line, and pino's child binds and redacts its fields on creation.
 * Lines come out exactly as from `parent.child(bindings, options)`: that child, made on
 * first use.
 */
export class LazyChildLogger {
  #child: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: Parent,
    private readonly childBindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  #real(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.childBindings, this.options) as FastifyBaseLogger;
    return this.#child;
  }

  /** Whether a line at `level` would be written, without making the child while none is. */
  isLevelEnabled(level: string): boolean {
    const of = (this.#child ?? this.parent) as Parent;
    return of.isLevelEnabled ? of.isLevelEnabled(level) : true;
  }

  #write(level: Level, args: unknown[]): void {
    if (!this.#child && !this.isLevelEnabled(level)) return;
    (this.#real()[level] as (...a: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {}

  get level(): string {
    return this.#child ? this.#child.level : (this.options.level ?? this.parent.level);
  }
  set level(level: string) {
    this.#real().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options) as FastifyBaseLogger;
  }

  bindings(): Bindings {
    return (this.#real() as FastifyBaseLogger & { bindings(): Bindings }).bindings();
  }
}

/** Fastify's childLoggerFactory: a LazyChildLogger per request. */
export function lazyChildLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  // A route of its own level or serializers: the child at once (its level decides what it writes).
  if (options.level || options.serializers) return logger.child(bindings, options);
  return new LazyChildLogger(logger as Parent, bindings, options) as unknown as FastifyBaseLogger;
}
