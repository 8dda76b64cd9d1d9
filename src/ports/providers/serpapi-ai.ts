import { createCaller, type LiveProviderOptions } from './call.js';
import { renderAnswer, SERPAPI_DEFAULT_BASE_URL, serpGet, type SerpReference, type TextBlock } from './serpapi.js';
import type { AskInput, ProviderAdapter, ProviderAnswer } from './types.js';
import { badBody } from './wire.js';

/** SerpApi names no model; these are what Sightline records. */
export const AI_MODE_MODEL = 'google-ai-mode';
export const COPILOT_MODEL = 'bing-copilot';

// SerpApi's google_ai_mode and bing_copilot engines answer with top-level text_blocks and
// references (https://serpapi.com/google-ai-mode-api, https://serpapi.com/bing-copilot-api).
interface SerpAiBody {
  search_metadata?: { status?: string };
  header?: string;
  text_blocks?: TextBlock[];
  references?: SerpReference[];
  error?: string;
}

const NO_RESULTS = /hasn't returned any results/i;

/**
 * google_ai_mode: SerpApi's Google AI Mode engine (`engine=google_ai_mode`), which takes the
 * market as `gl` (country) and `hl` (language).
 */
export function createAiModeProvider(opts: LiveProviderOptions): ProviderAdapter {
  const caller = createCaller('google_ai_mode', opts);
  const base = opts.baseUrl ?? SERPAPI_DEFAULT_BASE_URL;
  return {
    name: 'google_ai_mode',
    simulated: false,
    async ask(input: AskInput, signal?: AbortSignal): Promise<ProviderAnswer> {
      const params: Record<string, string> = { engine: 'google_ai_mode', q: input.prompt, api_key: opts.apiKey };
      if (input.country) params.gl = input.country.toLowerCase();
      if (input.language) params.hl = input.language.toLowerCase();
      const body = await caller.run('GET /search (engine=google_ai_mode)', (sig) => serpGet<SerpAiBody>(caller.settings, base, params, sig), signal);
      return { ...parseSerpAi('google_ai_mode', body), sent: { country: params.gl ?? null, language: params.hl ?? null }, usage: { searches: 1 } };
    },
  };
}

/**
 * copilot: SerpApi's Bing Copilot engine (`engine=bing_copilot`). It takes no country or
 * language parameter (SerpApi: the language may only be asked for inside the query), so
 * none is sent.
 */
export function createCopilotProvider(opts: LiveProviderOptions): ProviderAdapter {
  const caller = createCaller('copilot', opts);
  const base = opts.baseUrl ?? SERPAPI_DEFAULT_BASE_URL;
  return {
    name: 'copilot',
    simulated: false,
    async ask(input: AskInput, signal?: AbortSignal): Promise<ProviderAnswer> {
      const params = { engine: 'bing_copilot', q: input.prompt, api_key: opts.apiKey };
      const body = await caller.run('GET /search (engine=bing_copilot)', (sig) => serpGet<SerpAiBody>(caller.settings, base, params, sig), signal);
      return { ...parseSerpAi('copilot', body), sent: { country: null, language: null }, usage: { searches: 1 } };
    },
  };
}

/** An AI Mode or Copilot body as markdown (Copilot's header as the title), references by first use. */
export function parseSerpAi(provider: 'google_ai_mode' | 'copilot', body: SerpAiBody): ProviderAnswer {
  if (!body || typeof body !== 'object') throw badBody(provider, 'not an object');
  if (body.error && !NO_RESULTS.test(body.error)) throw badBody(provider, body.error);
  const { text, references } = renderAnswer(body.text_blocks, body.references);
  const full = body.header && text ? `## ${body.header}\n\n${text}` : text;
  return { provider, model: provider === 'copilot' ? COPILOT_MODEL : AI_MODE_MODEL, text: full, references, raw: body, simulated: false };
}
