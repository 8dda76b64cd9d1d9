/** The five answer engines of the contract (spec: provider names seen in responses). */
export const CONTRACT_PROVIDERS = ['chatgpt', 'perplexity', 'google_ai_overview', 'gemini', 'claude'] as const;
/** Engines beyond the contract (extension provider names); a project tracks them when it asks to. */
export const EXTENSION_PROVIDERS = ['google_ai_mode', 'grok', 'copilot', 'chatgpt_ui'] as const;
/** Every engine Sightline can ask. */
export const PROVIDERS = [...CONTRACT_PROVIDERS, ...EXTENSION_PROVIDERS] as const;
export type ProviderName = (typeof PROVIDERS)[number];
/** What a project tracks when it names no engines: the five of the contract. */
export const DEFAULT_PROJECT_PROVIDERS: readonly ProviderName[] = CONTRACT_PROVIDERS;

/**
 * How an answer was obtained: `api` a model's API without search, `api_search` a model's API
 * with its web search tool (every API engine here), `serp` a search-result page read through
 * SerpApi (AI Overviews, AI Mode, Copilot), `ui` a consumer interface captured by a capture
 * service (chatgpt_ui: ChatGPT's web app through Oxylabs). API and consumer answers can differ
 * completely, so figures filter by it.
 */
export const SURFACES = ['api', 'api_search', 'serp', 'ui'] as const;
export type Surface = (typeof SURFACES)[number];

/**
 * Each engine's surface. An engine answers through one surface: a capture-service adapter of
 * a consumer interface is an engine of its own (its own provider name), so that every rollup
 * keyed by provider keeps each surface apart.
 */
export const PROVIDER_SURFACE: Record<ProviderName, Surface> = {
  chatgpt: 'api_search',
  perplexity: 'api_search',
  gemini: 'api_search',
  claude: 'api_search',
  grok: 'api_search',
  google_ai_overview: 'serp',
  google_ai_mode: 'serp',
  copilot: 'serp',
  chatgpt_ui: 'ui',
};

/** A citation as the spec's ReferenceItem: position of the citation in the answer. */
export interface Reference {
  title: string;
  link: string;
  snippet: string;
  reference_index: number;
}

/** The market an adapter sent with the question; null where the engine takes no such parameter. */
export interface SentMarket {
  /** ISO 3166-1 alpha-2 as sent (web search user location, SerpApi `gl`). */
  country: string | null;
  /** The answer language as sent (SerpApi `hl`). */
  language: string | null;
  /** The persona sent as the asker's context (the engine's instructions); absent or null when none was sent. */
  persona?: string | null;
}

/** What the vendor reported it used for the answer (absent fields: not reported). */
export interface ProviderUsage {
  input_tokens?: number;
  output_tokens?: number;
  /** Web searches run for the answer (tool calls; SerpApi: searches billed). */
  searches?: number;
  /** The vendor's own price of the call, in US dollars, where it states one (Perplexity). */
  cost_usd?: number;
}

/** One provider's answer, normalised; `raw` is the provider's own response body, stored as is. */
export interface ProviderAnswer {
  provider: ProviderName;
  model: string;
  text: string;
  references: Reference[];
  raw: unknown;
  simulated: boolean;
  /** The market sent to the engine (live adapters). */
  sent?: SentMarket;
  /** Tokens, searches, cost as the vendor reported them (live adapters). */
  usage?: ProviderUsage;
}

/** Brand facts the simulated provider uses to write realistic answers (real providers ignore it). */
export interface MarketContext {
  brand: { name: string; domain: string | null; aliases?: string[] };
  competitors: Array<{ name: string; domain: string | null }>;
}

export interface AskInput {
  prompt: string;
  /** UTC day the answer is collected for, YYYY-MM-DD (the simulated provider is deterministic per day). */
  day: string;
  /**
   * Which sample of the day this is (1 to the project's samples_per_run): the same question
   * asked again. Real engines answer afresh each time; the simulated one varies by it.
   */
  sample?: number;
  country?: string | null;
  language?: string | null;
  /**
   * The asker's context (a persona: "a procurement lead at a 200-person firm"), sent as the
   * engine's instructions where its API takes them (OpenAI and xAI `instructions`, Anthropic
   * `system`, Gemini `systemInstruction`, a Perplexity system message); the search-result
   * engines take none.
   */
  persona?: string | null;
  context?: MarketContext;
}

/** A persona as the instructions sent to an engine that takes them (AskInput.persona); null for none. */
export function personaInstructions(persona: string | null | undefined): string | null {
  const text = persona?.trim();
  return text ? `About the person asking: ${text}` : null;
}

export interface ProviderAdapter {
  readonly name: ProviderName;
  /** True when this adapter makes up answers instead of asking the real service. */
  readonly simulated: boolean;
  ask(input: AskInput, signal?: AbortSignal): Promise<ProviderAnswer>;
}

/**
 * A failed provider call. `retryable` for 429, 5xx, timeouts and network errors;
 * `retryAfterMs` when the provider said how long to wait.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly provider: ProviderName,
    readonly retryable: boolean,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
