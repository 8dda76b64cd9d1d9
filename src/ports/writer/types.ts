import type { SiteInfo } from '../pages/extract.js';

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
export interface Writer extends ContentWriter {
  /** `builtin`, or the provider/model that wrote the text. Stored with what it writes. */
  readonly name: string;
  /** True for the deterministic built-in writer: its output is templated, not model-written. */
  readonly builtIn: boolean;
  suggestTopicsAndPrompts(input: SuggestInput): Promise<Suggestions>;
}

// ---------------------------------------------------------------------------------------
// Actions and content (issue 5). Every method is deterministic in the built-in writer.

export type ActionCategory = 'on_page_seo' | 'new_content' | 'content_update' | 'forum_engagement';
export type ExecutionType = 'prompt' | 'publishable_content' | 'forum_reply' | 'manual';

export interface BrandFacts {
  name: string;
  domain: string | null;
  aliases?: string[];
}

export interface ActionFields {
  title: string;
  description: string;
  targets: Array<{ type: 'url' | 'keyword' | 'page_type' | 'domain'; value: string }>;
  execution: { type: ExecutionType; prompt: string | null; skill: string | null; params: Record<string, unknown> | null };
  effort: 'quick-win' | 'moderate' | 'major' | null;
  expected_impact_min: number | null;
  expected_impact_max: number | null;
}

export interface EnrichActionInput {
  brand: BrandFacts;
  action_type: ActionCategory;
  title?: string;
  description?: string;
  target_url?: string;
  keywords?: string[];
  instructions?: string;
  /** Facts from the project's data the writer may ground the wording in. */
  facts?: Record<string, unknown>;
}

/** The wording of one recommendation the recommend task derived from the project's data. */
export interface RecommendationInput {
  brand: BrandFacts;
  category: ActionCategory;
  /** What the recommendation is about: prompt texts, competitor names, domains, URLs, figures. */
  facts: Record<string, unknown>;
}

export interface EditSuggestion {
  section: string;
  type: 'replace' | 'insert' | 'delete';
  before: string | null;
  after: string | null;
  signal: string;
  reason: string;
}

export interface SuggestEditsInput {
  brand: BrandFacts;
  page: { url: string; title: string | null; paragraphs: string[] };
  /** The project's tracking prompts (what buyers ask the engines). */
  prompts: string[];
  /** Competitors the engines name where the brand is missing. */
  competitors: string[];
  keywords?: string[];
}

export interface ForumCommentInput {
  brand: BrandFacts;
  thread: { url: string; title: string; text?: string | null };
  keywords?: string[];
  instructions?: string;
}

export interface ArticleBrief {
  brand: BrandFacts;
  title: string;
  description: string;
  keywords: string[];
  /** Reviewer's feedback when a step is regenerated. */
  feedback?: string | null;
}

export interface ContentWriter {
  enrichAction(input: EnrichActionInput): Promise<ActionFields>;
  wordRecommendation(input: RecommendationInput): Promise<{ title: string; description: string }>;
  suggestEdits(input: SuggestEditsInput): Promise<EditSuggestion[]>;
  forumComment(input: ForumCommentInput): Promise<{ comment: string }>;
  writeOutline(input: ArticleBrief): Promise<string>;
  writeDraft(input: ArticleBrief & { outline: string }): Promise<string>;
  writeFinal(input: ArticleBrief & { draft: string }): Promise<{ title: string; content: string }>;
}
