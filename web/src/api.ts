// The dashboard's one door to the server: the public API under /v1, same origin, with the
// session cookie (HttpOnly, never seen here) and the session's CSRF token on every write.
// No API key is ever stored in the browser.

let csrfToken: string | null = null;
let onSignedOut: () => void = () => {};

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}
export function onSessionLost(listener: () => void): void {
  onSignedOut = listener;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code: string | undefined,
    readonly retryAfter: number | null,
  ) {
    super(detail);
  }
}

/**
 * Whether an error says the project itself cannot be read: another team's (403) or gone
 * (404 "Project not found"), not a missing prompt or action inside it.
 */
export function isProjectUnreachable(error: unknown): error is ApiError {
  return error instanceof ApiError && (error.status === 403 || (error.status === 404 && error.detail === 'Project not found'));
}

// A 429 with Retry-After: the time the server named is kept here, every GET waits for it
// before going out (so the retries of many queries do not hammer the server), and the
// layout shows when Sightline will try again (RateLimitNotice). The first answer that is
// not a 429 after that time clears it.
let limitedUntil = 0;
const rateListeners = new Set<() => void>();
export function rateLimitedUntil(): number {
  return limitedUntil;
}
export function onRateLimit(listener: () => void): () => void {
  rateListeners.add(listener);
  return () => rateListeners.delete(listener);
}
function setLimited(until: number): void {
  if (until === limitedUntil) return;
  limitedUntil = until;
  for (const rateListener of rateListeners) rateListener();
}
/** Seconds from Retry-After (delta-seconds or an HTTP date); null when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const retryAt = Date.parse(header);
  return Number.isNaN(retryAt) ? null : Math.max(0, Math.ceil((retryAt - now) / 1000));
}
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  if (method === 'GET') while (Date.now() < limitedUntil) await sleep(limitedUntil - Date.now());
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const res = await fetch(`/v1${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    const problem = (json ?? {}) as { detail?: string; code?: string };
    const retry = parseRetryAfter(res.headers.get('retry-after'));
    if (res.status === 401 && path !== '/session') onSignedOut();
    if (res.status === 429 && retry !== null) setLimited(Math.max(limitedUntil, Date.now() + retry * 1000));
    else if (limitedUntil && Date.now() >= limitedUntil) setLimited(0);
    throw new ApiError(res.status, problem.detail ?? `${res.status} ${res.statusText}`, problem.code, retry);
  }
  if (limitedUntil && Date.now() >= limitedUntil) setLimited(0);
  return json as T;
}

/** `{success, data}` and `{code, message, data}` envelopes both carry `data`. */
export async function data<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await api<{ data: T }>(method, path, body);
  return response.data;
}

export const get = <T>(path: string) => data<T>('GET', path);

/** A query string from the defined values only. */
export function queryString(params: Record<string, string | number | undefined | null>): string {
  const searchParams = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') searchParams.set(key, String(value));
  const encoded = searchParams.toString();
  return encoded ? `?${encoded}` : '';
}

/**
 * TanStack Query's retry policy: a 429 with Retry-After is asked again after that many
 * seconds, at most 3 times (then the page shows the error and when to try); any other 4xx
 * will not change by asking again; a 5xx or a network failure twice, backing off.
 */
export function shouldRetry(failures: number, err: unknown): boolean {
  if (err instanceof ApiError && err.status === 429) return err.retryAfter !== null && failures < 3;
  if (err instanceof ApiError && err.status < 500) return false;
  return failures < 2;
}
export function retryDelay(failures: number, err: unknown): number {
  if (err instanceof ApiError && err.status === 429) return Math.max(0, limitedUntil - Date.now()) + 50;
  return Math.min(1000 * 2 ** failures, 30_000);
}
