import type { Env } from '../../config.js';
import { createBuiltinWriter } from './builtin.js';
import { createOpenAICompatibleWriter, llmSettings, type OpenAICompatibleOptions } from './openai-compatible.js';
import type { Writer } from './types.js';

export { builtinSuggestions, createBuiltinWriter } from './builtin.js';
export { countWords } from './builtin-forum.js';
export { WriterError } from './chat-client.js';
export { createOpenAICompatibleWriter, llmSettings, writerMeta, type FallbackEvent, type WriterMeta } from './openai-compatible.js';
export type * from './types.js';

type WriterEnv = Pick<Env, 'LLM_PROVIDER' | 'LLM_MODEL' | 'LLM_API_KEY' | 'LLM_BASE_URL' | 'OPENAI_API_KEY' | 'OPENAI_BASE_URL'>;

/**
 * The writer for this process: the model named by LLM_PROVIDER / LLM_MODEL behind an
 * OpenAI-compatible Chat Completions API, or the deterministic built-in writer when no
 * provider is set (docs/self-hosting.md). Incomplete model settings throw ConfigError.
 */
export function createWriter(
  config: { env: WriterEnv },
  options: Pick<OpenAICompatibleOptions, 'http' | 'onFallback'> = {},
): Writer {
  const settings = llmSettings(config.env);
  if (!settings) return createBuiltinWriter();
  return createOpenAICompatibleWriter({ ...settings, ...options });
}
