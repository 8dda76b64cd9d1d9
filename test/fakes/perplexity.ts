import type { FakeAnswer } from './answer.js';
import { bearer, type FakeWire } from './wire.js';

// Perplexity Sonar: POST /chat/completions, Authorization: Bearer. The text cites [n]
// markers into the top-level `citations`; `search_results` adds titles, dates, snippets.
const err = (message: string, type: string, code: number) => ({ error: { message, type, code } });

export function sonarResponse(answer: FakeAnswer, model = 'sonar') {
  const content = answer.segments.map((s) => s.text + s.cites.map((c) => `[${c + 1}]`).join('')).join(' ');
  return {
    id: '3c9a6b1e-5f0e-4d8c-9a1b-2f7e8d9c0a1b',
    model,
    created: 1756315696,
    usage: { prompt_tokens: 12, completion_tokens: 180, total_tokens: 192, search_context_size: 'low', cost: { input_tokens_cost: 0, output_tokens_cost: 0, request_cost: 0.005, total_cost: 0.005 } },
    citations: answer.sources.map((s) => s.url),
    search_results: answer.sources.map((s) => ({ title: s.title, url: s.url, date: '2025-06-12', last_updated: '2025-08-01', snippet: s.snippet })),
    object: 'chat.completion',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
  };
}

export const perplexityWire: FakeWire = {
  basePath: '',
  env: { key: 'PERPLEXITY_API_KEY', baseUrl: 'PERPLEXITY_BASE_URL' },
  isApi: (req) => req.method === 'POST' && req.path === '/chat/completions',
  auth(req, expected) {
    const key = bearer(req);
    if (!key || (expected && key !== expected)) return { status: 401, body: err('Invalid API key provided.', 'invalid_api_key', 401) };
    return null;
  },
  prompt: (req) => {
    const msgs: Array<{ role: string; content: string }> = req.body?.messages ?? [];
    return msgs.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  },
  ok: (_req, answer, _s, model) => ({ status: 200, body: sonarResponse(answer, answer.model ?? model) }),
  error(kind, retryAfter) {
    switch (kind) {
      case 'rate_limit':
        return { status: 429, headers: { 'retry-after': String(retryAfter) }, body: err('Rate limit exceeded. Please retry after a short wait.', 'rate_limit_exceeded', 429) };
      case 'server_error':
        return { status: 500, body: err('Internal server error', 'internal_server_error', 500) };
      case 'unavailable':
        return { status: 503, body: err('Service temporarily unavailable', 'service_unavailable', 503) };
      case 'bad_request':
        return { status: 400, body: err("Invalid model 'sonar-x'. Permitted models can be found in the documentation at https://docs.perplexity.ai/getting-started/models.", 'invalid_model', 400) };
      case 'unauthorized':
        return { status: 401, body: err('Invalid API key provided.', 'invalid_api_key', 401) };
    }
  },
};
