import type OpenAI from 'openai';
import { createCaller, once, type LiveProviderOptions } from './call.js';
import { numberReferences, sentenceBefore, type SourceRef } from './references.js';
import { personaInstructions, type AskInput, type ProviderAdapter, type ProviderAnswer } from './types.js';
import { responsesUsage } from './usage.js';
import { badBody, plainBody } from './wire.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const OPENAI_DEFAULT_MODEL = 'gpt-4.1-mini';

// Responses API wire format (only the fields read here).
interface UrlCitation {
  type: 'url_citation';
  url: string;
  title?: string;
  /** xAI's Responses API leaves the positions (and the title) out. */
  start_index?: number;
  end_index?: number;
}
interface OutputText {
  type: 'output_text';
  text: string;
  annotations?: Array<UrlCitation | { type: string }>;
}
interface OutputItem {
  type: string;
  content?: Array<OutputText | { type: string }>;
}
export interface ResponsesBody {
  model?: string;
  status?: string;
  error?: { message?: string } | null;
  output?: OutputItem[];
}

/**
 * chatgpt: the Responses API with the hosted web_search tool. The answer is the message
 * items' output_text; citations are its url_citation annotations.
 */
export function createOpenAIProvider(opts: LiveProviderOptions): ProviderAdapter {
  const caller = createCaller('chatgpt', opts);
  const s = caller.settings;
  const client = once(
    async () =>
      new (await import('openai')).default({
        apiKey: opts.apiKey,
        baseURL: opts.baseUrl ?? OPENAI_DEFAULT_BASE_URL,
        timeout: s.timeoutMs,
        maxRetries: 0,
        fetch: s.fetch,
      }),
  );
  const model = opts.model ?? OPENAI_DEFAULT_MODEL;
  return {
    name: 'chatgpt',
    simulated: false,
    async ask(input: AskInput, signal?: AbortSignal): Promise<ProviderAnswer> {
      const tool: OpenAI.Responses.WebSearchTool = { type: 'web_search' };
      if (input.country) tool.user_location = { type: 'approximate', country: input.country.toUpperCase() };
      const instructions = personaInstructions(input.persona);
      const res = await caller.run(
        'POST /responses',
        async (sig) =>
          (await client()).responses.create({ model, input: input.prompt, tools: [tool], store: false, ...(instructions ? { instructions } : {}) }, { signal: sig }),
        signal,
      );
      // The SDK adds `output_text`; the stored body is the vendor's own.
      const answer = parseOpenAIResponse(plainBody(res, ['output_text']) as ResponsesBody, model);
      return { ...answer, sent: { country: tool.user_location?.country ?? null, language: null, ...(instructions ? { persona: input.persona } : {}) }, usage: responsesUsage(answer.raw) };
    },
  };
}

export function parseOpenAIResponse(body: ResponsesBody, fallbackModel: string): ProviderAnswer {
  return parseResponsesBody('chatgpt', body, fallbackModel);
}

/** A Responses API body (OpenAI's, or xAI's OpenAI-compatible one) as an answer. */
export function parseResponsesBody(provider: 'chatgpt' | 'grok', body: ResponsesBody, fallbackModel: string): ProviderAnswer {
  if (!body || !Array.isArray(body.output)) throw badBody(provider, 'no output array');
  if (body.status === 'failed') throw badBody(provider, body.error?.message ?? 'response failed');
  let text = '';
  const cited: Array<{ at: number; ref: SourceRef }> = [];
  for (const item of body.output) {
    if (item.type !== 'message' || !Array.isArray(item.content)) continue;
    for (const part of item.content) {
      if (part.type !== 'output_text') continue;
      const out = part as OutputText;
      if (text && !text.endsWith('\n')) text += '\n\n';
      const offset = text.length;
      text += out.text;
      for (const a of out.annotations ?? []) {
        if (a.type !== 'url_citation') continue;
        const c = a as UrlCitation;
        // Without a position the citation belongs to the whole part: after it, no claim of its own.
        const at = typeof c.start_index === 'number' ? offset + c.start_index : text.length;
        const snippet = typeof c.start_index === 'number' ? sentenceBefore(text, at) : '';
        cited.push({ at, ref: { link: withoutOpenAITracking(c.url), title: c.title, snippet } });
      }
    }
  }
  // Stable: citations at one position keep the order the body gives them.
  cited.sort((a, b) => a.at - b.at);
  return {
    provider,
    model: body.model || fallbackModel,
    text,
    references: numberReferences(cited.map((c) => c.ref)),
    raw: body,
    simulated: false,
  };
}

/** Values of `utm_source` ChatGPT search appends to cited URLs (openai, chatgpt.com in the recordings). */
const OPENAI_TRACKING = new Set(['openai', 'chatgpt.com']);

/** OpenAI appends `utm_source=openai` (or `chatgpt.com`) to cited URLs; the page cited is the URL without it. */
export function withoutOpenAITracking(url: string): string {
  if (!url.includes('utm_source=')) return url;
  try {
    const u = new URL(url);
    const source = u.searchParams.get('utm_source');
    if (!source || !OPENAI_TRACKING.has(source)) return url;
    u.searchParams.delete('utm_source');
    return u.toString().replace(/\?$/, '');
  } catch {
    return url;
  }
}
