import { citedOrder, hostOf, type FakeAnswer } from './answer.js';
import type { FakeWire, RecordedRequest, Reply, WireState } from './wire.js';

// Oxylabs Web Scraper API, source `chatgpt`, Push-Pull (https://developers.oxylabs.io, "Push-Pull",
// "LLMs and AI / ChatGPT"; github.com/oxylabs/chatgpt-scraper): POST /v1/queries submits the
// prompt and answers the job (status `pending`); GET /v1/queries/{id} answers the job again
// (`done` from the second ask on); GET /v1/queries/{id}/results answers `{results: [...]}`,
// or 204 while the job is not done. HTTP Basic auth with the API user's username:password.
// Field names and values are those of the recording (test/fixtures/providers/chatgpt_ui/),
// plus the documented `citations`, `search_queries` (and `links`) it lacks.

const JOB_BASE = 7352996936896485377n;
/** The password of the API user the fake's env names (FAKE_API_KEY has no username). */
const FAKE_CREDENTIAL = 'test-key-123456';
const CREATED = '2025-08-27 18:21:31';
const DONE = '2025-08-27 18:22:04';

interface FakeJob {
  prompt: string;
  geo_location?: string;
  polls: number;
  model?: string;
  faulted?: boolean;
}

const oErr = (message: string) => ({ message });

function basicUser(req: RecordedRequest): string | null {
  const m = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  return m ? Buffer.from(m[1], 'base64').toString('utf8') : null;
}

const jobPath = (path: string) => /^\/v1\/queries\/(\d+)(\/results)?$/.exec(path);

function jobOf(state: WireState, id: string): FakeJob | undefined {
  const raw = state.tokens.get(`oxylabs:${id}`);
  return raw ? (JSON.parse(raw) as FakeJob) : undefined;
}
function saveJob(state: WireState, id: string, job: FakeJob) {
  state.tokens.set(`oxylabs:${id}`, JSON.stringify(job));
}

const status = (job: FakeJob) => (job.faulted ? 'faulted' : job.polls >= 2 ? 'done' : 'pending');

/** The job as Oxylabs answers it (the recording's `job`, without the Realtime callback_url). */
export function oxylabsJob(id: string, job: FakeJob, origin: string) {
  const href = `${origin}/v1/queries/${id}`;
  const st = status(job);
  return {
    parse: true,
    prompt: job.prompt,
    search: true,
    source: 'chatgpt',
    ...(job.geo_location ? { geo_location: job.geo_location } : {}),
    id,
    status: st,
    created_at: CREATED,
    updated_at: st === 'pending' ? CREATED : DONE,
    _links: [
      { rel: 'self', href, method: 'GET' },
      { rel: 'results', href: `${href}/results`, method: 'GET' },
    ],
  };
}

const withUtm = (url: string) => `${url}${url.includes('?') ? '&' : '?'}utm_source=chatgpt.com`;

/**
 * The parsed result of the app's answer: markdown with the first paragraph indented as in the
 * recording, the cited sources in order of first citation, the uncited ones under "More".
 */
export function oxylabsResult(id: string, prompt: string, answer: FakeAnswer, model = 'gpt-4o') {
  const [first, ...rest] = answer.segments;
  const markdown = [first.text, ...(rest.length ? ['### Popular options', rest.map((s) => `* ${s.text}`).join('\n')] : [])].join('\n\n');
  const plain = [first.text, ...rest.map((s) => s.text)].join('\n\n');
  const cited = citedOrder(answer);
  const citation = (i: number, more: boolean) => {
    const s = answer.sources[i];
    return { title: s.title, url: withUtm(s.url), text: hostOf(s.url), description: s.snippet, ...(more ? { section: 'more' } : {}) };
  };
  return {
    content: {
      prompt,
      llm_model: answer.model ?? model,
      markdown_text: `\n              ${markdown}\n\n              `,
      response_text: `\n          ${plain}\n          `,
      citations: [...cited.map((i) => citation(i, false)), ...answer.sources.map((_, i) => i).filter((i) => !cited.includes(i)).map((i) => citation(i, true))],
      search_queries: [`${prompt.replace(/\?$/, '')} 2025`, 'hubspot vs pipedrive pricing small team'],
      parse_status_code: 12000,
    },
    created_at: CREATED,
    updated_at: DONE,
    page: 1,
    url: 'https://chatgpt.com/?hints=search',
    job_id: id,
    is_render_forced: false,
    status_code: 200,
    parser_type: 'chatgpt',
    parser_preset: null,
  };
}

function submit(req: RecordedRequest, state: WireState, model: string | undefined, faulted: boolean): Reply {
  const b = (req.body ?? {}) as Record<string, unknown>;
  if (b.source !== 'chatgpt') return { status: 400, body: oErr(`Unsupported source: ${String(b.source)}`) };
  if (typeof b.prompt !== 'string' || !b.prompt) return { status: 400, body: oErr('prompt is required') };
  const id = String(JOB_BASE + BigInt(++state.counter));
  const job: FakeJob = { prompt: b.prompt, polls: 0, model, faulted, ...(typeof b.geo_location === 'string' ? { geo_location: b.geo_location } : {}) };
  saveJob(state, id, job);
  return { status: 200, body: oxylabsJob(id, job, state.origin) };
}

export const oxylabsChatGptWire: FakeWire = {
  basePath: '',
  env: { key: 'OXYLABS_CREDENTIALS', baseUrl: 'OXYLABS_BASE_URL', value: `sightline:${FAKE_CREDENTIAL}` },
  isApi: (req) => req.method === 'POST' && req.path === '/v1/queries',
  auth(req, expected) {
    const user = basicUser(req);
    if (user === null) return { status: 401, body: oErr('Authorization header not provided') };
    if (expected && user !== expected) return { status: 401, body: oErr('Client not found') };
    return null;
  },
  prompt(req, state) {
    if (req.method === 'POST') return String((req.body as { prompt?: unknown } | undefined)?.prompt ?? '');
    const m = jobPath(req.path);
    return (m && jobOf(state, m[1])?.prompt) ?? '';
  },
  ok: (req, _answer, state, model) => submit(req, state, model, false),
  error(kind, retryAfter) {
    switch (kind) {
      case 'rate_limit':
        // Oxylabs documents 429 "Too many requests" but no Retry-After; sent so that the
        // adapter's honouring of one is covered should it come.
        return { status: 429, headers: { 'retry-after': String(retryAfter) }, body: oErr('Too many requests') };
      case 'server_error':
        return { status: 500, body: oErr('Internal server error') };
      case 'unavailable':
        // 524 "Timeout: Service unavailable" in Oxylabs' response codes.
        return { status: 524, body: oErr('Service unavailable') };
      case 'bad_request':
        return { status: 400, body: oErr('Unsupported source: chatgtp') };
      case 'unauthorized':
        return { status: 401, body: oErr('Client not found') };
    }
  },
  special(name, req, _answer, state, model) {
    return name === 'faulted' ? submit(req, state, model, true) : null;
  },
  extra(req, answer, state) {
    const m = req.method === 'GET' && state ? jobPath(req.path) : null;
    if (!m || !state) return null;
    if (basicUser(req) === null) return { status: 401, body: oErr('Authorization header not provided') };
    const job = jobOf(state, m[1]);
    if (!job) return { status: 404, body: oErr('Job not found') };
    if (m[2]) {
      if (status(job) !== 'done') return { status: 204 };
      return { status: 200, body: { results: [oxylabsResult(m[1], job.prompt, answer, job.model)] } };
    }
    job.polls++;
    saveJob(state, m[1], job);
    return { status: 200, body: oxylabsJob(m[1], job, state.origin) };
  },
};
