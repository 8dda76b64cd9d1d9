// The dashboard's one door to the server: the public API under /v1, same origin, with the
// session cookie (HttpOnly, never seen here) and the session's CSRF token on every write.
// No API key is ever stored in the browser.

let csrfToken: string | null = null;
let onSignedOut: () => void = () => {};

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}
export function onSessionLost(fn: () => void): void {
  onSignedOut = fn;
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

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
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
    const e = (json ?? {}) as { detail?: string; code?: string };
    const retry = res.headers.get('retry-after');
    if (res.status === 401 && path !== '/session') onSignedOut();
    throw new ApiError(res.status, e.detail ?? `${res.status} ${res.statusText}`, e.code, retry ? Number(retry) : null);
  }
  return json as T;
}

/** `{success, data}` and `{code, message, data}` envelopes both carry `data`. */
export async function data<T>(method: string, path: string, body?: unknown): Promise<T> {
  const r = await api<{ data: T }>(method, path, body);
  return r.data;
}

export const get = <T>(path: string) => data<T>('GET', path);

/** A query string from the defined values only. */
export function qs(params: Record<string, string | number | undefined | null>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}
