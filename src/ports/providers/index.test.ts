import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { startFakeProvider, type FakeProvider } from '../../../test/fakes/index.js';
import { createProviders, providerModes, PROVIDERS, ProviderError, type ProviderName } from './index.js';

const ASK = { prompt: 'What is the best CRM for a small sales team?', day: '2025-08-27', country: 'US', language: 'en' };
const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: './data', ...env });

describe('createProviders (PROVIDERS_MODE)', () => {
  it('auto without keys: every provider simulated', () => {
    const providers = createProviders(config({}));
    expect(Object.keys(providers).sort()).toEqual([...PROVIDERS].sort());
    for (const p of PROVIDERS) {
      expect(providers[p].name).toBe(p);
      expect(providers[p].simulated).toBe(true);
    }
  });

  it('auto: live exactly where the key is set', () => {
    const modes = providerModes(config({ OPENAI_API_KEY: 'sk-x', SERPAPI_API_KEY: 'serp-x' }));
    expect(modes).toEqual({
      chatgpt: 'live',
      perplexity: 'simulated',
      gemini: 'simulated',
      claude: 'simulated',
      google_ai_overview: 'live',
      // The SerpApi engines share its key.
      google_ai_mode: 'live',
      copilot: 'live',
      grok: 'simulated',
      chatgpt_ui: 'simulated',
    });
    const providers = createProviders(config({ ANTHROPIC_API_KEY: 'sk-ant-x' }));
    expect(providers.claude.simulated).toBe(false);
    expect(providers.gemini.simulated).toBe(true);
  });

  it('simulated: simulated everywhere, keys or not', () => {
    const providers = createProviders(config({ PROVIDERS_MODE: 'simulated', OPENAI_API_KEY: 'sk-x', GEMINI_API_KEY: 'g-x' }));
    for (const p of PROVIDERS) expect(providers[p].simulated).toBe(true);
  });

  it('live without a key: the call fails at once, not retryable, naming the variable', async () => {
    const providers = createProviders(config({ PROVIDERS_MODE: 'live' }));
    const variables: Record<ProviderName, string> = {
      chatgpt: 'OPENAI_API_KEY',
      perplexity: 'PERPLEXITY_API_KEY',
      gemini: 'GEMINI_API_KEY',
      claude: 'ANTHROPIC_API_KEY',
      google_ai_overview: 'SERPAPI_API_KEY',
      google_ai_mode: 'SERPAPI_API_KEY',
      grok: 'XAI_API_KEY',
      copilot: 'SERPAPI_API_KEY',
      chatgpt_ui: 'OXYLABS_CREDENTIALS',
    };
    for (const p of PROVIDERS) {
      expect(providers[p].simulated).toBe(false);
      const e = await providers[p].ask(ASK).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ProviderError);
      expect((e as ProviderError).retryable).toBe(false);
      expect((e as ProviderError).message).toContain(variables[p]);
    }
  });

  describe('live with every key and base URL pointing at the fakes', () => {
    // ASK is country US, language en: web search user location, or SerpApi gl/hl; none where the engine has no such parameter.
    const SENT: Record<ProviderName, { country: string | null; language: string | null }> = {
      chatgpt: { country: 'US', language: null },
      perplexity: { country: 'US', language: null },
      claude: { country: 'US', language: null },
      gemini: { country: null, language: null },
      grok: { country: null, language: null },
      copilot: { country: null, language: null },
      google_ai_overview: { country: 'us', language: 'en' },
      google_ai_mode: { country: 'us', language: 'en' },
      // Oxylabs takes the country (as its English name, geo_location) and no language.
      chatgpt_ui: { country: 'US', language: null },
    };
    const fakes = {} as Record<ProviderName, FakeProvider>;
    beforeAll(async () => {
      for (const p of PROVIDERS) fakes[p] = await startFakeProvider(p);
    });
    afterAll(async () => {
      await Promise.all(PROVIDERS.map((p) => fakes[p].close()));
    });

    it('asks each real service through its configured base URL', async () => {
      const env = Object.assign({ PROVIDERS_MODE: 'live' }, ...PROVIDERS.map((p) => fakes[p].env));
      const providers = createProviders(config(env), { http: { timeoutMs: 2_000, pollIntervalMs: 10 } });
      for (const p of PROVIDERS) {
        const a = await providers[p].ask(ASK);
        expect(a.provider).toBe(p);
        expect(a.simulated).toBe(false);
        expect(a.text).toContain('HubSpot offers a free CRM');
        expect(a.references.length).toBeGreaterThanOrEqual(4);
        expect(fakes[p].apiRequests()).toHaveLength(1);
        // The market went to every engine that takes one, and the answer says what was sent.
        expect(a.sent).toEqual(SENT[p]);
        expect(a.usage && Object.keys(a.usage).length).toBeGreaterThan(0);
      }
    });
  });
});
