import type Perplexity from '@perplexity-ai/perplexity_ai';
import { createCaller, once, type LiveProviderOptions } from './call.js';
import { numberReferences, type SourceRef } from './references.js';
import { personaInstructions, type AskInput, type ProviderAdapter, type ProviderAnswer } from './types.js';
import { perplexityUsage } from './usage.js';
import { badBody, plainBody } from './wire.js';

export const PERPLEXITY_DEFAULT_BASE_URL = 'https://api.perplexity.ai';
export const PERPLEXITY_DEFAULT_MODEL = 'sonar';

// Sonar chat completions wire format (only the fields read here).
interface SonarBody {
  model?: string;
  choices?: Array<{ message?: { content?: string | null } }>;
  citations?: string[] | null;
  search_results?: Array<{ title?: string; url: string; date?: string | null; snippet?: string }> | null;
}

const MARKER = /\[(\d{1,3})\]/g;

/**
 * perplexity: Sonar chat completions. The text cites sources as [n] markers into
 * `citations` (and `search_results`, which adds titles and snippets).
 */
export function createPerplexityProvider(opts: LiveProviderOptions): ProviderAdapter {
  const caller = createCaller('perplexity', opts);
  const s = caller.settings;
  const client = once(
    async () =>
      new (await import('@perplexity-ai/perplexity_ai')).default({
        apiKey: opts.apiKey,
        baseURL: opts.baseUrl ?? PERPLEXITY_DEFAULT_BASE_URL,
        timeout: s.timeoutMs,
        maxRetries: 0,
        fetch: s.fetch,
      }),
  );
  const model = opts.model ?? PERPLEXITY_DEFAULT_MODEL;
  return {
    name: 'perplexity',
    simulated: false,
    async ask(input: AskInput, signal?: AbortSignal): Promise<ProviderAnswer> {
      const system = personaInstructions(input.persona);
      const messages: Perplexity.Chat.CompletionCreateParamsNonStreaming['messages'] = [{ role: 'user', content: input.prompt }];
      if (system) messages.unshift({ role: 'system', content: system });
      const body: Perplexity.Chat.CompletionCreateParamsNonStreaming = { model, messages };
      if (input.country) body.web_search_options = { user_location: { country: input.country.toUpperCase() } };
      const res = await caller.run('POST /chat/completions', async (sig) => (await client()).chat.completions.create(body, { signal: sig }), signal);
      const answer = parsePerplexityResponse(plainBody(res) as SonarBody, model);
      const country = body.web_search_options?.user_location?.country ?? null;
      return { ...answer, sent: { country, language: null, ...(system ? { persona: input.persona } : {}) }, usage: perplexityUsage(answer.raw) };
    },
  };
}

export function parsePerplexityResponse(body: SonarBody, fallbackModel: string): ProviderAnswer {
  const content = body?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw badBody('perplexity', 'no choices[0].message.content');
  // Reasoning models think aloud first; the answer is what follows.
  const text = content.replace(/^\s*<think>[\s\S]*?<\/think>\s*/, '');
  const results = body.search_results ?? [];
  const urls = body.citations?.length ? body.citations : results.map((r) => r.url);
  const sources: SourceRef[] = urls.map((url, i) => {
    const sr = results.find((r) => r.url === url) ?? (results[i]?.url === url ? results[i] : undefined);
    return { link: url, title: sr?.title, snippet: sr?.snippet };
  });

  // Sources in the order the text first cites them, then the ones it never marks.
  const order: number[] = [];
  for (const m of text.matchAll(MARKER)) {
    const n = Number(m[1]);
    if (n >= 1 && n <= sources.length && !order.includes(n - 1)) order.push(n - 1);
  }
  for (let i = 0; i < sources.length; i++) if (!order.includes(i)) order.push(i);
  const references = numberReferences(order.map((i) => sources[i]));

  // Renumber the markers so [k] in the text is reference_index k.
  const indexOfLink = new Map(references.map((r) => [r.link, r.reference_index]));
  const renumbered = text.replace(MARKER, (whole, d: string) => {
    const src = sources[Number(d) - 1];
    const k = src ? indexOfLink.get(src.link.trim()) : undefined;
    return k ? `[${k}]` : whole;
  });
  return { provider: 'perplexity', model: body.model || fallbackModel, text: renumbered, references, raw: body, simulated: false };
}
