/** fetch with a JSON body, the answer parsed when it is JSON, and an optional expected status. */
export async function http<T = any>(
  method: string,
  url: string,
  opts: { body?: unknown; headers?: Record<string, string>; expect?: number } = {},
): Promise<{ status: number; body: T; text: string; headers: Headers }> {
  const res = await fetch(url, {
    method,
    headers: { ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }), ...opts.headers },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  if (opts.expect !== undefined && res.status !== opts.expect) {
    throw new Error(`${method} ${url}: expected ${opts.expect}, got ${res.status} ${text.slice(0, 300)}`);
  }
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, text, headers: res.headers };
}
