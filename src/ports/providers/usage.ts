import type { ProviderUsage } from './types.js';

// The usage each vendor reports, read from its body (field names as in the recordings,
// test/fixtures/providers). Numbers only; anything else is left out.

/** The value at `path` in a JSON body (numbers index arrays), or undefined. */
export function at(body: unknown, ...path: Array<string | number>): unknown {
  let v: unknown = body;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function clean(u: ProviderUsage): ProviderUsage {
  return Object.fromEntries(Object.entries(u).filter(([, v]) => v !== undefined)) as ProviderUsage;
}

/** OpenAI and xAI Responses: usage.input_tokens / output_tokens; one web_search_call item per search. */
export function responsesUsage(body: unknown): ProviderUsage {
  const output = at(body, 'output');
  const calls = Array.isArray(output) ? output.filter((o) => at(o, 'type') === 'web_search_call').length : 0;
  return clean({
    input_tokens: num(at(body, 'usage', 'input_tokens')),
    output_tokens: num(at(body, 'usage', 'output_tokens')),
    searches: num(at(body, 'usage', 'num_server_side_tools_used')) ?? calls,
  });
}

/** Anthropic Messages, summed over a paused turn and its continuations. */
export function anthropicUsage(bodies: unknown[]): ProviderUsage {
  const sum = (...path: string[]) =>
    bodies.reduce<number | undefined>((t, b) => {
      const n = num(at(b, ...path));
      return n === undefined ? t : (t ?? 0) + n;
    }, undefined);
  return clean({
    input_tokens: sum('usage', 'input_tokens'),
    output_tokens: sum('usage', 'output_tokens'),
    searches: sum('usage', 'server_tool_use', 'web_search_requests'),
  });
}

/** Sonar: prompt / completion tokens and the price Perplexity puts on the call. */
export function perplexityUsage(body: unknown): ProviderUsage {
  return clean({
    input_tokens: num(at(body, 'usage', 'prompt_tokens')),
    output_tokens: num(at(body, 'usage', 'completion_tokens')),
    cost_usd: num(at(body, 'usage', 'cost', 'total_cost')),
  });
}

/** Gemini: usageMetadata (tool-use prompt tokens counted as input, thinking as output); one search per query. */
export function geminiUsage(body: unknown): ProviderUsage {
  const input = num(at(body, 'usageMetadata', 'promptTokenCount'));
  const tool = num(at(body, 'usageMetadata', 'toolUsePromptTokenCount')) ?? 0;
  const out = num(at(body, 'usageMetadata', 'candidatesTokenCount'));
  const thoughts = num(at(body, 'usageMetadata', 'thoughtsTokenCount')) ?? 0;
  const queries = at(body, 'candidates', 0, 'groundingMetadata', 'webSearchQueries');
  return clean({
    input_tokens: input === undefined ? undefined : input + tool,
    output_tokens: out === undefined ? undefined : out + thoughts,
    searches: Array.isArray(queries) ? queries.length : undefined,
  });
}
