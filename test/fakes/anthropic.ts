import type { FakeAnswer } from './answer.js';
import { bearer, type FakeWire } from './wire.js';

// Anthropic Messages: POST /v1/messages with x-api-key (or a Bearer token) and anthropic-version. With the
// web_search_20250305 server tool the content is: a preamble text, server_tool_use,
// web_search_tool_result, then text blocks, the cited ones carrying
// web_search_result_location citations.
const aErr = (type: string, message: string) => ({ type: 'error', error: { type, message }, request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy' });

const toolBlocks = (answer: FakeAnswer, prompt: string) => [
  { type: 'server_tool_use', id: 'srvtoolu_01WYG3ziw53XMcoyKL4XcZmE', name: 'web_search', input: { query: prompt } },
  {
    type: 'web_search_tool_result',
    tool_use_id: 'srvtoolu_01WYG3ziw53XMcoyKL4XcZmE',
    content: answer.sources.map((s) => ({ type: 'web_search_result', title: s.title, url: s.url, encrypted_content: 'EqgfCioIARgBIiQ3YTAwMjY1Mi1mZjM5LTQ1NGUtODgxNC1kNjNjNTk1ZWI3Y', page_age: 'June 12, 2025' })),
  },
];

const answerBlocks = (answer: FakeAnswer) =>
  answer.segments.map((seg, i) => ({
    type: 'text',
    text: (i ? ' ' : '') + seg.text,
    ...(seg.cites.length
      ? { citations: seg.cites.map((c) => ({ type: 'web_search_result_location', url: answer.sources[c].url, title: answer.sources[c].title, encrypted_index: 'Eo8BCioIAhgBIiQyYjQ0OWJmZi1lNm', cited_text: answer.sources[c].snippet })) }
      : {}),
  }));

export function messagesResponse(answer: FakeAnswer, model = 'claude-sonnet-4-5-20250929', prompt = '', part: 'all' | 'paused' | 'rest' = 'all') {
  const content =
    part === 'paused'
      ? [{ type: 'text', text: "I'll search for current information about this." }, ...toolBlocks(answer, prompt)]
      : part === 'rest'
        ? answerBlocks(answer)
        : [{ type: 'text', text: "I'll search for current information about this." }, ...toolBlocks(answer, prompt), ...answerBlocks(answer)];
  return {
    id: 'msg_01Hg2hD6vTXyb5Kn7sJg8Qte',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: part === 'paused' ? 'pause_turn' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 6039, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 931, server_tool_use: { web_search_requests: 1 }, service_tier: 'standard' },
  };
}

export const anthropicWire: FakeWire = {
  basePath: '/v1',
  env: { key: 'ANTHROPIC_API_KEY', baseUrl: 'ANTHROPIC_BASE_URL' },
  isApi: (req) => req.method === 'POST' && req.path === '/v1/messages',
  auth(req, expected) {
    // x-api-key, or (as @anthropic-ai/sdk 1.x sends it) Authorization: Bearer.
    const key = req.headers['x-api-key'] || bearer(req);
    if (!key || (expected && key !== expected)) return { status: 401, body: aErr('authentication_error', 'invalid x-api-key') };
    if (!req.headers['anthropic-version']) return { status: 400, body: aErr('invalid_request_error', 'anthropic-version: header is required') };
    return null;
  },
  prompt: (req) => {
    const first = req.body?.messages?.[0]?.content;
    return typeof first === 'string' ? first : (first?.map?.((b: { text?: string }) => b.text ?? '').join('') ?? '');
  },
  ok(req, answer, state, model) {
    // The continuation of a paused turn carries the assistant's content back.
    const resumed = (req.body?.messages?.length ?? 0) > 1;
    return { status: 200, body: messagesResponse(answer, answer.model ?? model, anthropicWire.prompt(req, state), resumed ? 'rest' : 'all') };
  },
  special(name, req, answer, state, model) {
    if (name !== 'pause_turn') return null;
    return { status: 200, body: messagesResponse(answer, answer.model ?? model, anthropicWire.prompt(req, state), 'paused') };
  },
  error(kind, retryAfter) {
    switch (kind) {
      case 'rate_limit':
        return {
          status: 429,
          headers: { 'retry-after': String(retryAfter), 'anthropic-ratelimit-requests-limit': '50', 'anthropic-ratelimit-requests-remaining': '0' },
          body: aErr('rate_limit_error', 'This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits.'),
        };
      case 'server_error':
        return { status: 500, body: aErr('api_error', 'Internal server error') };
      case 'unavailable':
        return { status: 529, body: aErr('overloaded_error', 'Overloaded') };
      case 'bad_request':
        return { status: 400, body: aErr('invalid_request_error', 'max_tokens: Field required') };
      case 'unauthorized':
        return { status: 401, body: aErr('authentication_error', 'invalid x-api-key') };
    }
  },
};
