import type { ActionCategory, ActionFields, EnrichActionInput, ExecutionType, RecommendationInput } from './types.js';

// The built-in writer's wording of actions: templated, deterministic, and grounded only in
// what the caller passed (titles, URLs, keywords, facts). It never invents a figure.

export const EXECUTION_BY_CATEGORY: Record<ActionCategory, ExecutionType> = {
  new_content: 'publishable_content',
  content_update: 'prompt',
  forum_engagement: 'forum_reply',
  on_page_seo: 'manual',
};

const SKILL_BY_CATEGORY: Record<ActionCategory, string | null> = {
  new_content: 'article_writer',
  content_update: 'content_editor',
  forum_engagement: 'forum_reply',
  on_page_seo: null,
};

const EFFORT_BY_CATEGORY: Record<ActionCategory, ActionFields['effort']> = {
  new_content: 'major',
  content_update: 'moderate',
  forum_engagement: 'quick-win',
  on_page_seo: 'quick-win',
};

/** Expected gain in visibility, percentage points: a rough prior per kind of work, not a forecast. */
const IMPACT_BY_CATEGORY: Record<ActionCategory, [number, number]> = {
  new_content: [3, 8],
  content_update: [2, 5],
  forum_engagement: [1, 3],
  on_page_seo: [1, 2],
};

// ---- reading facts (free-form records from the recommend task) ----

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const strs = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(str).filter((s): s is string => s !== null) : str(v) ? [str(v)!] : [];

/** Every string under any of `keys`, singular or plural, deduplicated in order. */
export function factList(facts: Record<string, unknown> | undefined, ...keys: string[]): string[] {
  const out: string[] = [];
  for (const key of keys) for (const s of strs(facts?.[key])) if (!out.includes(s)) out.push(s);
  return out;
}

/** Numeric facts as "label: value" phrases, in key order (figures the caller measured). */
export function factFigures(facts: Record<string, unknown> | undefined): string[] {
  if (!facts) return [];
  return Object.entries(facts)
    .filter(([, v]) => typeof v === 'number' && Number.isFinite(v))
    .map(([k, v]) => `${k.replace(/[_-]+/g, ' ')}: ${Math.round((v as number) * 100) / 100}`);
}

export const quoteList = (items: string[], max = 3): string => plainList(items.map((s) => `"${s}"`), max);

export const plainList = (items: string[], max = 4): string => {
  const shown = items.slice(0, max);
  if (items.length > max) return `${shown.join(', ')} and ${items.length - max} more`;
  return shown.length <= 1 ? shown.join('') : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
};

/** A short name for a page: its path when it has one, else its host. */
export function pageLabel(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname && u.pathname !== '/' ? `${u.hostname.replace(/^www\./, '')}${u.pathname.replace(/\/$/, '')}` : u.hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

// ---- wordRecommendation ----

interface Subject {
  prompts: string[];
  competitors: string[];
  domains: string[];
  urls: string[];
  keywords: string[];
}

function subjectOf(facts: Record<string, unknown> | undefined): Subject {
  return {
    prompts: factList(facts, 'prompt', 'prompts', 'prompt_texts', 'questions'),
    competitors: factList(facts, 'competitor', 'competitors', 'competitor_names'),
    domains: factList(facts, 'domain', 'domains', 'source_domains'),
    urls: factList(facts, 'url', 'urls', 'target_url', 'page_url'),
    keywords: factList(facts, 'keyword', 'keywords', 'topic', 'topics'),
  };
}

/** A domain of the subject that is not the brand's own site (a third-party source). */
const outsideDomain = (s: Subject, ownDomain: string | null | undefined) => s.domains.find((d) => d !== ownDomain) ?? null;

function titleFor(category: ActionCategory, brand: string, s: Subject, ownDomain?: string | null): string {
  const prompt = s.prompts[0];
  const url = s.urls[0];
  switch (category) {
    case 'new_content':
      if (prompt) return `Publish an article that answers "${prompt}"`;
      if (s.keywords[0]) return `Publish an article about ${s.keywords[0]}`;
      if (s.competitors.length) return `Publish a comparison of ${brand} with ${plainList(s.competitors, 2)}`;
      return `Publish an article that positions ${brand} in its market`;
    case 'content_update':
      if (url && prompt) return `Update ${pageLabel(url)} to answer "${prompt}"`;
      if (url) return `Update ${pageLabel(url)} so answer engines cite it`;
      return prompt ? `Update an existing page to answer "${prompt}"` : `Update ${brand}'s key pages so answer engines cite them`;
    case 'forum_engagement':
      if (url) return `Reply to the discussion at ${pageLabel(url)}`;
      if (s.domains[0]) return `Join the discussions on ${s.domains[0]}`;
      return `Join forum discussions where ${brand}'s market is discussed`;
    case 'on_page_seo': {
      if (url) return `Fix on-page SEO of ${pageLabel(url)}`;
      const outside = outsideDomain(s, ownDomain);
      if (outside) return `Get ${brand} cited on ${outside}`;
      return `Improve on-page SEO of ${brand}'s site`;
    }
  }
}

function descriptionFor(category: ActionCategory, brand: string, s: Subject, figures: string[], ownDomain?: string | null): string {
  const parts: string[] = [];
  const these = s.prompts.length ? 'these questions' : s.keywords.length ? `buyers' questions about ${plainList(s.keywords)}` : `buyers' questions about ${brand}'s market`;
  if (s.prompts.length) parts.push(`Answer engines answer ${quoteList(s.prompts)} without naming ${brand}.`);
  if (s.competitors.length) parts.push(`They name ${plainList(s.competitors)} instead.`);
  if (s.domains.length && category !== 'forum_engagement') parts.push(`Their answers cite ${plainList(s.domains)}.`);
  if (figures.length) parts.push(`Figures: ${figures.join('; ')}.`);
  switch (category) {
    case 'new_content':
      parts.push(`Write a page that answers ${these} directly, with sources, figures from ${brand}'s own data and quotations from customers or experts, so engines can cite it.`);
      break;
    case 'content_update':
      parts.push(`Edit ${s.urls[0] ?? "the page"} so it answers ${these} in plain words, cites its sources, adds figures and quotations, and compares ${brand} fairly with the alternatives.`);
      break;
    case 'forum_engagement':
      parts.push(`${s.urls[0] ? `The thread ${s.urls[0]}` : `Threads on ${plainList(s.domains) || 'these forums'}`} ${s.urls[0] ? 'is' : 'are'} cited in AI answers. Post a helpful reply that discloses your affiliation with ${brand}.`);
      break;
    case 'on_page_seo': {
      const outside = s.urls[0] ? null : outsideDomain(s, ownDomain);
      if (outside) {
        parts.push(`${outside} is a source answer engines rely on for ${brand}'s market. Get ${brand} listed, reviewed or quoted there (profiles, comparisons, expert contributions with your own data) so the answers that cite it can name ${brand}.`);
      } else {
        parts.push(`Check titles, headings, meta descriptions, structured data and internal links${s.urls[0] ? ` of ${s.urls[0]}` : ''} so crawlers of answer engines read the page correctly.`);
      }
      break;
    }
  }
  return parts.join(' ');
}

export function builtinWordRecommendation(input: RecommendationInput): { title: string; description: string } {
  const s = subjectOf(input.facts);
  const given = { title: str(input.facts?.title), description: str(input.facts?.description) };
  return {
    title: given.title ?? titleFor(input.category, input.brand.name, s, input.brand.domain),
    description: given.description ?? descriptionFor(input.category, input.brand.name, s, factFigures(input.facts), input.brand.domain),
  };
}

// ---- enrichAction ----

function executionPrompt(category: ActionCategory, brand: string, s: Subject, instructions: string | null): string | null {
  const topic = s.prompts[0] ? `the question "${s.prompts[0]}"` : s.keywords.length ? `questions about ${plainList(s.keywords)}` : `questions about ${brand}'s market`;
  const extra = instructions ? ` Follow these instructions: ${instructions}` : '';
  switch (category) {
    case 'new_content':
      return `Write an article for ${brand} that answers ${topic}. Cite sources, use figures from ${brand}'s own data only, and quote real customers or experts.${extra}`;
    case 'content_update':
      return `Suggest edits to ${s.urls[0] ?? "the target page"} so it answers ${topic} and engines cite it for ${brand}: cite sources, add statistics and quotations, improve fluency.${extra}`;
    case 'forum_engagement':
      return `Draft a helpful reply to ${s.urls[0] ?? 'the thread'} that answers ${topic} and discloses the author's affiliation with ${brand}.${extra}`;
    case 'on_page_seo':
      return null;
  }
}

export function builtinEnrichAction(input: EnrichActionInput): ActionFields {
  const category = input.action_type;
  const fromFacts = subjectOf(input.facts);
  const keywords = [...new Set([...(input.keywords ?? []).map((k) => k.trim()).filter(Boolean), ...fromFacts.keywords])];
  const targetUrl = str(input.target_url) ?? fromFacts.urls[0] ?? null;
  const s: Subject = { ...fromFacts, keywords, urls: targetUrl ? [targetUrl, ...fromFacts.urls.filter((u) => u !== targetUrl)] : fromFacts.urls };
  const instructions = str(input.instructions);

  const title = str(input.title) ?? titleFor(category, input.brand.name, s);
  let description = str(input.description) ?? descriptionFor(category, input.brand.name, s, factFigures(input.facts));
  if (instructions && !description.includes(instructions)) description = `${description} Instructions: ${instructions}`;

  const targets: ActionFields['targets'] = [];
  if (targetUrl) targets.push({ type: 'url', value: targetUrl });
  for (const k of keywords) targets.push({ type: 'keyword', value: k });
  if (category === 'new_content') targets.push({ type: 'page_type', value: 'article' });
  if (category === 'forum_engagement' && !targetUrl) for (const d of s.domains) targets.push({ type: 'domain', value: d });

  const params: Record<string, unknown> = {};
  if (targetUrl) params.target_url = targetUrl;
  if (keywords.length) params.keywords = keywords;
  if (instructions) params.instructions = instructions;
  const [min, max] = IMPACT_BY_CATEGORY[category];
  return {
    title,
    description,
    targets,
    execution: {
      type: EXECUTION_BY_CATEGORY[category],
      prompt: executionPrompt(category, input.brand.name, s, instructions),
      skill: SKILL_BY_CATEGORY[category],
      params: Object.keys(params).length ? params : null,
    },
    effort: EFFORT_BY_CATEGORY[category],
    expected_impact_min: min,
    expected_impact_max: max,
  };
}
