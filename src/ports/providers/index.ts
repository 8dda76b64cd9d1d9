import type { Config } from '../../config.js';
import { createAnthropicProvider } from './anthropic.js';
import { createGeminiProvider } from './gemini.js';
import type { HttpSettings, LiveProviderOptions } from './call.js';
import { createOpenAIProvider } from './openai.js';
import { createPerplexityProvider } from './perplexity.js';
import { createSerpApiProvider } from './serpapi.js';
import { createAiModeProvider, createCopilotProvider } from './serpapi-ai.js';
import { createGrokProvider } from './grok.js';
import { createChatGptUiProvider } from './oxylabs-chatgpt.js';
import { createSimulatedProvider } from './simulated.js';
import { PROVIDERS, ProviderError, type ProviderAdapter, type ProviderName } from './types.js';

export * from './types.js';
export { createSimulatedProvider, simulateAnswer, SIMULATED_MODEL } from './simulated.js';
export { DEFAULT_HTTP_SETTINGS, type HttpSettings, type LiveProviderOptions } from './call.js';
export {
  createOpenAIProvider,
  createPerplexityProvider,
  createGeminiProvider,
  createAnthropicProvider,
  createSerpApiProvider,
  createAiModeProvider,
  createCopilotProvider,
  createGrokProvider,
  createChatGptUiProvider,
};

/**
 * The environment variables of each provider (docs/self-hosting.md). The SerpApi engines share
 * SERPAPI_API_KEY; each has its own base URL, falling back to SERPAPI_BASE_URL. chatgpt_ui's
 * key is an Oxylabs Web Scraper API user as `username:password`.
 */
export const PROVIDER_ENV = {
  chatgpt: { key: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL' },
  perplexity: { key: 'PERPLEXITY_API_KEY', baseUrl: 'PERPLEXITY_BASE_URL' },
  gemini: { key: 'GEMINI_API_KEY', baseUrl: 'GEMINI_BASE_URL' },
  claude: { key: 'ANTHROPIC_API_KEY', baseUrl: 'ANTHROPIC_BASE_URL' },
  google_ai_overview: { key: 'SERPAPI_API_KEY', baseUrl: 'SERPAPI_BASE_URL' },
  google_ai_mode: { key: 'SERPAPI_API_KEY', baseUrl: 'GOOGLE_AI_MODE_BASE_URL', fallbackBaseUrl: 'SERPAPI_BASE_URL' },
  grok: { key: 'XAI_API_KEY', baseUrl: 'XAI_BASE_URL' },
  copilot: { key: 'SERPAPI_API_KEY', baseUrl: 'COPILOT_BASE_URL', fallbackBaseUrl: 'SERPAPI_BASE_URL' },
  chatgpt_ui: { key: 'OXYLABS_CREDENTIALS', baseUrl: 'OXYLABS_BASE_URL' },
} as const satisfies Record<ProviderName, { key: keyof Config['env']; baseUrl: keyof Config['env']; fallbackBaseUrl?: keyof Config['env'] }>;

const LIVE: Record<ProviderName, (opts: LiveProviderOptions) => ProviderAdapter> = {
  chatgpt: createOpenAIProvider,
  perplexity: createPerplexityProvider,
  gemini: createGeminiProvider,
  claude: createAnthropicProvider,
  google_ai_overview: createSerpApiProvider,
  google_ai_mode: createAiModeProvider,
  grok: createGrokProvider,
  copilot: createCopilotProvider,
  chatgpt_ui: createChatGptUiProvider,
};

export interface ProvidersOptions {
  /** Timeouts, retries and backoff for every live adapter. */
  http?: Partial<HttpSettings>;
  /** Calls in flight at once, per provider (default http.concurrency, 4). */
  concurrency?: Partial<Record<ProviderName, number>>;
  /** Model per provider instead of the defaults (gpt-4.1-mini, sonar, gemini-2.5-flash, claude-sonnet-4-6). */
  models?: Partial<Record<ProviderName, string>>;
}

type ProvidersConfig = Pick<Config, 'providersMode' | 'env'>;

/** Which providers answer for real under this configuration. */
export function providerModes(config: ProvidersConfig): Record<ProviderName, 'live' | 'simulated'> {
  const modes = {} as Record<ProviderName, 'live' | 'simulated'>;
  for (const name of PROVIDERS) {
    const hasKey = Boolean(config.env[PROVIDER_ENV[name].key]);
    modes[name] = config.providersMode === 'live' || (config.providersMode === 'auto' && hasKey) ? 'live' : 'simulated';
  }
  return modes;
}

/**
 * One adapter per provider, chosen by PROVIDERS_MODE: `auto` is live where the key is set
 * and simulated elsewhere, `simulated` is simulated everywhere, `live` is live everywhere
 * (a provider without its key then fails each call, not retryable, naming the variable).
 */
export function createProviders(config: ProvidersConfig, options: ProvidersOptions = {}): Record<ProviderName, ProviderAdapter> {
  const modes = providerModes(config);
  const out = {} as Record<ProviderName, ProviderAdapter>;
  for (const name of PROVIDERS) {
    if (modes[name] === 'simulated') {
      out[name] = createSimulatedProvider(name);
      continue;
    }
    const env = PROVIDER_ENV[name];
    const apiKey = config.env[env.key];
    if (!apiKey) {
      out[name] = missingKeyProvider(name, env.key);
      continue;
    }
    const http = { ...options.http, ...(options.concurrency?.[name] ? { concurrency: options.concurrency[name] } : {}) };
    const fallback = 'fallbackBaseUrl' in env ? config.env[env.fallbackBaseUrl] : undefined;
    out[name] = LIVE[name]({
      apiKey,
      baseUrl: config.env[env.baseUrl] ?? fallback,
      model: options.models?.[name],
      http,
    });
  }
  return out;
}

function missingKeyProvider(name: ProviderName, variable: string): ProviderAdapter {
  return {
    name,
    simulated: false,
    ask: async () => {
      throw new ProviderError(`${name}: PROVIDERS_MODE is live but ${variable} is not set`, name, false);
    },
  };
}
