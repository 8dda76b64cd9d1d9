import type { Env } from '../../config';
import { createBuiltinWriter } from './builtin';
import type { Writer } from './types';

export { builtinSuggestions, createBuiltinWriter } from './builtin';
export type { SiteInfo, SuggestInput, SuggestedPrompt, SuggestedTopic, Suggestions, Writer } from './types';

/**
 * The writer for this process: the model named by LLM_PROVIDER / LLM_MODEL, or the
 * deterministic built-in writer when none is set (DECISIONS section 1).
 */
export function createWriter(config: { env: Pick<Env, 'LLM_PROVIDER' | 'LLM_MODEL'> }): Writer {
  if (!config.env.LLM_PROVIDER) return createBuiltinWriter();
  // TODO(issue 5): return the OpenAI-compatible adapter for LLM_PROVIDER / LLM_MODEL here.
  // Until it lands, a configured provider still gets the built-in writer, which says so
  // in its metadata (name 'builtin', builtIn true).
  return createBuiltinWriter();
}
