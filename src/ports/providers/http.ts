import { Semaphore } from './semaphore.js';
import { ProviderError, type ProviderName } from './types.js';

export { Semaphore };

/**
 * How a live adapter calls its provider. Defaults suit production; tests shrink the
 * delays (or inject `sleep`) so retries run in milliseconds.
 */
export interface HttpSettings {
  /** Per attempt, headers and body included. */
  timeoutMs: number;
  /** Retries after the first attempt, on 429, 5xx, timeouts and network errors. */
  maxRetries: number;
  /** First backoff delay; doubles each retry, with jitter, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the call fails (retryable) at once. */
  maxRetryAfterMs: number;
  /** Calls in flight at once per provider. */
  concurrency: number;
  /** Waits between attempts (injectable so tests can record delays instead of waiting). */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  fetch: typeof fetch;
}

export const DEFAULT_HTTP_SETTINGS: HttpSettings = {
  timeoutMs: 60_000,
  maxRetries: 3,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
  concurrency: 4,
  sleep: abortableSleep,
  fetch: (...args) => globalThis.fetch(...args),
};

export function httpSettings(overrides: Partial<HttpSettings> = {}): HttpSettings {
  return { ...DEFAULT_HTTP_SETTINGS, ...overrides };
}

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface ProviderRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Names the call in error messages without exposing the URL (SerpApi puts its key there). */
  label?: string;
}

export interface HttpClient {
  readonly provider: ProviderName;
  readonly settings: HttpSettings;
  readonly limiter: Semaphore;
  /** One JSON call with timeout, retries and the provider's concurrency limit. */
  json<T = unknown>(req: ProviderRequest, signal?: AbortSignal): Promise<T>;
}

export function createHttpClient(provider: ProviderName, settings: HttpSettings, limiter?: Semaphore): HttpClient {
  const sem = limiter ?? new Semaphore(settings.concurrency);
  return {
    provider,
    settings,
    limiter: sem,
    json: (req, signal) => callWithRetries(provider, settings, sem, req, signal),
  };
}

async function callWithRetries<T>(
  provider: ProviderName,
  s: HttpSettings,
  limiter: Semaphore,
  req: ProviderRequest,
  signal?: AbortSignal,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let error: ProviderError;
    try {
      // The slot is held for one attempt only: a call waiting out its backoff lets others run.
      return await limiter.run(() => attemptOnce<T>(provider, s, req, signal));
    } catch (e) {
      error = e instanceof ProviderError ? e : new ProviderError(`${provider}: ${String(e)}`, provider, false);
    }
    if (signal?.aborted) throw new ProviderError(`${provider}: call cancelled`, provider, false);
    if (!error.retryable || attempt >= s.maxRetries) {
      if (attempt > 0 && error.retryable) {
        throw new ProviderError(`${error.message} (after ${attempt + 1} attempts)`, provider, true, error.status, error.retryAfterMs);
      }
      throw error;
    }
    if (error.retryAfterMs !== undefined && error.retryAfterMs > s.maxRetryAfterMs) throw error;
    const backoff = Math.min(s.maxDelayMs, s.baseDelayMs * 2 ** attempt);
    const jittered = backoff / 2 + Math.random() * (backoff / 2);
    const delay = Math.max(error.retryAfterMs ?? 0, Math.round(jittered));
    try {
      await s.sleep(delay, signal);
    } catch {
      throw new ProviderError(`${provider}: call cancelled`, provider, false);
    }
  }
}

async function attemptOnce<T>(provider: ProviderName, s: HttpSettings, req: ProviderRequest, signal?: AbortSignal): Promise<T> {
  const timeout = AbortSignal.timeout(s.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const label = req.label ?? `${req.method} ${new URL(req.url).pathname}`;
  let res: Response;
  let text: string;
  try {
    res = await s.fetch(req.url, {
      method: req.method,
      headers: { accept: 'application/json', ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}), ...req.headers },
      body: req.body !== undefined ? JSON.stringify(req.body) : undefined,
      signal: combined,
    });
    text = await res.text();
  } catch (e) {
    if (signal?.aborted) throw new ProviderError(`${provider}: call cancelled`, provider, false);
    if (timeout.aborted) throw new ProviderError(`${provider}: ${label} timed out after ${s.timeoutMs} ms`, provider, true);
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new ProviderError(`${provider}: ${label} failed: ${cause?.code ?? cause?.message ?? (e as Error).message}`, provider, true);
  }
  const body = parseJson(text);
  if (res.ok) {
    if (body === undefined) throw new ProviderError(`${provider}: ${label} returned a body that is not JSON`, provider, true, res.status);
    return body as T;
  }
  const message = errorMessage(body, text);
  const retryable = res.status === 408 || res.status === 425 || res.status === 429 || res.status >= 500;
  throw new ProviderError(
    `${provider}: ${label} answered ${res.status}${message ? `: ${message}` : ''}`,
    provider,
    retryable,
    res.status,
    retryable ? (retryAfterMs(res.headers) ?? retryDelayInBody(body)) : undefined,
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The provider's own words: `{error: {message}}` (OpenAI, Perplexity, Gemini, Anthropic),
 * `{error: "..."}` (SerpApi), `{detail}` or `{message}` elsewhere.
 */
export function errorMessage(body: unknown, text = ''): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const err = b.error;
    if (typeof err === 'string') return err;
    if (err && typeof err === 'object') {
      const e = err as Record<string, unknown>;
      const type = typeof e.type === 'string' ? e.type : typeof e.status === 'string' ? e.status : undefined;
      if (typeof e.message === 'string') return type ? `${e.message} (${type})` : e.message;
    }
    if (typeof b.detail === 'string') return b.detail;
    if (typeof b.message === 'string') return b.message;
  }
  return text.trim().slice(0, 200);
}

/** Retry-After in seconds or as an HTTP date; `retry-after-ms` (OpenAI, Anthropic) wins when present. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Google APIs say how long to wait in the body: `error.details[].retryDelay` of a RetryInfo, e.g. "13s". */
function retryDelayInBody(body: unknown): number | undefined {
  const details = (body as { error?: { details?: Array<{ '@type'?: string; retryDelay?: string }> } } | undefined)?.error?.details;
  const info = Array.isArray(details) ? details.find((d) => d?.['@type']?.endsWith('google.rpc.RetryInfo')) : undefined;
  const m = info?.retryDelay?.match(/^(\d+(?:\.\d+)?)s$/);
  return m ? Math.round(Number(m[1]) * 1000) : undefined;
}

/** A URL under a configured base, whether or not the base ends with a slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** What every live adapter takes. */
export interface LiveProviderOptions {
  apiKey: string;
  /** The API root, e.g. https://api.openai.com/v1 (each adapter has its default). */
  baseUrl?: string;
  model?: string;
  http?: Partial<HttpSettings>;
  /** Share one limiter between adapters of the same provider (otherwise one per adapter). */
  limiter?: Semaphore;
}

export function liveClient(provider: ProviderName, opts: LiveProviderOptions): HttpClient {
  return createHttpClient(provider, httpSettings(opts.http), opts.limiter);
}

/** A 200 whose body is not an answer (failed run, missing fields): retryable later, not now. */
export function badBody(provider: ProviderName, why: string): ProviderError {
  return new ProviderError(`${provider}: unexpected response: ${why}`, provider, true, 200);
}
