import { citedOrder, type FakeAnswer } from './answer.js';
import { bearer, type FakeWire } from './wire.js';

// xAI Responses API: POST /v1/responses, Authorization: Bearer, OpenAI-compatible. With the
// server-side web_search tool the message's output_text carries url_citation annotations
// without positions or titles (as recorded in vercel/ai's xai-web-search-tool.1.json).
// Errors are {code, error} with the message as a string.
const xErr = (code: string, error: string) => ({ code, error });

export function xaiResponse(answer: FakeAnswer, model = 'grok-4-fast-reasoning', prompt = '') {
  const text = answer.segments.map((s) => s.text).join(' ');
  return {
    created_at: 1762189566,
    id: '25de2f84-163c-6e9e-e42e-cd1dbd6f9ed0',
    max_output_tokens: null,
    model,
    object: 'response',
    output: [
      {
        arguments: JSON.stringify({ query: prompt, num_results: 5 }),
        call_id: '',
        name: 'web_search',
        type: 'web_search_call',
        id: 'fc_25de2f84-163c-6e9e-e42e-cd1dbd6f9ed0_0',
        status: 'completed',
      },
      {
        content: [{ type: 'output_text', text, logprobs: [], annotations: citedOrder(answer).map((i) => ({ type: 'url_citation', url: answer.sources[i].url })) }],
        id: 'msg_25de2f84-163c-6e9e-e42e-cd1dbd6f9ed0',
        role: 'assistant',
        type: 'message',
        status: 'completed',
      },
    ],
    parallel_tool_calls: true,
    previous_response_id: null,
    tools: [{ type: 'web_search', search_context_size: 'medium' }],
    usage: {
      input_tokens: 1941,
      input_tokens_details: { cached_tokens: 947 },
      output_tokens: 583,
      output_tokens_details: { reasoning_tokens: 380 },
      total_tokens: 2524,
      num_sources_used: 0,
      num_server_side_tools_used: 1,
    },
    user: null,
    incomplete_details: null,
    status: 'completed',
    store: false,
    metadata: {},
  };
}

export const xaiWire: FakeWire = {
  basePath: '/v1',
  env: { key: 'XAI_API_KEY', baseUrl: 'XAI_BASE_URL' },
  isApi: (req) => req.method === 'POST' && req.path === '/v1/responses',
  auth(req, expected) {
    const key = bearer(req);
    if (!key || (expected && key !== expected)) {
      return { status: 400, body: xErr('Client specified an invalid argument', 'Incorrect API key provided: xa***. You can obtain an API key from https://console.x.ai.') };
    }
    return null;
  },
  prompt: (req) => (typeof req.body?.input === 'string' ? req.body.input : JSON.stringify(req.body?.input ?? '')),
  ok: (req, answer, s, model) => ({ status: 200, body: xaiResponse(answer, answer.model ?? model, xaiWire.prompt(req, s)) }),
  error(kind, retryAfter) {
    switch (kind) {
      case 'rate_limit':
        return { status: 429, headers: { 'retry-after': String(retryAfter) }, body: xErr('Too Many Requests', 'Your team has exceeded its requests per second limit.') };
      case 'server_error':
        return { status: 500, body: xErr('Internal error', 'Internal server error.') };
      case 'unavailable':
        return { status: 503, body: xErr('Service Unavailable', 'The service is currently unavailable.') };
      case 'bad_request':
        return { status: 400, body: xErr('Client specified an invalid argument', 'Model not found: grok-x') };
      case 'unauthorized':
        return { status: 400, body: xErr('Client specified an invalid argument', 'Incorrect API key provided: xa***. You can obtain an API key from https://console.x.ai.') };
    }
  },
};
