import type { FakeAnswer } from './answer.js';
import type { FakeWire, RecordedRequest, WireState } from './wire.js';

// SerpApi: GET /search?engine=google&q=…&api_key=… returns `ai_overview` with text_blocks
// and references, or only a page_token when Google loads the overview lazily; then
// GET /search?engine=google_ai_overview&page_token=… returns the overview itself.
const metadata = (engine: string) => ({
  id: '68af4f2b5d3b7a1c2e9f0a11',
  status: 'Success',
  json_endpoint: 'https://serpapi.com/searches/0a1b2c3d4e5f6a7b/68af4f2b5d3b7a1c2e9f0a11.json',
  created_at: '2025-08-27 18:21:31 UTC',
  processed_at: '2025-08-27 18:21:31 UTC',
  total_time_taken: 1.84,
  ...(engine === 'google' ? { google_url: 'https://www.google.com/search?q=best+crm&oq=best+crm&hl=en&gl=us&sourceid=chrome&ie=UTF-8' } : {}),
});

/** The overview: the first segment as a paragraph, a heading, the rest as a list. */
export function aiOverview(answer: FakeAnswer) {
  const [first, ...rest] = answer.segments;
  const text_blocks: unknown[] = [{ type: 'paragraph', snippet: first.text, snippet_highlighted_words: [first.text.split(' ').slice(0, 4).join(' ')], reference_indexes: first.cites }];
  if (rest.length) {
    text_blocks.push({ type: 'heading', snippet: 'Popular options' });
    text_blocks.push({ type: 'list', list: rest.map((s) => ({ snippet: s.text, reference_indexes: s.cites })) });
  }
  return {
    text_blocks,
    references: answer.sources.map((s, index) => ({ title: s.title, link: s.url, snippet: s.snippet, source: new URL(s.url).hostname.replace(/^www\./, ''), index })),
  };
}

const organic = [{ position: 1, title: 'The Best CRM Software for 2025 | PCMag', link: 'https://www.pcmag.com/picks/the-best-crm-software', displayed_link: 'https://www.pcmag.com › picks', snippet: 'We tested the top CRM platforms.' }];

export const sErr = (error: string) => ({ error });

/** SerpApi's error answers, the same for every engine it serves. */
export const serpApiError: FakeWire['error'] = (kind, retryAfter) => {
  switch (kind) {
    case 'rate_limit':
      return { status: 429, headers: { 'retry-after': String(retryAfter) }, body: sErr('Your account has exceeded the hourly searches limit. Please try again later.') };
    case 'server_error':
      return { status: 500, body: sErr('Internal error. Please contact support at contact@serpapi.com.') };
    case 'unavailable':
      return { status: 503, body: sErr('SerpApi is temporarily unavailable. Please retry in a moment.') };
    case 'bad_request':
      return { status: 400, body: sErr('Unsupported `gl` parameter.') };
    case 'unauthorized':
      return { status: 401, body: sErr('Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key') };
  }
};

export const serpApiWire: FakeWire = {
  basePath: '',
  env: { key: 'SERPAPI_API_KEY', baseUrl: 'SERPAPI_BASE_URL' },
  isApi: (req) => req.method === 'GET' && req.path === '/search',
  auth(req, expected) {
    const key = req.query.api_key;
    if (!key || (expected && key !== expected)) return { status: 401, body: sErr('Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key') };
    return null;
  },
  prompt: (req, state) => req.query.q ?? state.tokens.get(req.query.page_token ?? '') ?? '',
  ok(req, answer, state) {
    if (req.query.engine === 'google_ai_overview') {
      if (!state.tokens.has(req.query.page_token ?? '')) return { status: 400, body: sErr('Invalid `page_token` parameter.') };
      return { status: 200, body: { search_metadata: metadata('google_ai_overview'), search_parameters: { engine: 'google_ai_overview' }, ai_overview: aiOverview(answer) } };
    }
    if (req.query.engine !== 'google' || !req.query.q) return { status: 400, body: sErr('Missing query `q` parameter.') };
    return { status: 200, body: searchBody(req, { ai_overview: aiOverview(answer) }) };
  },
  special(name, req, _answer, state: WireState) {
    if (name === 'no_overview') return { status: 200, body: searchBody(req, {}) };
    if (name !== 'page_token') return null;
    const token = `KIVu-nictxwMj4bf5i6ar_${++state.counter}`;
    state.tokens.set(token, req.query.q ?? '');
    return {
      status: 200,
      body: searchBody(req, { ai_overview: { page_token: token, serpapi_link: `https://serpapi.com/search.json?engine=google_ai_overview&page_token=${token}` } }),
    };
  },
  error: serpApiError,
};

function searchBody(req: RecordedRequest, extra: Record<string, unknown>) {
  return {
    search_metadata: metadata('google'),
    search_parameters: { engine: 'google', q: req.query.q, google_domain: 'google.com', hl: req.query.hl, gl: req.query.gl, device: 'desktop' },
    search_information: { query_displayed: req.query.q, total_results: 1250000000, time_taken_displayed: 0.41 },
    ...extra,
    organic_results: organic,
  };
}
