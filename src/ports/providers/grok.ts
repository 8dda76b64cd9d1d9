import { createCaller, once, type LiveProviderOptions } from './call.js';
import { parseResponsesBody, type ResponsesBody } from './openai.js';
import { personaInstructions, type AskInput, type ProviderAdapter, type ProviderAnswer } from './types.js';
import { responsesUsage } from './usage.js';
import { plainBody } from './wire.js';

export const XAI_DEFAULT_BASE_URL = 'https://api.x.ai/v1';
export const GROK_DEFAULT_MODEL = 'grok-4-fast-reasoning';

/**
 * grok: xAI's OpenAI-compatible Responses API (`POST /v1/responses`) with its server-side
 * `web_search` tool, through the openai SDK pointed at XAI_BASE_URL. Citations come back as
 * url_citation annotations, without positions or titles. (xAI's older Live Search,
 * `search_parameters` on chat completions, is deprecated.) The tool takes no user location,
 * so a prompt's country is not sent.
 */
export function createGrokProvider(opts: LiveProviderOptions): ProviderAdapter {
  const caller = createCaller('grok', opts);
  const s = caller.settings;
  const client = once(
    async () =>
      new (await import('openai')).default({
        apiKey: opts.apiKey,
        baseURL: opts.baseUrl ?? XAI_DEFAULT_BASE_URL,
        timeout: s.timeoutMs,
        maxRetries: 0,
        fetch: s.fetch,
        organization: null,
        project: null,
      }),
  );
  const model = opts.model ?? GROK_DEFAULT_MODEL;
  return {
    name: 'grok',
    simulated: false,
    async ask(input: AskInput, signal?: AbortSignal): Promise<ProviderAnswer> {
      const instructions = personaInstructions(input.persona);
      const res = await caller.run(
        'POST /responses',
        async (sig) =>
          (await client()).responses.create(
            { model, input: input.prompt, tools: [{ type: 'web_search' }], store: false, ...(instructions ? { instructions } : {}) },
            { signal: sig },
          ),
        signal,
      );
      const answer = parseGrokResponse(plainBody(res, ['output_text']) as ResponsesBody, model);
      return { ...answer, sent: { country: null, language: null, ...(instructions ? { persona: input.persona } : {}) }, usage: responsesUsage(answer.raw) };
    },
  };
}

export function parseGrokResponse(body: ResponsesBody, fallbackModel: string): ProviderAnswer {
  return parseResponsesBody('grok', body, fallbackModel);
}
