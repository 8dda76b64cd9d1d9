import type { FakeAnswer } from './answer.js';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: any;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type ErrorKind = 'rate_limit' | 'server_error' | 'unavailable' | 'bad_request' | 'unauthorized';

/** Per-fake state that lives across requests (SerpApi page tokens, Anthropic paused turns, Oxylabs jobs). */
export interface WireState {
  origin: string;
  tokens: Map<string, string>;
  counter: number;
}

/** One provider's wire format, as its public API reference describes it. */
export interface FakeWire {
  /** Path prefix the adapter's base URL carries ('/v1' for https://api.openai.com/v1). */
  basePath: string;
  /** The key's variable and the base URL's; `value`: the key the env carries when FAKE_API_KEY is not of its form. */
  env: { key: string; baseUrl: string; value?: string };
  /** True for requests to the answering endpoint (they consume the scripted replies). */
  isApi(req: RecordedRequest): boolean;
  /** The provider's own reply to a missing or wrong key, or null when the key is good. */
  auth(req: RecordedRequest, expectedKey?: string): Reply | null;
  prompt(req: RecordedRequest, state: WireState): string;
  ok(req: RecordedRequest, answer: FakeAnswer, state: WireState, model?: string): Reply;
  error(kind: ErrorKind, retryAfterSeconds: number): Reply;
  /** Provider-specific replies (page_token, no_overview, pause_turn, faulted); null when not supported. */
  special?(name: string, req: RecordedRequest, answer: FakeAnswer, state: WireState, model?: string): Reply | null;
  /** Other routes the fake serves (Gemini's grounding redirects, Oxylabs' job status and results). */
  extra?(req: RecordedRequest, answer: FakeAnswer, state?: WireState): Reply | null;
}

export const bearer = (req: RecordedRequest) => (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
