import { afterEach, describe, expect, it } from 'vitest';
import type { HttpSettings } from '../../src/ports/providers/call.js';
import { ProviderError, type ProviderAdapter, type ProviderName } from '../../src/ports/providers/types.js';
import { until } from '../helpers.js';
import { FAKE_API_KEY, startFakeProvider, type FakeBehaviour, type FakeProvider } from './server.js';

export type MakeAdapter = (fake: FakeProvider, http: Partial<HttpSettings>, apiKey?: string) => ProviderAdapter;

export const ASK = { prompt: 'What is the best CRM for a small sales team?', day: '2025-08-27', country: 'US', language: 'en' };

/**
 * Fast settings: backoff in milliseconds; each retry's delay is recorded, and the part of a
 * Retry-After beyond the backoff is never waited for.
 */
export function fastHttp(extra: Partial<HttpSettings> = {}) {
  const delays: number[] = [];
  const http: Partial<HttpSettings> = {
    timeoutMs: 2_000,
    baseDelayMs: 10,
    maxDelayMs: 40,
    sleep: async () => {},
    onRetry: ({ delayMs }) => {
      delays.push(delayMs);
    },
    ...extra,
  };
  return { http, delays };
}

async function rejection(p: Promise<unknown>): Promise<ProviderError> {
  const e = await p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ProviderError);
  return e as ProviderError;
}

/**
 * What every live adapter must do against its fake: retry 429 (honouring Retry-After)
 * and 5xx, not retry 400/401, time out a hanging call, and respect its concurrency limit.
 */
export function liveAdapterContract(kind: ProviderName, make: MakeAdapter, expected: { authStatus: number }) {
  describe(`${kind} adapter: errors, retries, timeouts, concurrency`, () => {
    let fake: FakeProvider | undefined;
    afterEach(async () => {
      await fake?.close();
      fake = undefined;
    });
    const start = async (b: FakeBehaviour) => (fake = await startFakeProvider(kind, b));

    it('retries a 429 after the Retry-After the provider asked for, then answers', async () => {
      const f = await start({ replies: ['rate_limit'], retryAfterSeconds: 2 });
      const { http, delays } = fastHttp();
      const answer = await make(f, http).ask(ASK);
      expect(answer.text.length).toBeGreaterThan(0);
      expect(f.apiRequests()).toHaveLength(2);
      expect(delays).toEqual([2000]);
    });

    it('retries 503 and 500 with growing backoff, then answers', async () => {
      const f = await start({ replies: ['unavailable', 'server_error'] });
      const { http, delays } = fastHttp();
      const answer = await make(f, http).ask(ASK);
      expect(answer.references.length).toBeGreaterThan(0);
      expect(f.apiRequests()).toHaveLength(3);
      expect(delays).toHaveLength(2);
      // p-retry: base × 2^n, times a random factor between 1 and 2, capped at maxDelayMs.
      expect(delays[0]).toBeGreaterThanOrEqual(10);
      expect(delays[0]).toBeLessThanOrEqual(20);
      expect(delays[1]).toBeGreaterThanOrEqual(20);
      expect(delays[1]).toBeLessThanOrEqual(40);
    });

    it('gives up after 3 retries of a 429 with a retryable error', async () => {
      const f = await start({ then: 'rate_limit' });
      const { http, delays } = fastHttp();
      const e = await rejection(make(f, http).ask(ASK));
      expect(e.retryable).toBe(true);
      expect(e.status).toBe(429);
      expect(e.retryAfterMs).toBe(1000);
      expect(e.message).toMatch(/after 4 attempts/);
      expect(f.apiRequests()).toHaveLength(4);
      expect(delays).toHaveLength(3);
    });

    it('does not retry a 400 and reports the provider message', async () => {
      const f = await start({ replies: ['bad_request'] });
      const e = await rejection(make(f, fastHttp().http).ask(ASK));
      expect(e.retryable).toBe(false);
      expect(e.status).toBe(400);
      expect(e.provider).toBe(kind);
      expect(e.message).toContain(`${kind}: `);
      expect(e.message).toMatch(/400: \S/);
      expect(f.apiRequests()).toHaveLength(1);
    });

    it('does not retry a refused key and says why', async () => {
      const f = await start({ apiKey: 'the-right-key' });
      const e = await rejection(make(f, fastHttp().http, 'a-wrong-key').ask(ASK));
      expect(e.retryable).toBe(false);
      expect(e.status).toBe(expected.authStatus);
      // The key, or the credentials where the service takes a username and password (Oxylabs).
      expect(e.message).toMatch(/key|credential/i);
      expect(e.message).not.toContain('a-wrong-key');
      expect(f.apiRequests()).toHaveLength(1);
    });

    it('times out a call that never answers: a retryable error after every retry', async () => {
      const f = await start({ then: 'hang' });
      const { http, delays } = fastHttp({ timeoutMs: 80, maxRetries: 2 });
      const e = await rejection(make(f, http).ask(ASK));
      expect(e.retryable).toBe(true);
      expect(e.message).toMatch(/timed out after 80 ms \(after 3 attempts\)/);
      expect(f.apiRequests()).toHaveLength(3);
      expect(delays).toHaveLength(2);
    });

    it('stops at once when the caller cancels', async () => {
      const f = await start({ then: 'hang' });
      const ctl = new AbortController();
      const pending = make(f, fastHttp().http).ask(ASK, ctl.signal);
      // Cancel once the vendor has the request (a fixed delay races a busy machine).
      await until(async () => f.apiRequests().length === 1, 10_000, 5);
      ctl.abort();
      const e = await rejection(pending);
      expect(e.retryable).toBe(false);
      expect(e.message).toMatch(/cancelled/);
      expect(f.apiRequests()).toHaveLength(1);
    });

    it('never has more calls in flight than its concurrency limit', async () => {
      const f = await start({ delayMs: 40 });
      const adapter = make(f, fastHttp({ concurrency: 2 }).http);
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => adapter.ask({ ...ASK, prompt: `${ASK.prompt} #${i}` })));
      expect(answers).toHaveLength(6);
      expect(f.maxInFlight()).toBe(2);
    });
  });
}

export { FAKE_API_KEY };
