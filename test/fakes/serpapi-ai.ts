import type { FakeAnswer } from './answer.js';
import { aiOverview, sErr, serpApiError } from './serpapi.js';
import type { FakeWire, RecordedRequest } from './wire.js';

// SerpApi's google_ai_mode and bing_copilot engines: GET /search?engine=…&q=…&api_key=…,
// answering with top-level text_blocks and references (Copilot adds a header).

const metadata = (engine: string) => ({
  id: '68af4f2b5d3b7a1c2e9f0a12',
  status: 'Success',
  json_endpoint: `https://serpapi.com/searches/0a1b2c3d4e5f6a7b/68af4f2b5d3b7a1c2e9f0a12.json`,
  created_at: '2025-08-27 18:21:31 UTC',
  processed_at: '2025-08-27 18:21:31 UTC',
  total_time_taken: 4.12,
  ...(engine === 'google_ai_mode' ? { google_ai_mode_url: 'https://www.google.com/search?udm=50&q=best+crm' } : { bing_copilot_url: 'https://www.bing.com/copilotsearch?q=best+crm' }),
});

export function serpAiBody(engine: 'google_ai_mode' | 'bing_copilot', req: RecordedRequest, answer: FakeAnswer) {
  const { text_blocks, references } = aiOverview(answer);
  return {
    search_metadata: metadata(engine),
    search_parameters: { engine, q: req.query.q, ...(engine === 'google_ai_mode' ? { hl: req.query.hl, gl: req.query.gl } : {}) },
    ...(engine === 'bing_copilot' ? { header: 'Best CRM for a small sales team' } : {}),
    text_blocks,
    references,
  };
}

function serpAiWire(engine: 'google_ai_mode' | 'bing_copilot', baseUrlVar: string): FakeWire {
  return {
    basePath: '',
    env: { key: 'SERPAPI_API_KEY', baseUrl: baseUrlVar },
    isApi: (req) => req.method === 'GET' && req.path === '/search',
    auth(req, expected) {
      const key = req.query.api_key;
      if (!key || (expected && key !== expected)) return { status: 401, body: sErr('Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key') };
      return null;
    },
    prompt: (req) => req.query.q ?? '',
    ok(req, answer) {
      if (req.query.engine !== engine) return { status: 400, body: sErr(`Unsupported \`${req.query.engine}\` search engine.`) };
      if (!req.query.q) return { status: 400, body: sErr('Missing query `q` parameter.') };
      return { status: 200, body: serpAiBody(engine, req, answer) };
    },
    error: serpApiError,
  };
}

export const aiModeWire = serpAiWire('google_ai_mode', 'GOOGLE_AI_MODE_BASE_URL');
export const copilotWire = serpAiWire('bing_copilot', 'COPILOT_BASE_URL');
