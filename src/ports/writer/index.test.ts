import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { createWriter } from './index.js';

describe('createWriter', () => {
  it('returns the built-in writer when LLM_PROVIDER is unset', () => {
    const writer = createWriter(loadConfig({}));
    expect(writer.name).toBe('builtin');
    expect(writer.builtIn).toBe(true);
  });

  it('returns the OpenAI-compatible writer when LLM_PROVIDER is set', () => {
    const writer = createWriter(loadConfig({ LLM_PROVIDER: 'openai', LLM_MODEL: 'gpt-4o-mini', OPENAI_API_KEY: 'sk-test' }));
    expect(writer.name).toBe('openai:gpt-4o-mini');
    expect(writer.builtIn).toBe(false);
  });
});
