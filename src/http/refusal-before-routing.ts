import { TIER_LIMITS, type RateLimiter } from './rate-limit/index.js';

// Two requests are refused before routing, so before the hooks that limit, number and
// describe every other answer: a path segment over the router's limit (414) and a URL whose
// percent-encoding is malformed (400). Each still counts against its client address (the
// standard tier), carries the limit headers and the API's error body `{detail, code,
// request_id}`; over the limit, the answer is the 429 any other request would get.

export interface RefusalAnswer {
  status: number;
  /** Without Content-Type: a raw response writes its own, Fastify's reply sets it on send. */
  headers: Record<string, string | number>;
  body: { detail: string; code: 'invalid_request' | 'rate_limited'; request_id: string };
}

/** The answer to a request refused before routing (`status`, `detail`), limited by its client address. */
export async function refusalBeforeRouting(
  limiter: RateLimiter,
  clientAddress: string,
  requestId: string,
  refusal: { status: number; detail: string },
): Promise<RefusalAnswer> {
  const d = await limiter.hit(`ip:${clientAddress}`, TIER_LIMITS.standard);
  const headers: Record<string, string | number> = {
    'x-request-id': requestId,
    'x-ratelimit-limit': d.limit,
    'x-ratelimit-remaining': d.remaining,
    'x-credit-available': 0,
  };
  if (!d.allowed) headers['retry-after'] = d.retryAfter;
  return {
    status: d.allowed ? refusal.status : 429,
    headers,
    body: {
      detail: d.allowed ? refusal.detail : `Rate limit exceeded. Retry after ${d.retryAfter} seconds.`,
      code: d.allowed ? 'invalid_request' : 'rate_limited',
      request_id: requestId,
    },
  };
}
