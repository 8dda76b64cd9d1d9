import { plainList } from './builtin-actions.js';
import { STAT_PLACEHOLDER } from './builtin-edits.js';
import type { ArticleBrief } from './types.js';

// The built-in writer's article steps (outline, draft, final) for the content workflow.
// Text is templated from the brief; facts the writer cannot know are bracketed
// placeholders for the author. Reviewer feedback is applied by simple rules (shorter,
// longer, add / remove a section) and the result says how it was applied.

export interface Section {
  heading: string;
  lines: string[];
}

export interface Doc {
  title: string;
  lead: string[];
  sections: Section[];
}

const FEEDBACK_NOTE = /^_Revised for feedback:.*_$/;
const FEEDBACK_COMMENT = /^<!-- Revised for feedback:.*-->$/;
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function parseMarkdown(text: string, fallbackTitle: string): Doc {
  const doc: Doc = { title: fallbackTitle, lead: [], sections: [] };
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (FEEDBACK_NOTE.test(line) || FEEDBACK_COMMENT.test(line)) continue;
    const h1 = line.match(/^#\s+(.+)$/);
    const h2 = line.match(/^##\s+(.+)$/);
    if (h1 && doc.sections.length === 0) doc.title = h1[1].trim();
    else if (h2) doc.sections.push({ heading: h2[1].trim(), lines: [] });
    else (doc.sections.at(-1)?.lines ?? doc.lead).push(line);
  }
  const trim = (lines: string[]) => lines.join('\n').trim().split('\n').filter((l, i, all) => l || (all[i - 1] ?? '') !== '');
  doc.lead = doc.lead.join('').trim() ? trim(doc.lead) : [];
  for (const s of doc.sections) s.lines = s.lines.join('').trim() ? trim(s.lines) : [];
  return doc;
}

export function renderMarkdown(doc: Doc, note: string | null = null): string {
  const parts = [`# ${doc.title}`];
  if (note) parts.push(note);
  if (doc.lead.length) parts.push(doc.lead.join('\n'));
  for (const s of doc.sections) parts.push(s.lines.length ? `## ${s.heading}\n\n${s.lines.join('\n')}` : `## ${s.heading}`);
  return `${parts.join('\n\n')}\n`;
}

// ---- feedback ----

export interface FeedbackPlan {
  shorter: boolean;
  longer: boolean;
  add: string[];
  remove: string[];
}

export function readFeedback(feedback: string): FeedbackPlan {
  const f = feedback.toLowerCase();
  const phrases = (re: RegExp) =>
    [...feedback.matchAll(re)]
      .map((m) =>
        m[1]
          .split(/\s+(?:and|but|then|so)\s+(?=remove|drop|delete|cut|add|include|make|keep|use|write|mention|cover)/i)[0]
          .trim()
          .replace(/^(?:(?:a|an|the|some)\s+)?(?:(?:new|short|separate)\s+)?(?:(?:section|part|paragraph|bit)\s+)?(?:(?:on|about)\s+)?(?:the\s+)?/i, '')
          .replace(/\s+(?:section|part|paragraph|bit)$/i, ''),
      )
      .filter((p) => p.length >= 3 && p.length <= 60);
  return {
    shorter: /\b(shorter|concise|too long|trim|cut it down|less text|brief)\b/.test(f),
    longer: /\b(longer|more detail|more depth|expand|deeper|too short|elaborate)\b/.test(f),
    add: phrases(/\b(?:add|include|cover|mention|more about|talk about|explain)\s+([^.,;!?\n]+)/gi),
    remove: phrases(/\b(?:remove|drop|delete|cut|no need for|without)\s+([^.,;!?\n]+)/gi),
  };
}

/** Applies the plan to the document; returns one sentence per change made. */
export function applyFeedback(doc: Doc, plan: FeedbackPlan, bodyFor: (heading: string) => string[]): string[] {
  const done: string[] = [];
  for (const phrase of plan.remove) {
    const before = doc.sections.length;
    doc.sections = doc.sections.filter((s) => !s.heading.toLowerCase().includes(phrase.toLowerCase()));
    if (doc.sections.length < before) done.push(`removed the section on ${phrase}`);
  }
  if (plan.shorter && doc.sections.length > 3) {
    const dropped = doc.sections.filter((s, i) => i > 0 && !/^(frequently asked|sources)/i.test(s.heading)).slice(2);
    doc.sections = doc.sections.filter((s) => !dropped.includes(s));
    for (const s of doc.sections) s.lines = s.lines.filter((l, i) => i < 3 || !l.startsWith('- '));
    if (dropped.length) done.push(`made it shorter by dropping ${plainList(dropped.map((s) => `"${s.heading}"`))}`);
  }
  for (const phrase of plan.add) {
    if (doc.sections.some((s) => s.heading.toLowerCase().includes(phrase.toLowerCase()))) continue;
    const tail = doc.sections.findIndex((s) => /^(frequently asked|sources)/i.test(s.heading));
    doc.sections.splice(tail === -1 ? doc.sections.length : tail, 0, { heading: capitalize(phrase), lines: bodyFor(phrase) });
    done.push(`added a section on ${phrase}`);
  }
  if (plan.longer) {
    doc.sections.splice(Math.max(1, doc.sections.length - 2), 0, { heading: 'Common mistakes to avoid', lines: bodyFor('common mistakes to avoid') });
    done.push('went into more depth with a section on common mistakes');
  }
  return done;
}

export function feedbackSummary(feedback: string, done: string[]): string {
  const quoted = `"${feedback.trim().replace(/\s+/g, ' ').replace(/[.!]+$/, '').slice(0, 200)}"`;
  return done.length
    ? `Revised for feedback: ${quoted}. Changes: ${done.join('; ')}.`
    : `Revised for feedback: ${quoted}. The text was rewritten with it in mind; it asked for nothing the built-in writer can change by rule, so check the points it raises by hand.`;
}

// ---- the three steps ----

const keywordsOf = (brief: ArticleBrief) => [...new Set(brief.keywords.map((k) => k.trim()).filter(Boolean))].slice(0, 4);

function outlineBullets(heading: string, brief: ArticleBrief): string[] {
  const brand = brief.brand.name;
  const h = heading.toLowerCase();
  if (h === 'the short answer') return [`- Answer "${brief.title}" in two or three sentences a reader could quote.`, `- Say who ${brand} is for, in plain words.`];
  if (h.startsWith('how to choose')) return ['- The criteria that matter most, each with one sentence on why.', '- A comparison table of the main options, each figure with its source.'];
  if (h.startsWith(`how ${brand.toLowerCase()}`)) return [`- What ${brand} does here, with a concrete example from a customer.`, `- ${STAT_PLACEHOLDER}.`, '- A quotation from a customer or expert, with their name and role.'];
  if (h.startsWith('frequently asked')) return ['- Three questions buyers ask answer engines, each answered in two sentences.'];
  if (h === 'sources') return ['- Every study, report and dataset cited above, with links.'];
  if (h.startsWith('common mistakes')) return ['- The mistakes readers make most often, and how to avoid each one.'];
  const inline = /^\p{Lu}{2}/u.test(heading) ? heading : heading.charAt(0).toLowerCase() + heading.slice(1);
  return [`- What ${inline} means for the reader.`, `- One figure that shows why it matters: ${STAT_PLACEHOLDER}.`];
}

export function builtinOutline(brief: ArticleBrief): string {
  const brand = brief.brand.name;
  const headings = ['The short answer', ...keywordsOf(brief).map((k) => recase(k, brief)), 'How to choose', `How ${brand} helps`, 'Frequently asked questions', 'Sources'];
  const doc: Doc = {
    title: brief.title.trim(),
    lead: brief.description.trim() ? [`> ${brief.description.trim()}`] : [],
    sections: headings.map((heading) => ({ heading, lines: outlineBullets(heading, brief) })),
  };
  const note = brief.feedback?.trim() ? `_${feedbackSummary(brief.feedback, applyFeedback(doc, readFeedback(brief.feedback), (h) => outlineBullets(h, brief)))}_` : null;
  return renderMarkdown(doc, note);
}

/** Words of a keyword in the casing the brief uses ("crm" → "CRM" when the title says CRM). */
function recase(text: string, brief: ArticleBrief, start = true): string {
  const known = new Map((`${brief.title} ${brief.description}`.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => [w.toLowerCase(), w]));
  return (start ? capitalize : (t: string) => t)(text.replace(/[\p{L}\p{N}]+/gu, (w) => (w === w.toLowerCase() && /^\p{Lu}{2,}$/u.test(known.get(w) ?? '') ? known.get(w)! : w)));
}

function paragraphFor(section: Section, brief: ArticleBrief): string[] {
  const brand = brief.brand.name;
  const h = section.heading.toLowerCase();
  const keywords = keywordsOf(brief).map((k) => k.toLowerCase());
  const inline = (k: string) => recase(k, brief, false);
  const topic = keywords.length ? plainList(keywords.map(inline), 2) : 'this';
  if (h === 'the short answer') {
    return [`${brief.description.trim() ? `${brief.description.trim().replace(/([^.!?])$/, '$1.')} ` : ''}The short answer: [answer "${brief.title.trim()}" in two or three sentences a reader could quote]. ${brand} is built for [who ${brand} is for].`];
  }
  if (keywords.includes(h)) {
    return [`When readers look into ${inline(h)}, they want to know what difference it makes day to day. [Explain ${inline(h)} in plain words, with one concrete example.] In numbers: ${STAT_PLACEHOLDER}.`];
  }
  if (h.startsWith('how to choose')) {
    return ['There is no single best option for everyone. Weigh each one against the jobs you need done, what it will cost as you grow, and how easy it is to move your data out if it does not work out.', '', '[A comparison table of the main options; give the source of every figure.]'];
  }
  if (h.startsWith(`how ${brand.toLowerCase()}`)) {
    return [`${brand} approaches ${topic} by [what ${brand} does differently, in one or two sentences]. [A short example from a real customer.] As [name, role and company of the person quoted] puts it: "[add a real quotation from a customer or expert]". In numbers: ${STAT_PLACEHOLDER}.`];
  }
  if (h.startsWith('common mistakes')) return ['The most common mistake is to choose on the feature list alone. [The mistakes you see most often, and how to avoid each one.]'];
  if (h.startsWith('frequently asked')) return ['### [A question buyers ask]', '', '[Its answer in two sentences.]'];
  if (h === 'sources') return ['- [Source title, publisher, year, link]'];
  return [`[Write about ${h}: what it means for the reader, with one example and one sourced figure.]`];
}

export function builtinDraft(brief: ArticleBrief & { outline: string }): string {
  const doc = parseMarkdown(brief.outline, brief.title.trim());
  doc.lead = doc.lead.map((l) => l.replace(/^>\s*/, ''));
  for (const s of doc.sections) s.lines = paragraphFor(s, brief);
  const note = brief.feedback?.trim()
    ? `_${feedbackSummary(brief.feedback, applyFeedback(doc, readFeedback(brief.feedback), (h) => paragraphFor({ heading: h, lines: outlineBullets(h, brief) }, brief)))}_`
    : null;
  return renderMarkdown(doc, note);
}

export function builtinFinal(brief: ArticleBrief & { draft: string }): { title: string; content: string } {
  const doc = parseMarkdown(brief.draft, brief.title.trim());
  if (!doc.sections.some((s) => /^sources$/i.test(s.heading))) doc.sections.push({ heading: 'Sources', lines: ['- [Source title, publisher, year, link]'] });
  const body = (h: string) => paragraphFor({ heading: h, lines: outlineBullets(h, brief) }, brief);
  const note = brief.feedback?.trim() ? `<!-- ${feedbackSummary(brief.feedback, applyFeedback(doc, readFeedback(brief.feedback), body)).replace(/--/g, '—')} -->` : null;
  return { title: doc.title, content: renderMarkdown(doc, note) };
}
