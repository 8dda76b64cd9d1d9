import { ProviderError, type ProviderName } from './types.js';

// Small helpers about vendors' wire formats, shared by the adapters and the writer's chat client.

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

/**
 * The provider's own words: `{error: {message}}` (OpenAI, Perplexity, Gemini, Anthropic, xAI),
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
export function retryDelayInBody(body: unknown): number | undefined {
  const details = (body as { error?: { details?: Array<{ '@type'?: string; retryDelay?: string }> } } | undefined)?.error?.details;
  const info = Array.isArray(details) ? details.find((d) => d?.['@type']?.endsWith('google.rpc.RetryInfo')) : undefined;
  const m = info?.retryDelay?.match(/^(\d+(?:\.\d+)?)s$/);
  return m ? Math.round(Number(m[1]) * 1000) : undefined;
}

/** A URL under a configured base, whether or not the base ends with a slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** A 200 whose body is not an answer (failed run, missing fields): retryable later, not now. */
export function badBody(provider: ProviderName, why: string): ProviderError {
  return new ProviderError(`${provider}: unexpected response: ${why}`, provider, true, 200);
}

/** A JSON copy of what an SDK returned, without the members the SDK adds to the vendor's body. */
export function plainBody<T>(value: T, drop: string[] = []): T {
  const copy = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  for (const k of drop) delete copy[k];
  return copy as T;
}
