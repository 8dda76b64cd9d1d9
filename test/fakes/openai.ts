import { hostOf, type FakeAnswer } from './answer.js';
import { bearer, type FakeWire } from './wire.js';

// OpenAI Responses API: POST /v1/responses, Authorization: Bearer. The answer is a message
// output item whose output_text carries url_citation annotations over inline links.
const err = (message: string, type: string, code: string | null, param: string | null = null) => ({ error: { message, type, param, code } });

export function openAIResponse(answer: FakeAnswer, model = 'gpt-4.1-mini-2025-04-14', prompt = '') {
  let text = '';
  const annotations: unknown[] = [];
  answer.segments.forEach((seg, i) => {
    text += (i ? ' ' : '') + seg.text;
    for (const c of seg.cites) {
      const src = answer.sources[c];
      const url = `${src.url}${src.url.includes('?') ? '&' : '?'}utm_source=openai`;
      const link = ` ([${hostOf(src.url)}](${url}))`;
      annotations.push({ type: 'url_citation', start_index: text.length + 1, end_index: text.length + link.length, url, title: src.title });
      text += link;
    }
  });
  return {
    id: 'resp_68af4030592c81938ec0a5fbab4a3e9f05438e46b5f69a3b',
    object: 'response',
    created_at: 1756315696,
    status: 'completed',
    error: null,
    incomplete_details: null,
    model,
    output: [
      { id: 'ws_68af4031b41c8193b2b4f6c8f3a6a6a305438e46b5f69a3b', type: 'web_search_call', status: 'completed', action: { type: 'search', query: prompt } },
      {
        id: 'msg_68af40337e7c81938d6f4ee1c5eb4dd205438e46b5f69a3b',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', annotations, logprobs: [], text }],
      },
    ],
    tools: [{ type: 'web_search', search_context_size: 'medium', user_location: { type: 'approximate', city: null, country: 'US', region: null, timezone: null } }],
    usage: { input_tokens: 8213, output_tokens: 312, total_tokens: 8525 },
  };
}

export const openAIWire: FakeWire = {
  basePath: '/v1',
  env: { key: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL' },
  isApi: (req) => req.method === 'POST' && req.path === '/v1/responses',
  auth(req, expected) {
    const key = bearer(req);
    if (!key) {
      return { status: 401, body: err("You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", 'invalid_request_error', null) };
    }
    if (expected && key !== expected) {
      return { status: 401, body: err(`Incorrect API key provided: ${key.slice(0, 3)}***${key.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`, 'invalid_request_error', 'invalid_api_key') };
    }
    return null;
  },
  prompt: (req) => (typeof req.body?.input === 'string' ? req.body.input : JSON.stringify(req.body?.input ?? '')),
  ok: (req, answer, _s, model) => ({ status: 200, body: openAIResponse(answer, answer.model ?? model, openAIWire.prompt(req, _s)) }),
  error(kind, retryAfter) {
    switch (kind) {
      case 'rate_limit':
        return {
          status: 429,
          headers: { 'retry-after': String(retryAfter), 'x-ratelimit-limit-requests': '500', 'x-ratelimit-remaining-requests': '0' },
          body: err('Rate limit reached for gpt-4.1-mini in organization org-test on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 120ms.', 'requests', 'rate_limit_exceeded'),
        };
      case 'server_error':
        return { status: 500, body: err('The server had an error while processing your request. Sorry about that!', 'server_error', null) };
      case 'unavailable':
        return { status: 503, body: err('The engine is currently overloaded, please try again later.', 'server_error', null) };
      case 'bad_request':
        return { status: 400, body: err("Invalid value: 'web_search_x'. Supported values are: 'web_search', 'file_search' and 'function'.", 'invalid_request_error', 'invalid_value', 'tools[0].type') };
      case 'unauthorized':
        return { status: 401, body: err('Incorrect API key provided: sk-te***3456. You can find your API key at https://platform.openai.com/account/api-keys.', 'invalid_request_error', 'invalid_api_key') };
    }
  },
};
