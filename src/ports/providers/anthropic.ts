import { badBody, joinUrl, liveClient, type LiveProviderOptions } from './http.js';
import { numberReferences, type SourceRef } from './references.js';
import type { AskInput, ProviderAdapter, ProviderAnswer } from './types.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com/v1';
export const ANTHROPIC_DEFAULT_MODEL = 'claude-sonnet-4-5';
export const ANTHROPIC_VERSION = '2023-06-01';
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
  const client = liveClient('claude', opts);
  const base = opts.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL;
  const model = opts.model ?? ANTHROPIC_DEFAULT_MODEL;
  return {
    name: 'claude',
    simulated: false,
    async ask(input: AskInput, signal?: AbortSignal): Promise<ProviderAnswer> {
      const tool: Record<string, unknown> = { type: 'web_search_20250305', name: 'web_search', max_uses: 5 };
      if (input.country) tool.user_location = { type: 'approximate', country: input.country.toUpperCase() };
      const messages: Array<{ role: 'user' | 'assistant'; content: unknown }> = [{ role: 'user', content: input.prompt }];
      const bodies: MessagesBody[] = [];
      for (let turn = 0; ; turn++) {
        const body = await client.json<MessagesBody>(
          {
            method: 'POST',
            url: joinUrl(base, 'messages'),
            headers: { 'x-api-key': opts.apiKey, 'anthropic-version': ANTHROPIC_VERSION },
            body: { model, max_tokens: 2048, messages, tools: [tool] },
            label: 'POST /messages',
          },
          signal,
        );
        bodies.push(body);
        if (body?.stop_reason !== 'pause_turn' || turn >= MAX_CONTINUATIONS) break;
        messages.push({ role: 'assistant', content: body.content ?? [] });
      }
      return parseAnthropicResponse(bodies, model);
    },
  };
}

/** One or more bodies (a paused turn and its continuations) as one answer. */
export function parseAnthropicResponse(bodies: MessagesBody | MessagesBody[], fallbackModel: string): ProviderAnswer {
  const list = Array.isArray(bodies) ? bodies : [bodies];
  if (!list.length || list.some((b) => !b || !Array.isArray(b.content))) throw badBody('claude', 'no content array');
  const blocks = list.flatMap((b) => b.content!);
  // "I'll search for ..." before the first search is preamble, not the answer.
  const firstTool = blocks.findIndex((b) => b.type === 'server_tool_use');
  const answerBlocks = blocks.filter((b, i) => b.type === 'text' && (firstTool < 0 || i > firstTool));
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
