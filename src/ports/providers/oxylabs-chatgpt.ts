import { createCaller, type HttpSettings, type LiveProviderOptions } from './call.js';
import { withoutOpenAITracking } from './openai.js';
import { numberReferences, type SourceRef } from './references.js';
import { ProviderError, type AskInput, type ProviderAdapter, type ProviderAnswer } from './types.js';
import { abortableSleep, badBody, joinUrl } from './wire.js';

export const OXYLABS_DEFAULT_BASE_URL = 'https://data.oxylabs.io';
/** Recorded when a result names no model (Oxylabs reads ChatGPT's own, e.g. `gpt-4o`, into `llm_model`). */
export const CHATGPT_UI_MODEL = 'chatgpt-ui';

// Oxylabs Web Scraper API, source `chatgpt` (https://developers.oxylabs.io/api-targets/llms-and-ai/chatgpt,
// github.com/oxylabs/chatgpt-scraper): ChatGPT's consumer web app, driven by a browser. Only the
// fields read here; the recording is test/fixtures/providers/chatgpt_ui/.
interface OxylabsJob {
  id?: string;
  status?: string;
}
export interface OxylabsCitation {
  title?: string;
  url?: string;
  text?: string;
  description?: string;
  /** `more`: listed under "More" in ChatGPT's sources panel, not cited in the text. */
  section?: string;
}
interface OxylabsContent {
  prompt?: string;
  llm_model?: string;
  markdown_text?: string;
  response_text?: string;
  citations?: OxylabsCitation[];
  links?: Array<{ url?: string; text?: string }>;
  search_queries?: string[];
  parse_status_code?: number;
}
interface OxylabsResult {
  content?: OxylabsContent | string;
  status_code?: number;
}
/** What the adapter stores: the finished job and its results, as the Realtime endpoint returns them together. */
export interface OxylabsChatGptBody {
  job?: OxylabsJob;
  results?: OxylabsResult[];
}

/**
 * chatgpt_ui: ChatGPT's consumer interface (surface `ui`), captured by Oxylabs' Web Scraper
 * API (source `chatgpt`, web search on, parsed). LLM sources take Push-Pull only: the prompt is
 * submitted as a job (POST /v1/queries), the job is asked about until `done`
 * (GET /v1/queries/{id}), then its results are read (GET /v1/queries/{id}/results). Each of
 * these calls is retried on its own, so a lost poll does not submit (and pay for) the prompt
 * again. The key is the API user's `username:password` (HTTP Basic).
 */
export function createChatGptUiProvider(opts: LiveProviderOptions): ProviderAdapter {
  const caller = createCaller('chatgpt_ui', opts);
  const base = opts.baseUrl ?? OXYLABS_DEFAULT_BASE_URL;
  const auth = `Basic ${Buffer.from(opts.apiKey).toString('base64')}`;
  const { pollIntervalMs, maxJobMs } = caller.settings;
  const call = <T>(label: string, method: 'GET' | 'POST', path: string, signal?: AbortSignal, body?: unknown) =>
    caller.run(label, (sig) => oxylabsFetch<T>(caller.settings, method, joinUrl(base, path), auth, body, sig), signal);
  return {
    name: 'chatgpt_ui',
    simulated: false,
    async ask(input: AskInput, signal?: AbortSignal): Promise<ProviderAnswer> {
      const started = Date.now();
      const country = input.country ? input.country.toUpperCase() : null;
      const payload: Record<string, unknown> = { source: 'chatgpt', prompt: input.prompt, parse: true, search: true };
      // geo_location takes a country's English name ("United States"); the source has no language parameter.
      if (country) payload.geo_location = countryName(country);
      let job = await call<OxylabsJob>('POST /v1/queries (source=chatgpt)', 'POST', 'v1/queries', signal, payload);
      const id = job?.id;
      if (!id) throw badBody('chatgpt_ui', 'the submitted job has no id');
      while (job?.status !== 'done') {
        if (job?.status === 'faulted') throw new ProviderError(`chatgpt_ui: Oxylabs job ${id} faulted`, 'chatgpt_ui', true);
        if (Date.now() - started > maxJobMs) throw new ProviderError(`chatgpt_ui: Oxylabs job ${id} not done after ${maxJobMs} ms`, 'chatgpt_ui', true);
        try {
          await abortableSleep(pollIntervalMs, signal);
        } catch {
          throw new ProviderError('chatgpt_ui: call cancelled', 'chatgpt_ui', false);
        }
        job = await call<OxylabsJob>('GET /v1/queries/{id}', 'GET', `v1/queries/${encodeURIComponent(id)}`, signal);
      }
      const out = await call<OxylabsChatGptBody | undefined>('GET /v1/queries/{id}/results', 'GET', `v1/queries/${encodeURIComponent(id)}/results`, signal);
      const raw: OxylabsChatGptBody = { results: out?.results, job };
      const answer = parseChatGptUi(raw);
      const searches = searchQueries(raw).length;
      return { ...answer, sent: { country, language: null }, usage: searches ? { searches } : {} };
    },
  };
}

/** A failed Oxylabs call, shaped as the SDKs' errors are (status, headers, the body's message). */
class OxylabsStatusError extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    readonly error: unknown,
    text: string,
  ) {
    super(text.slice(0, 200));
  }
}

/** One call of the Web Scraper API; the timeout covers headers and body. A 204 (job not done) reads as undefined. */
async function oxylabsFetch<T>(s: HttpSettings, method: 'GET' | 'POST', url: string, auth: string, body: unknown, signal?: AbortSignal): Promise<T> {
  const timeout = AbortSignal.timeout(s.timeoutMs);
  const res = await s.fetch(url, {
    method,
    headers: { accept: 'application/json', authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    const b = parsed as { message?: unknown; errors?: { message?: unknown } } | undefined;
    const message = b?.message ?? b?.errors?.message;
    // Oxylabs' 401 says "Client not found" and the like: name what to check.
    const why = res.status === 401 ? `${typeof message === 'string' ? message : 'Unauthorized'} (check OXYLABS_CREDENTIALS, the API user's username:password)` : message;
    throw new OxylabsStatusError(res.status, res.headers, why, text);
  }
  if (res.status === 204) return undefined as T;
  if (parsed === undefined) throw badBody('chatgpt_ui', 'a body that is not JSON');
  return parsed as T;
}

/** ISO 3166-1 alpha-2 as Oxylabs' geo_location wants it (the English name); the code itself when unknown. */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' }).of(code) ?? code;
  } catch {
    return code;
  }
}

const contentOf = (body: OxylabsChatGptBody): OxylabsContent | undefined => {
  const results = Array.isArray(body?.results) ? body.results : [];
  const hit = results.find((r) => r && typeof r.content === 'object' && r.content !== null);
  return hit?.content as OxylabsContent | undefined;
};

/** The searches ChatGPT ran, as Oxylabs parsed them (`results[].content.search_queries`). */
export function searchQueries(body: unknown): string[] {
  const q = contentOf(body as OxylabsChatGptBody)?.search_queries;
  return Array.isArray(q) ? q.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * The parsed result as an answer: the markdown (trimmed: the app's first paragraph comes
 * indented), the model ChatGPT named, and the sources: those cited in the text first, then the
 * inline links, then the ones listed under "More"; ChatGPT's utm_source=chatgpt.com removed.
 */
export function parseChatGptUi(body: OxylabsChatGptBody): ProviderAnswer {
  if (!body || typeof body !== 'object') throw badBody('chatgpt_ui', 'not an object');
  const result = (Array.isArray(body.results) ? body.results : []).find((r) => r && typeof r.content === 'object' && r.content !== null);
  if (!result) throw badBody('chatgpt_ui', 'no parsed result (results[].content)');
  if (typeof result.status_code === 'number' && result.status_code !== 200) throw badBody('chatgpt_ui', `the capture answered ${result.status_code}`);
  const c = result.content as OxylabsContent;
  const text = (c.markdown_text ?? c.response_text ?? '').trim();
  if (!text) throw badBody('chatgpt_ui', `no answer text (parse_status_code ${c.parse_status_code ?? 'absent'})`);
  const cite = (x: OxylabsCitation): SourceRef => ({ link: withoutOpenAITracking(x.url ?? ''), title: x.title, snippet: x.description });
  const citations = Array.isArray(c.citations) ? c.citations : [];
  const sources: SourceRef[] = [
    ...citations.filter((x) => x?.section !== 'more').map(cite),
    ...(Array.isArray(c.links) ? c.links : []).map((l) => ({ link: withoutOpenAITracking(l?.url ?? ''), title: l?.text })),
    ...citations.filter((x) => x?.section === 'more').map(cite),
  ];
  const model = typeof c.llm_model === 'string' && c.llm_model.trim() ? c.llm_model.trim() : CHATGPT_UI_MODEL;
  return { provider: 'chatgpt_ui', model, text, references: numberReferences(sources), raw: body, simulated: false };
}
