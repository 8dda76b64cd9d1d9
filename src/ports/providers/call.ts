import pLimit, { type LimitFunction } from 'p-limit';
import pRetry, { AbortError } from 'p-retry';
import { ProviderError, type ProviderName } from './types.js';
import { abortableSleep, errorMessage, retryAfterMs, retryDelayInBody } from './wire.js';

/**
 * How a live adapter calls its provider. The vendor's SDK makes the request and enforces
 * the timeout (its own retries are off); p-retry retries, p-limit bounds the calls in
 * flight. Defaults suit production; tests shrink the delays.
 */
export interface HttpSettings {
  /** Per attempt, headers and body included (the SDK's `timeout`). */
  timeoutMs: number;
  /** Retries after the first attempt, on 408, 425, 429, 5xx, timeouts and network errors. */
  maxRetries: number;
  /** First backoff delay; doubles each retry, with jitter, up to maxDelayMs (p-retry). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the call fails (retryable) at once. */
  maxRetryAfterMs: number;
  /** Calls in flight at once per provider (p-limit). */
  concurrency: number;
  /** Services that answer through a job (Oxylabs): how often the job is asked about... */
  pollIntervalMs: number;
  /** ...and how long it may take from submission to results (then it fails, retryable). */
  maxJobMs: number;
  /** Waits out the part of a Retry-After longer than the backoff (injectable for tests). */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told of each retry and how long it waits (logs, tests). */
  onRetry?: (retry: { provider: ProviderName; attempt: number; delayMs: number; error: ProviderError }) => void;
  /** The fetch the SDKs use. */
  fetch: typeof fetch;
}

export const DEFAULT_HTTP_SETTINGS: HttpSettings = {
  timeoutMs: 60_000,
  maxRetries: 3,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
  concurrency: 4,
  pollIntervalMs: 2_000,
  maxJobMs: 180_000,
  sleep: abortableSleep,
  fetch: (...args) => globalThis.fetch(...args),
};

export function httpSettings(overrides: Partial<HttpSettings> = {}): HttpSettings {
  return { ...DEFAULT_HTTP_SETTINGS, ...overrides };
}

/** What every live adapter takes. */
export interface LiveProviderOptions {
  apiKey: string;
  /** The API root, e.g. https://api.openai.com/v1 (each adapter has its default). */
  baseUrl?: string;
  model?: string;
  http?: Partial<HttpSettings>;
  /** Share one limit between adapters of the same provider (otherwise one per adapter). */
  limiter?: LimitFunction;
}

/**
 * A value made on first use and kept: the vendors' SDKs are imported only when a live adapter
 * is first asked, so a simulated or partly live service starts without loading them.
 */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    made.catch(() => {
      made = undefined;
    });
    return made;
  };
}

/** One vendor call: `attempt` runs once per try with a signal that ends it on cancellation. */
export interface Caller {
  readonly provider: ProviderName;
  readonly settings: HttpSettings;
  readonly limiter: LimitFunction;
  run<T>(label: string, attempt: (signal?: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T>;
}

export function createCaller(provider: ProviderName, opts: Pick<LiveProviderOptions, 'http' | 'limiter'>): Caller {
  const s = httpSettings(opts.http);
  const limiter = opts.limiter ?? pLimit(s.concurrency);
  return {
    provider,
    settings: s,
    limiter,
    async run<T>(label: string, attempt: (signal?: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
      let attempts = 0;
      const cancelled = () => new ProviderError(`${provider}: call cancelled`, provider, false);
      try {
        return await pRetry(
          async () => {
            attempts++;
            try {
              // The slot is held for one attempt only: a call waiting out its backoff lets others run.
              return await limiter(() => attempt(signal));
            } catch (e) {
              if (signal?.aborted) throw new AbortError(cancelled());
              const error = toProviderError(provider, label, s, e);
              const tooLong = error.retryAfterMs !== undefined && error.retryAfterMs > s.maxRetryAfterMs;
              if (!error.retryable || tooLong) throw new AbortError(error);
              throw error;
            }
          },
          {
            retries: s.maxRetries,
            factor: 2,
            minTimeout: s.baseDelayMs,
            maxTimeout: s.maxDelayMs,
            randomize: true,
            signal,
            async onFailedAttempt({ error, retriesLeft, retryDelay }) {
              if (retriesLeft <= 0 || !(error instanceof ProviderError)) return;
              // p-retry waits retryDelay next; a longer Retry-After is waited out here first.
              const extra = Math.max(0, (error.retryAfterMs ?? 0) - retryDelay);
              s.onRetry?.({ provider, attempt: attempts, delayMs: retryDelay + extra, error });
              if (extra) await s.sleep(extra, signal);
            },
          },
        );
      } catch (e) {
        if (signal?.aborted) throw cancelled();
        const error = e instanceof ProviderError ? e : toProviderError(provider, label, s, e);
        if (attempts > 1 && error.retryable) {
          throw new ProviderError(`${error.message} (after ${attempts} attempts)`, provider, true, error.status, error.retryAfterMs);
        }
        throw error;
      }
    },
  };
}

const RETRYABLE = (status: number) => status === 408 || status === 425 || status === 429 || status >= 500;

/**
 * Any SDK's failure as a ProviderError. The Stainless SDKs (openai, @anthropic-ai/sdk,
 * @perplexity-ai/perplexity_ai) throw APIError with status, headers and the body's `error`;
 * @google/genai throws ApiError with status and the whole error body as JSON in its message.
 */
export function toProviderError(provider: ProviderName, label: string, s: Pick<HttpSettings, 'timeoutMs'>, e: unknown): ProviderError {
  if (e instanceof ProviderError) return e;
  const err = e as { name?: string; status?: unknown; headers?: unknown; error?: unknown; message?: string; cause?: { code?: string; message?: string } };
  const name = err?.name ?? (e as object)?.constructor?.name ?? '';
  const status = typeof err?.status === 'number' ? err.status : undefined;
  if (status !== undefined) {
    const body = bodyOf(err);
    const message = errorMessage(body, stripStatus(String(err.message ?? '')));
    const retryable = RETRYABLE(status);
    const headers = err.headers instanceof Headers ? err.headers : undefined;
    return new ProviderError(
      `${provider}: ${label} answered ${status}${message ? `: ${message}` : ''}`,
      provider,
      retryable,
      status,
      retryable ? ((headers && retryAfterMs(headers)) ?? retryDelayInBody(body)) : undefined,
    );
  }
  if (/timeout/i.test(name) || /timed? ?out/i.test(String(err?.message)) || name === 'AbortError') {
    return new ProviderError(`${provider}: ${label} timed out after ${s.timeoutMs} ms`, provider, true);
  }
  const cause = err?.cause;
  return new ProviderError(`${provider}: ${label} failed: ${cause?.code ?? cause?.message ?? err?.message ?? String(e)}`, provider, true);
}

/** The provider's error body: Stainless keeps its `error` member, genai the JSON in its message. */
function bodyOf(err: { error?: unknown; message?: string }): unknown {
  // openai and perplexity keep the body's `error` member; @anthropic-ai/sdk the whole body.
  if (err.error && typeof err.error === 'object' && 'error' in err.error) return err.error;
  if (err.error !== undefined) return { error: err.error };
  try {
    return JSON.parse(String(err.message ?? ''));
  } catch {
    return undefined;
  }
}

function stripStatus(message: string): string {
  return message.replace(/^\d{3}\s+/, '');
}
