import type { SiteInfo } from '../pages/extract';

export type { SiteInfo };

export interface SuggestInput {
  brandName: string;
  /** What the brand's home page says about it; null when the site could not be read. */
  site: SiteInfo | null;
  language?: string | null;
  /** A country code ("US") or a place name ("Portland"). */
  location?: string | null;
  /** How many prompts to write, exactly. */
  count: number;
  /** Known competitor names; enables "A vs B" prompts. Optional extension of the port. */
  competitors?: string[] | null;
}

export interface SuggestedTopic {
  name: string;
  description: string;
}

export interface SuggestedPrompt {
  /** The name of one of the returned topics. */
  topic: string;
  content: string;
}

export interface Suggestions {
  topics: SuggestedTopic[];
  prompts: SuggestedPrompt[];
}

/**
 * The model that writes text for Sightline (tracking prompts now; actions, edits and
 * drafts later). Adapters: the deterministic built-in writer, and a model behind an
 * OpenAI-compatible API when LLM_PROVIDER is set.
 */
export interface Writer {
  /** `builtin`, or the provider/model that wrote the text. Stored with what it writes. */
  readonly name: string;
  /** True for the deterministic built-in writer: its output is templated, not model-written. */
  readonly builtIn: boolean;
  suggestTopicsAndPrompts(input: SuggestInput): Promise<Suggestions>;
}
