import { plainList } from './builtin-actions.js';
import type { EditSuggestion, SuggestEditsInput } from './types.js';

// The built-in writer's edit suggestions for a page. Replace edits quote a real paragraph
// of the page in `before` and keep its text in `after`, adding what the GEO study
// (Aggarwal et al., KDD 2024) found raises a page's visibility in generative engines'
// answers: cited sources, statistics, quotations, fluent wording. Inserts add an answer
// to one of the project's prompts and a comparison with the competitors the engines name.
// Nothing factual is made up: where a figure, source or quote is needed, a bracketed
// placeholder tells the editor what to fill in.

export const STAT_PLACEHOLDER = '[add a figure from your own data]';
export const SOURCE_PLACEHOLDER = '[cite the study, report or documentation this rests on, with a link]';
export const QUOTE_PLACEHOLDER = '[add a real quotation from a customer or expert]';
export const PERSON_PLACEHOLDER = '[name, role and company of the person quoted]';

const GEO = 'the GEO study (Aggarwal et al., KDD 2024)';
const MIN_WORDS = 8;
const MAX_BEFORE_CHARS = 1_200;

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const STOP = new Set('a an and are as at be but by can do does for from how i in is it its my of on or our should that the their this to what when which who why will with you your best top'.split(' '));
const hasDigits = (s: string) => /\d/.test(s);
const hasQuote = (s: string) => /[“”"«»]/.test(s);
const hasSource = (s: string) => /\b(according to|source|study|survey|report|research|data from)\b|https?:\/\//i.test(s);
/** Words that state a quantity without giving one: the place a figure belongs. */
const VAGUE_QUANTITY = /\b(most|many|few|several|majority|minority|often|rarely|usually|frequently|more|less|fewer|faster|cheaper|costs?|growing|increase[sd]?|reduce[sd]?|save[sd]?|hours?|months?|years?|percent|share)\b/i;
/** Words that make a claim a reader could ask a source for. */
const CLAIM = /\b(most|best|single|every|always|never|proven|leading|only|all|no one|nobody|everyone|studies|experts?|the (?:first|largest|fastest|cheapest))\b/i;
const FILLERS: Array<[RegExp, string]> = [
  [/\bin order to\b/gi, 'to'],
  // Only mid-sentence, after a lower-case word, so no sentence loses its capital.
  [/(?<=\p{Ll},? )(?:very|really|basically|actually) /gu, ''],
  [/\bdue to the fact that\b/gi, 'because'],
  [/\ba (?:large|great) number of\b/gi, 'many'],
  [/\bat this point in time\b/gi, 'now'],
  [/\bis able to\b/gi, 'can'],
];

const SENTENCES = new Intl.Segmenter('en', { granularity: 'sentence' });
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const snippet = (s: string) => {
  const w = s.split(/\s+/);
  return w.length <= 6 ? s : `${w.slice(0, 6).join(' ')}…`;
};

function sectionOf(index: number, paragraph: string): string {
  return `${index === 0 ? 'Introduction' : `Paragraph ${index + 1}`}: "${snippet(paragraph)}"`;
}

/** Long sentences split at a clause boundary and filler phrases removed; null when nothing changes. */
export function clearerWording(paragraph: string): string | null {
  let out = paragraph;
  for (const [re, to] of FILLERS) out = out.replace(re, (m) => (/^[A-Z]/.test(m) ? capitalize(to) : to));
  // Sentences are rewritten in place; untouched ones keep their exact text and spacing.
  out = [...SENTENCES.segment(out)]
    .map(({ segment }) => {
      const s = segment.trimEnd();
      const space = segment.slice(s.length);
      if (s.split(/\s+/).length <= 22) return segment;
      const m = s.match(/^(.{25,}?)(,\s+and then\s+|,\s+and\s+|,\s+but\s+|;\s+|,\s+so\s+)(.{20,})$/);
      if (!m) return segment;
      // "and" joins two sentences; the other words stay as the second sentence's opener.
      const opener = { 'and then': 'Then ', but: 'But ', so: 'So ' }[m[2].replace(/[,;]/g, '').trim()] ?? '';
      return `${m[1]}. ${opener}${opener ? m[3] : capitalize(m[3])}${space}`;
    })
    .join('')
    .trim();
  return out !== paragraph.trim() ? out : null;
}

function overlap(a: string, b: Set<string>): number {
  return words(a).filter((w) => !STOP.has(w) && b.has(w)).length;
}

interface Candidate {
  index: number;
  text: string;
}

export function builtinSuggestEdits(input: SuggestEditsInput): EditSuggestion[] {
  const brand = input.brand.name;
  const paragraphs: Candidate[] = input.page.paragraphs
    .map((text, index) => ({ index, text: text.trim() }))
    .filter((p) => words(p.text).length >= MIN_WORDS && p.text.length <= MAX_BEFORE_CHARS);
  const used = new Set<number>();
  const edits: EditSuggestion[] = [];
  const take = (test: (p: Candidate) => boolean): Candidate | null => {
    const found = paragraphs.find((p) => !used.has(p.index) && test(p)) ?? null;
    if (found) used.add(found.index);
    return found;
  };
  const replace = (p: Candidate, after: string, signal: string, reason: string) =>
    edits.push({ section: sectionOf(p.index, p.text), type: 'replace', before: p.text, after, signal, reason });

  // Fluency first: a rewrite needs a long sentence, and only some paragraphs have one.
  for (const p of paragraphs) {
    if (used.has(p.index)) continue;
    const clearer = clearerWording(p.text);
    if (!clearer) continue;
    used.add(p.index);
    replace(p, clearer, 'fluency',
      `Shorter sentences and plain wording make the passage easier to lift into an answer; ${GEO} found fluency optimisation raised visibility too.`);
    break;
  }
  const claims = (p: Candidate) => (p.text.match(new RegExp(CLAIM, 'gi')) ?? []).length;
  const strongest = Math.max(0, ...paragraphs.filter((p) => !used.has(p.index)).map(claims));
  const cite = take((p) => strongest > 0 && claims(p) === strongest && !hasSource(p.text) && !hasQuote(p.text)) ?? take((p) => !hasSource(p.text) && !hasQuote(p.text));
  if (cite) {
    replace(cite, `${cite.text} (Source: ${SOURCE_PLACEHOLDER})`, 'cite_sources',
      `This paragraph makes a claim without naming its evidence. Answer engines prefer passages they can attribute; ${GEO} found citing sources among the changes that most raised a page's visibility in AI answers.`);
  }
  const stat = take((p) => !hasDigits(p.text) && VAGUE_QUANTITY.test(p.text) && !hasQuote(p.text)) ?? take((p) => !hasDigits(p.text) && !hasQuote(p.text));
  if (stat) {
    replace(stat, `${stat.text} In numbers: ${STAT_PLACEHOLDER} (the measured value, its unit and the period it covers).`, 'add_statistics',
      `The paragraph describes a quantity in words only. ${capitalize(GEO)} found that adding statistics made pages markedly more visible in generative answers; use a real figure from ${brand}'s own data or a cited study, never an estimate.`);
  }
  const quoted = take((p) => hasQuote(p.text) && !/[—–-]\s*[\p{Lu}]/u.test(p.text.slice(-80)));
  if (quoted) {
    replace(quoted, `${quoted.text} — ${PERSON_PLACEHOLDER}`, 'add_quotations',
      `The page quotes someone without saying who. ${capitalize(GEO)} found quotations from credible people to be one of the strongest visibility gains; an attributed quote is one an engine can repeat and credit.`);
  } else {
    const q = take((p) => !hasQuote(p.text));
    if (q) {
      replace(q, `${q.text} As ${PERSON_PLACEHOLDER} puts it: "${QUOTE_PLACEHOLDER}"`, 'add_quotations',
        `No one is quoted here. ${capitalize(GEO)} found adding quotations from relevant people to be one of the strongest visibility gains in AI answers; quote a real customer or expert, with their permission.`);
    }
  }

  const pageText = new Set(words([input.page.title ?? '', ...input.page.paragraphs].join(' ')));
  const prompts = [...new Set(input.prompts.map((p) => p.trim()).filter(Boolean))]
    .map((prompt, order) => ({ prompt, score: overlap(prompt, pageText), order }))
    .sort((a, b) => b.score - a.score || a.order - b.order);
  const faq = prompts.filter((p) => p.score > 0).slice(0, 2);
  if (faq.length === 0 && prompts.length) faq.push(prompts[0]);
  if (faq.length) {
    const answers = faq.map(({ prompt }) => `### ${prompt}\n\n[Answer in two or three sentences: say plainly where ${brand} fits, for whom, and why, with one figure or source.]`);
    edits.push({
      section: 'New section: Frequently asked questions', type: 'insert', before: null,
      after: `## Frequently asked questions\n\n${answers.join('\n\n')}`, signal: 'answer_prompt',
      reason: `Buyers ask answer engines ${faq.map((f) => `"${f.prompt}"`).join(' and ')}, and this page does not answer ${faq.length > 1 ? 'them' : 'it'} directly. A short, direct answer under the question itself is the passage an engine can quote.`,
    });
  }

  const competitors = [...new Set(input.competitors.map((c) => c.trim()).filter((c) => c && c.toLowerCase() !== brand.toLowerCase()))].slice(0, 3);
  if (competitors.length) {
    const cols = [brand, ...competitors];
    const row = (label: string) => `| ${label} | ${cols.map(() => '[fill in]').join(' | ')} |`;
    edits.push({
      section: `New section: ${brand} compared with ${plainList(competitors)}`, type: 'insert', before: null,
      after: [`## ${brand} compared with ${plainList(competitors)}`, '', `| | ${cols.join(' | ')} |`, `|${'---|'.repeat(cols.length + 1)}`,
        row('Best for'), row('Starting price'), row('Key strength'), '', '[One honest sentence on when each option is the better choice, with a source for every figure.]'].join('\n'),
      signal: 'comparison',
      reason: `Answer engines name ${plainList(competitors)} where ${brand} is missing. A fair, sourced comparison gives them a passage that mentions ${brand} alongside the names they already cite.`,
    });
  }

  const missing = (input.keywords ?? []).map((k) => k.trim()).filter((k) => k && words(k).some((w) => !pageText.has(w)));
  if (missing.length) {
    edits.push({
      section: 'New paragraph', type: 'insert', before: null,
      after: `[A paragraph on ${plainList(missing)}: what it means for the reader and how ${brand} handles it, in the words buyers use.]`,
      signal: 'keyword_coverage',
      reason: `The page never uses ${plainList(missing.map((k) => `"${k}"`))}, the wording of the questions this action targets.`,
    });
  }
  return edits;
}
