import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A local fake of the OpenAI Chat Completions API (POST {base}/chat/completions), the wire
// format OpenAI and most local servers (vLLM, llama.cpp, Ollama, LM Studio) speak.
// Bodies follow OpenAI's API reference: a `chat.completion` object with `choices` and
// `usage`, and errors as `{error: {message, type, param, code}}`.

export interface ChatRequest {
  path: string;
  headers: Record<string, string>;
  body: any;
}

/**
 * One scripted reply to a chat request:
 * - 'ok': status 200 with `content` (the test's responder) as the assistant message;
 * - 'invalid_json': status 200 whose message content is prose, not JSON;
 * - 'rate_limit' (429 with Retry-After), 'server_error' (500), 'unavailable' (503);
 * - 'no_json_schema': 400 refusing `response_format: json_schema` (older or local models);
 * - or any status and body of your own.
 */
export type ChatReply = 'ok' | 'invalid_json' | 'rate_limit' | 'server_error' | 'unavailable' | 'no_json_schema' | { status: number; body: unknown; headers?: Record<string, string> };

export interface FakeChatOptions {
  /** The key the fake accepts; any other (or none) gets OpenAI's 401. Default FAKE_LLM_KEY. Null: no key needed (a local server). */
  apiKey?: string | null;
  /** What the assistant answers to a request; default '{}'. */
  content?: (req: ChatRequest) => string | object;
  /** Consumed one per chat request; afterwards 'ok'. */
  replies?: ChatReply[];
  retryAfterSeconds?: number;
}

export interface FakeChat {
  /** What to set as LLM_BASE_URL: http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  requests: ChatRequest[];
  behave(options: FakeChatOptions): void;
  close(): Promise<void>;
}

export const FAKE_LLM_KEY = 'sk-test-fake-0123456789';

const err = (message: string, type: string, code: string | null, param: string | null = null) => ({ error: { message, type, param, code } });

export function chatCompletion(content: string, model: string, promptTokens = 812) {
  const completionTokens = Math.max(1, Math.round(content.length / 4));
  return {
    id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
    object: 'chat.completion',
    created: 1741569952,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    service_tier: 'default',
    system_fingerprint: 'fp_06737a9306',
  };
}

function errorReply(kind: Exclude<ChatReply, 'ok' | 'invalid_json' | object>, model: string, retryAfter: number) {
  switch (kind) {
    case 'rate_limit':
      return {
        status: 429,
        headers: { 'retry-after': String(retryAfter), 'x-ratelimit-remaining-requests': '0' },
        body: err(`Rate limit reached for ${model} in organization org-test on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in ${retryAfter}s.`, 'requests', 'rate_limit_exceeded'),
      };
    case 'server_error':
      return { status: 500, body: err('The server had an error while processing your request. Sorry about that!', 'server_error', null) };
    case 'unavailable':
      return { status: 503, body: err('The engine is currently overloaded, please try again later', 'server_error', null) };
    case 'no_json_schema':
      return { status: 400, body: err(`Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.`, 'invalid_request_error', null, 'response_format') };
  }
}

export async function startFakeChat(options: FakeChatOptions = {}): Promise<FakeChat> {
  let opts = options;
  let script = [...(opts.replies ?? [])];
  const requests: ChatRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req_${requests.length}`, ...headers });
        res.end(JSON.stringify(body));
      };
      const path = (req.url ?? '/').split('?')[0];
      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        return send(404, err(`Invalid URL (${req.method} ${path})`, 'invalid_request_error', null));
      }
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(400, err("We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)", 'invalid_request_error', null));
      }
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const request: ChatRequest = { path, headers, body };
      requests.push(request);
      const expected = opts.apiKey === undefined ? FAKE_LLM_KEY : opts.apiKey;
      const key = (headers.authorization ?? '').replace(/^Bearer\s+/i, '');
      if (expected !== null && !key) {
        return send(401, err("You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", 'invalid_request_error', null));
      }
      if (expected !== null && key !== expected) {
        return send(401, err(`Incorrect API key provided: ${key.slice(0, 3)}***${key.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`, 'invalid_request_error', 'invalid_api_key'));
      }
      if (typeof body?.model !== 'string' || !Array.isArray(body?.messages) || body.messages.length === 0) {
        return send(400, err("Missing required parameter: 'model' or 'messages'.", 'invalid_request_error', 'missing_required_parameter', 'messages'));
      }
      const reply = script.shift() ?? 'ok';
      if (typeof reply === 'object') return send(reply.status, reply.body, reply.headers);
      if (reply === 'ok' || reply === 'invalid_json') {
        const produced = reply === 'ok' ? (opts.content?.(request) ?? '{}') : 'Sure! Here are my suggestions for your page: add more statistics.';
        const content = typeof produced === 'string' ? produced : JSON.stringify(produced);
        return send(200, chatCompletion(content, body.model));
      }
      const e = errorReply(reply, body.model, opts.retryAfterSeconds ?? 1);
      return send(e.status, e.body, e.headers);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    behave(next) {
      opts = next;
      script = [...(next.replies ?? [])];
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
