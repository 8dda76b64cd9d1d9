import type Anthropic from '@anthropic-ai/sdk';
import { createCaller, once, type LiveProviderOptions } from './call.js';
import { numberReferences, type SourceRef } from './references.js';
import { personaInstructions, type AskInput, type ProviderAdapter, type ProviderAnswer } from './types.js';
import { anthropicUsage } from './usage.js';
import { badBody, plainBody } from './wire.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com/v1';
/** claude-sonnet-4-5 reaches end of life on 2026-11-30 (the SDK warns on every call with it). */
export const ANTHROPIC_DEFAULT_MODEL = 'claude-sonnet-4-6';
/** A long search run may stop with `pause_turn`; it is sent back to continue, this many times at most. */
const MAX_CONTINUATIONS = 2;

// Messages API wire format (only the fields read here).
interface Citation {
  type: string;
  url?: string;
  title?: string | null;
  cited_text?: string;
}
interface ContentBlock {
  type: string;
  text?: string;
  citations?: Citation[] | null;
}
interface MessagesBody {
  model?: string;
  content?: ContentBlock[];
  stop_reason?: string | null;
}

/** claude: the Messages API with the web_search server tool; citations sit on text blocks. */
export function createAnthropicProvider(opts: LiveProviderOptions): ProviderAdapter {
  const caller = createCaller('claude', opts);
  const s = caller.settings;
  // The SDK's base URL is the host root; Sightline's ANTHROPIC_BASE_URL names the /v1 root.
  const client = once(
    async () =>
      new (await import('@anthropic-ai/sdk')).default({
        apiKey: opts.apiKey,
        authToken: null,
        baseURL: (opts.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, '').replace(/\/v1$/, ''),
        timeout: s.timeoutMs,
        maxRetries: 0,
        fetch: s.fetch,
      }),
  );
  const model = opts.model ?? ANTHROPIC_DEFAULT_MODEL;
  return {
    name: 'claude',
    simulated: false,
    async ask(input: AskInput, signal?: AbortSignal): Promise<ProviderAnswer> {
      const tool: Anthropic.WebSearchTool20250305 = { type: 'web_search_20250305', name: 'web_search', max_uses: 5 };
      if (input.country) tool.user_location = { type: 'approximate', country: input.country.toUpperCase() };
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: input.prompt }];
      const bodies: MessagesBody[] = [];
      const system = personaInstructions(input.persona);
      for (let turn = 0; ; turn++) {
        const res = await caller.run(
          'POST /messages',
          async (sig) => (await client()).messages.create({ model, max_tokens: 2048, messages: [...messages], tools: [tool], ...(system ? { system } : {}) }, { signal: sig }),
          signal,
        );
        const body = plainBody(res) as MessagesBody;
        bodies.push(body);
        if (body?.stop_reason !== 'pause_turn' || turn >= MAX_CONTINUATIONS) break;
        messages.push({ role: 'assistant', content: res.content });
      }
      const answer = parseAnthropicResponse(bodies, model);
      return { ...answer, sent: { country: tool.user_location?.country ?? null, language: null, ...(system ? { persona: input.persona } : {}) }, usage: anthropicUsage(bodies) };
    },
  };
}

/** One or more bodies (a paused turn and its continuations) as one answer. */
export function parseAnthropicResponse(bodies: MessagesBody | MessagesBody[], fallbackModel: string): ProviderAnswer {
  const list = Array.isArray(bodies) ? bodies : [bodies];
  if (!list.length || list.some((b) => !b || !Array.isArray(b.content))) throw badBody('claude', 'no content array');
  const blocks = list.flatMap((b) => b.content!);
  // "I'll search for ..." before a search and "Let me search for more ..." between searches
  // narrate the search: the answer is the text after the last search, and any text before it
  // that cites a result (an answer written between two searches).
  const lastSearch = blocks.findLastIndex((b) => b.type === 'server_tool_use' || b.type === 'web_search_tool_result');
  const answerBlocks = blocks.filter((b, i) => b.type === 'text' && (i > lastSearch || Boolean(b.citations?.length)));
  let text = '';
  const sources: SourceRef[] = [];
  for (const b of answerBlocks) {
    text += b.text ?? '';
    for (const c of b.citations ?? []) {
      if (c.type === 'web_search_result_location' && c.url) sources.push({ link: c.url, title: c.title, snippet: c.cited_text });
    }
  }
  const last = list[list.length - 1];
  return {
    provider: 'claude',
    model: last.model || fallbackModel,
    text: text.trim(),
    references: numberReferences(sources),
    raw: list.length === 1 ? last : { turns: list },
    simulated: false,
  };
}
