import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderName } from '../../src/ports/providers/types.js';
import { anthropicWire } from './anthropic.js';
import { DEFAULT_ANSWER, type FakeAnswer } from './answer.js';
import { geminiWire } from './gemini.js';
import { openAIWire } from './openai.js';
import { oxylabsChatGptWire } from './oxylabs.js';
import { perplexityWire } from './perplexity.js';
import { serpApiWire } from './serpapi.js';
import { aiModeWire, copilotWire } from './serpapi-ai.js';
import { xaiWire } from './xai.js';
import type { ErrorKind, FakeWire, RecordedRequest, Reply, WireState } from './wire.js';

export const WIRES: Record<ProviderName, FakeWire> = {
  chatgpt: openAIWire,
  perplexity: perplexityWire,
  gemini: geminiWire,
  claude: anthropicWire,
  google_ai_overview: serpApiWire,
  google_ai_mode: aiModeWire,
  grok: xaiWire,
  copilot: copilotWire,
  chatgpt_ui: oxylabsChatGptWire,
};

/**
 * What the fake answers to each request of the answering endpoint, in order:
 * - 'ok': a realistic answer (FakeBehaviour.answer) in the provider's wire format;
 * - 'rate_limit': 429 with Retry-After (Gemini: a RetryInfo in the body);
 * - 'server_error' (500), 'unavailable' (503; Anthropic 529 overloaded);
 * - 'bad_request' (400), 'unauthorized' (401; Gemini 400 API_KEY_INVALID), in the provider's error JSON;
 * - 'hang': never answers (the client must time out);
 * - 'page_token', 'no_overview' (SerpApi), 'pause_turn' (Anthropic), 'faulted' (Oxylabs: the job fails);
 * - or any reply of your own.
 */
export type FakeReply = 'ok' | ErrorKind | 'hang' | 'page_token' | 'no_overview' | 'pause_turn' | 'faulted' | Reply;

export interface FakeBehaviour {
  /** Consumed one per request to the answering endpoint; afterwards `then` answers. */
  replies?: FakeReply[];
  /** Default 'ok'. */
  then?: FakeReply;
  /** The answer to give, or one per prompt. Default DEFAULT_ANSWER. */
  answer?: FakeAnswer | ((prompt: string) => FakeAnswer);
  /** Sent with 'rate_limit'. Default 1. */
  retryAfterSeconds?: number;
  /** When set, any other key is refused as the provider would refuse it. Default: any non-empty key. */
  apiKey?: string;
  /** Model id in the response bodies (default: the provider's usual dated id). */
  model?: string;
  /** Wait before answering each API request. */
  delayMs?: number;
}

export interface FakeProvider {
  kind: ProviderName;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** What to set as the provider's *_BASE_URL (origin plus the API's path prefix). */
  baseUrl: string;
  /** The provider's variables pointing at this fake: key and base URL, for loadConfig. */
  env: Record<string, string>;
  /** Every request received, oldest first (redirect follow-ups included). */
  requests: RecordedRequest[];
  /** Requests to the answering endpoint only. */
  apiRequests(): RecordedRequest[];
  /** Replace the behaviour (and reset the script). */
  behave(b: FakeBehaviour): void;
  /** Most API requests in flight at once so far. */
  maxInFlight(): number;
  close(): Promise<void>;
}

export const FAKE_API_KEY = 'test-key-123456';

/** A local HTTP server on 127.0.0.1 (free port) that speaks `kind`'s real wire format. */
export async function startFakeProvider(kind: ProviderName, behaviour: FakeBehaviour = {}): Promise<FakeProvider> {
  const wire = WIRES[kind];
  let b = behaviour;
  let script = [...(b.replies ?? [])];
  let inFlight = 0;
  let maxInFlight = 0;
  const requests: RecordedRequest[] = [];
  const state: WireState = { origin: '', tokens: new Map(), counter: 0 };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', state.origin);
    const rec: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')])),
      body: raw ? safeJson(raw) : undefined,
    };
    requests.push(rec);
    const answerFor = () => (typeof b.answer === 'function' ? b.answer(wire.prompt(rec, state)) : (b.answer ?? DEFAULT_ANSWER));

    if (!wire.isApi(rec)) {
      const extra = wire.extra?.(rec, answerFor(), state);
      return send(res, extra ?? { status: 404, body: { error: { message: `Not found: ${rec.method} ${rec.path}` } } });
    }
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    if (b.delayMs) await new Promise((r) => setTimeout(r, b.delayMs));
    const step = script.length ? script.shift()! : (b.then ?? 'ok');
    if (step === 'hang') return; // keep the socket open and never answer
    const denied = wire.auth(rec, b.apiKey);
    if (denied) return send(res, denied);
    send(res, reply(step, rec, answerFor()));
  });

  function reply(step: FakeReply, rec: RecordedRequest, answer: FakeAnswer): Reply {
    if (typeof step === 'object') return step;
    if (step === 'ok') return wire.ok(rec, answer, state, b.model);
    if (step === 'page_token' || step === 'no_overview' || step === 'pause_turn' || step === 'faulted') {
      return wire.special?.(step, rec, answer, state, b.model) ?? { status: 500, body: { error: `${kind} fake has no '${step}' reply` } };
    }
    if (step === 'hang') throw new Error('unreachable');
    return wire.error(step, b.retryAfterSeconds ?? 1);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.origin = `http://127.0.0.1:${port}`;
  const baseUrl = state.origin + wire.basePath;
  return {
    kind,
    origin: state.origin,
    baseUrl,
    env: { [wire.env.key]: wire.env.value ?? FAKE_API_KEY, [wire.env.baseUrl]: baseUrl },
    requests,
    apiRequests: () => requests.filter((r) => wire.isApi(r)),
    behave(next) {
      b = next;
      script = [...(next.replies ?? [])];
    },
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: http.ServerResponse, r: Reply): void {
  const body = r.body === undefined ? '' : JSON.stringify(r.body);
  res.writeHead(r.status, { ...(body ? { 'content-type': 'application/json' } : {}), ...r.headers });
  res.end(body);
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
