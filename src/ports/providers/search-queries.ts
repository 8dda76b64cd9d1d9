import type { ProviderName } from './types.js';
import { searchQueries as oxylabsChatGptQueries } from './oxylabs-chatgpt.js';
import { at } from './usage.js';

// The web searches an engine ran for an answer ("query fan-out"), read from the body it
// returned (field names as in the recordings, test/fixtures/providers). Stored answers keep
// that body, so every answer ever collected yields its searches, not only new ones.

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((q): q is string => typeof q === 'string') : []);

/** OpenAI and xAI Responses: each `web_search_call` item's `action.query` (and `action.queries`, where sent). */
function responsesQueries(body: unknown): string[] {
  const output = at(body, 'output');
  if (!Array.isArray(output)) return [];
  return output
    .filter((item) => at(item, 'type') === 'web_search_call')
    .flatMap((item) => [...strings([at(item, 'action', 'query')]), ...strings(at(item, 'action', 'queries'))]);
}

/** Anthropic Messages (one body, or a paused turn's `{turns}`): each `web_search` server tool call's `input.query`. */
function anthropicQueries(body: unknown): string[] {
  const turns = at(body, 'turns');
  const bodies = Array.isArray(turns) ? turns : [body];
  return bodies.flatMap((b) => {
    const content = at(b, 'content');
    if (!Array.isArray(content)) return [];
    return content
      .filter((block) => at(block, 'type') === 'server_tool_use' && at(block, 'name') === 'web_search')
      .flatMap((block) => strings([at(block, 'input', 'query')]));
  });
}

/** Gemini: the grounding metadata's `webSearchQueries` of each candidate. */
function geminiQueries(body: unknown): string[] {
  const candidates = at(body, 'candidates');
  return Array.isArray(candidates) ? candidates.flatMap((c) => strings(at(c, 'groundingMetadata', 'webSearchQueries'))) : [];
}

/**
 * The engines whose API reports the searches it ran. Perplexity's Sonar returns the results
 * it found but not the queries; the SerpApi engines are themselves one search of the prompt.
 * chatgpt_ui: the searches Oxylabs read off ChatGPT's web app (`results[].content.search_queries`).
 */
const READERS: Partial<Record<ProviderName, (body: unknown) => string[]>> = {
  chatgpt: responsesQueries,
  grok: responsesQueries,
  claude: anthropicQueries,
  gemini: geminiQueries,
  chatgpt_ui: oxylabsChatGptQueries,
};

/** Each query once, in the order the engine ran them, trimmed; empty ones dropped. */
function unique(queries: string[]): string[] {
  const seen = new Set<string>();
  for (const q of queries) {
    const t = q.trim();
    if (t) seen.add(t);
  }
  return [...seen];
}

/**
 * The searches behind one stored answer. A simulated answer's body says which searches the
 * simulator made up (`search_queries`), for the engines whose API reports them.
 */
export function searchQueriesOf(provider: ProviderName, raw: unknown): string[] {
  if (at(raw, 'simulated') === true) return unique(strings(at(raw, 'search_queries')));
  const read = READERS[provider];
  return read ? unique(read(raw)) : [];
}

/** The engines whose API reports its searches (elsewhere `[]` means "not reported", not "none ran"). */
export const REPORTS_SEARCHES: ReadonlySet<ProviderName> = new Set(Object.keys(READERS) as ProviderName[]);
