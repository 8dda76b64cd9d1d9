import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { createWriter } from './index';

describe('createWriter', () => {
  it('returns the built-in writer when LLM_PROVIDER is unset', () => {
    const writer = createWriter(loadConfig({}));
    expect(writer.name).toBe('builtin');
    expect(writer.builtIn).toBe(true);
  });

  it('still returns the built-in writer when LLM_PROVIDER is set (the real adapter comes with issue 5)', async () => {
    const writer = createWriter(loadConfig({ LLM_PROVIDER: 'openai', LLM_MODEL: 'gpt-4o-mini' }));
    expect(writer.builtIn).toBe(true);
    const out = await writer.suggestTopicsAndPrompts({ brandName: 'Acme CRM', site: null, count: 3 });
    expect(out.prompts).toHaveLength(3);
  });
});
