import { z } from 'zod';
import { builtinEnrichAction } from './builtin-actions.js';
import { collapse as collapseSpace } from '../pages/extract.js';
import type { ActionFields, ArticleBrief, EditSuggestion, EnrichActionInput, ForumCommentInput, SuggestEditsInput, SuggestInput } from './types.js';

// What the model is asked for each Writer method: the task in words, the zod schema its
// JSON must satisfy (sent as a JSON schema too), and the checks that tie the answer to
// its input (an edit's `before` must be text of the page). Structural fields the rules
// decide (execution type by category, targets from the request) are set in code.

export const SYSTEM_PROMPT = [
  'You write for Sightline, a service that helps brands become visible in AI answer engines (ChatGPT, Perplexity, Gemini, Claude, Google AI Overviews).',
  'Rules:',
  '- Use only facts given in the input. Never invent statistics, quotations, sources, prices, customers, features or people.',
  '- Where a figure, source or quotation is needed, write a bracketed placeholder such as "[add a figure from your own data]" or "[add a real quotation from a customer or expert]".',
  '- Write plainly and concretely, without hype, in the language of the input (English when unsure).',
  '- Reply with a single JSON object that matches the JSON schema given, and nothing else.',
].join('\n');

export interface Task<T> {
  /** The JSON schema's name (letters, digits, underscores). */
  name: string;
  schema: z.ZodType<T>;
  instructions: string;
  /** Ties the answer to the input; null when it does not hold (counts as invalid output). */
  check?: (value: T) => T | null;
}

const nonEmpty = z.string().trim().min(1);
const targetSchema = z.object({ type: z.enum(['url', 'keyword', 'page_type', 'domain']), value: nonEmpty });

export const suggestionsSchema = z.object({
  topics: z.array(z.object({ name: nonEmpty, description: nonEmpty })).min(1).max(5),
  prompts: z.array(z.object({ topic: nonEmpty, content: nonEmpty })),
});

export function suggestionsTask(input: SuggestInput): Task<z.infer<typeof suggestionsSchema>> {
  return {
    name: 'tracking_prompts',
    schema: suggestionsSchema,
    instructions: `Write exactly ${input.count} distinct questions that buyers would ask an AI answer engine when looking for what the brand offers, grouped under one to three topics. Most questions must not name the brand: they measure whether engines bring it up on their own. Mix commercial ("best … for …"), informational and transactional questions, and comparisons when competitors are given. Every prompt's topic is the name of one of the topics.`,
    check: (v) => {
      const names = new Set(v.topics.map((t) => t.name));
      const unique = new Set(v.prompts.map((p) => p.content.toLowerCase()));
      return v.prompts.length === input.count && unique.size === input.count && v.prompts.every((p) => names.has(p.topic)) ? v : null;
    },
  };
}

export const actionSchema = z.object({
  title: nonEmpty,
  description: nonEmpty,
  targets: z.array(targetSchema),
  execution_prompt: z.string().nullable(),
  effort: z.enum(['quick-win', 'moderate', 'major']).nullable(),
  expected_impact_min: z.number().min(0).max(100).nullable(),
  expected_impact_max: z.number().min(0).max(100).nullable(),
});

export const ACTION_TASK =
  'Complete this action for the brand\'s visibility in AI answers: a short imperative title, a description that says what to do and why (grounded in the facts given), targets (url, keyword, page_type or domain), the instructions an AI agent would follow to carry it out (execution_prompt; null for manual SEO work), the effort (quick-win, moderate or major) and the expected gain in visibility in percentage points (min and max, modest and honest). Keep any title or description given, improving only its wording.';

/** The model's wording over the rules' structure: execution type, skill and params come from the built-in writer. */
export function mergeAction(input: EnrichActionInput, v: z.infer<typeof actionSchema>): ActionFields {
  const base = builtinEnrichAction(input);
  const targets = [...base.targets];
  for (const t of v.targets) if (!targets.some((x) => x.type === t.type && x.value === t.value)) targets.push(t);
  let [min, max] = [v.expected_impact_min ?? base.expected_impact_min, v.expected_impact_max ?? base.expected_impact_max];
  if (min !== null && max !== null && min > max) [min, max] = [max, min];
  return {
    title: v.title,
    description: v.description,
    targets,
    execution: { ...base.execution, prompt: base.execution.type === 'manual' ? v.execution_prompt : (v.execution_prompt ?? base.execution.prompt) },
    effort: v.effort ?? base.effort,
    expected_impact_min: min,
    expected_impact_max: max,
  };
}

export const wordingSchema = z.object({ title: nonEmpty, description: nonEmpty });
export const WORDING_TASK =
  'Word this recommendation for the brand: a short imperative title (under 90 characters) and a description of two to four sentences that says what the data shows (use the facts and figures given, exactly) and what to do about it.';

export const editsSchema = z.object({
  edits: z.array(
    z.object({
      section: nonEmpty,
      type: z.enum(['replace', 'insert', 'delete']),
      before: z.string().nullable(),
      after: z.string().nullable(),
      signal: nonEmpty,
      reason: nonEmpty,
    }),
  ),
});

export const EDITS_TASK = [
  'Suggest 4 to 8 edits to this page so AI answer engines are more likely to cite it and mention the brand.',
  'Use the changes the GEO study (Aggarwal et al., KDD 2024) found to raise visibility in generative answers: cite sources (signal "cite_sources"), add statistics ("add_statistics"), add quotations ("add_quotations"), improve fluency ("fluency"); also answer one of the buyers\' prompts directly ("answer_prompt") and, when competitors are given, add a fair comparison ("comparison").',
  'For "replace" and "delete", `before` must be copied exactly from one of the page\'s paragraphs. For "insert", `before` is null. For "delete", `after` is null. `section` names where the edit goes; `reason` says what it improves.',
  'Do not invent figures, sources or quotations: use bracketed placeholders such as "[add a figure from your own data]".',
].join('\n');

export function editsTask(input: SuggestEditsInput): Task<z.infer<typeof editsSchema>> {
  const page = collapseSpace(input.page.paragraphs.join(' '));
  return {
    name: 'page_edits',
    schema: editsSchema,
    instructions: EDITS_TASK,
    check: (v) => {
      const edits = v.edits.filter((e) => {
        if (e.type === 'insert') return e.after !== null && e.after.trim() !== '';
        if (!e.before || !page.includes(collapseSpace(e.before))) return false; // not text of the page
        return e.type === 'delete' || (e.after !== null && e.after.trim() !== '');
      });
      return edits.length ? { edits: edits.map((e): EditSuggestion => ({ ...e, before: e.type === 'insert' ? null : e.before, after: e.type === 'delete' ? null : e.after })) } : null;
    },
  };
}

export const commentSchema = z.object({ comment: nonEmpty });
export function commentTask(input: ForumCommentInput): Task<z.infer<typeof commentSchema>> {
  return {
    name: 'forum_comment',
    schema: commentSchema,
    instructions: `Write a reply to this forum thread, as someone who works at ${input.brand.name}. Be genuinely helpful first: answer the question with advice that holds whatever the reader chooses. Mention ${input.brand.name} at most twice, add no links, and disclose the affiliation plainly (e.g. "Full disclosure: I work at ${input.brand.name}"). 80 to 250 words, no marketing language.`,
    check: (v) => (v.comment.toLowerCase().includes(input.brand.name.toLowerCase()) ? v : null),
  };
}

const feedbackRule = (b: ArticleBrief) =>
  b.feedback?.trim() ? ` A reviewer asked for changes: "${b.feedback.trim()}". Apply them, and start with one italic line saying how the feedback was applied.` : '';
const hasHeading = (s: string) => /^#{1,3}\s+\S/m.test(s);

export const outlineSchema = z.object({ outline: nonEmpty });
export function outlineTask(brief: ArticleBrief): Task<z.infer<typeof outlineSchema>> {
  return {
    name: 'article_outline',
    schema: outlineSchema,
    instructions: `Write a markdown outline for this article: a "# " title, "## " section headings in reading order, and under each a few "- " bullets saying what the section covers. Include a short direct answer near the top, a comparison or how-to-choose section, an FAQ answering buyers' questions, and a Sources section.${feedbackRule(brief)}`,
    check: (v) => (hasHeading(v.outline) ? v : null),
  };
}

export const draftSchema = z.object({ draft: nonEmpty });
export function draftTask(brief: ArticleBrief): Task<z.infer<typeof draftSchema>> {
  return {
    name: 'article_draft',
    schema: draftSchema,
    instructions: `Write the article in markdown, following the outline given section by section. Answer questions directly, cite sources, and put placeholders where the brand's own figures or quotations belong.${feedbackRule(brief)}`,
    check: (v) => (hasHeading(v.draft) ? v : null),
  };
}

export const finalSchema = z.object({ title: nonEmpty, content: nonEmpty });
export function finalTask(brief: ArticleBrief): Task<z.infer<typeof finalSchema>> {
  return {
    name: 'article_final',
    schema: finalSchema,
    instructions: `Edit the draft into the final article: a title (no markdown) and the full content in markdown. Tighten the wording, keep every fact and placeholder, and keep the structure unless asked otherwise.${brief.feedback?.trim() ? ` A reviewer asked for changes: "${brief.feedback.trim()}". Apply them, and start the content with an HTML comment saying how the feedback was applied.` : ''}`,
    check: (v) => (v.content.trim().length > 0 ? v : null),
  };
}
