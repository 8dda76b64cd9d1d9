import { THEMES, type Band, type ThemeName } from './types.js';
import { vaderCompound } from './vader.js';

/**
 * The themes an answer speaks of for a brand: price, ease of use, support… A theme is
 * found by its words in the clauses about the brand (the same clauses its sentiment is
 * read from), and each brand × theme of an answer counts once, with the band of those
 * clauses and the first sentence as its excerpt. The themes themselves, and the bands, are
 * listed in types.ts (THEMES): the theme rollup stores a theme by its place there.
 */

// Lower-case words (and a few phrases) that say a clause is about a theme. Words only:
// "price" names the theme, "good" does not. Plural and -ing forms are listed where answers use them.
const THEME_WORDS: Record<ThemeName, string[]> = {
  price: [
    'price', 'prices', 'pricing', 'priced', 'pricey', 'pricier', 'cost', 'costs', 'costly', 'expensive', 'cheap', 'cheaper',
    'cheapest', 'affordable', 'affordability', 'inexpensive', 'overpriced', 'budget', 'budgets', 'fee', 'fees', 'subscription',
    'per user', 'per seat', 'per month', 'free plan', 'free tier', 'plans', 'plan', 'value for money', 'cost-effective', 'charges', 'paid',
  ],
  ease_of_use: [
    'easy', 'easier', 'easiest', 'intuitive', 'unintuitive', 'user-friendly', 'easy-to-use', 'learning curve', 'hard to learn',
    'hard to use', 'interface', 'ui', 'ux', 'usability', 'clunky', 'cluttered', 'simple', 'simplicity', 'straightforward',
    'onboarding', 'set up', 'setup', 'complicated', 'complex', 'beginner', 'beginners', 'navigate', 'confusing', 'cumbersome',
  ],
  support: [
    'support', 'customer service', 'customer support', 'help desk', 'helpdesk', 'responsive', 'response times', 'agents',
    'documentation', 'docs', 'community', 'onboarding help', 'account manager', 'live chat', 'tickets', 'hard to reach',
  ],
  features: [
    'feature', 'features', 'feature-rich', 'functionality', 'capabilities', 'tools', 'toolset', 'reporting', 'reports',
    'analytics', 'automation', 'automations', 'workflows', 'dashboards', 'pipelines', 'templates', 'ai', 'lacks', 'lacking',
  ],
  integrations: [
    'integration', 'integrations', 'integrates', 'integrate', 'api', 'apis', 'ecosystem', 'marketplace', 'plugins', 'plugin',
    'add-ons', 'zapier', 'connectors', 'third-party', 'apps',
  ],
  reliability: [
    'reliable', 'reliability', 'unreliable', 'uptime', 'downtime', 'outage', 'outages', 'stable', 'stability', 'bugs',
    'buggy', 'glitchy', 'crashes', 'glitches', 'dependable', 'consistent', 'inconsistent',
  ],
  security: [
    'security', 'secure', 'privacy', 'compliance', 'compliant', 'gdpr', 'hipaa', 'soc', 'encryption', 'encrypted', 'sso',
    'fraud', 'permissions', '2fa', 'data protection',
  ],
  performance: [
    'fast', 'faster', 'fastest', 'slow', 'slower', 'speed', 'performance', 'performant', 'sluggish', 'laggy', 'latency',
    'quick', 'quicker', 'load times', 'lightweight', 'bloated',
  ],
  scalability: [
    'scale', 'scales', 'scaling', 'scalable', 'scalability', 'grow', 'growing', 'outgrow', 'outgrown', 'enterprise-grade',
  ],
  customization: [
    'customization', 'customisation', 'customizable', 'customisable', 'customize', 'customise', 'flexible', 'flexibility',
    'inflexible', 'configurable', 'custom fields', 'tailor', 'rigid',
  ],
};

const WORD_THEME = new Map<string, number>();
THEMES.forEach((t, i) => {
  for (const w of THEME_WORDS[t]) if (!WORD_THEME.has(w)) WORD_THEME.set(w, i);
});
// Words of a text (hyphenated words whole: "user-friendly", "add-ons"): runs of letters and
// digits joined by single hyphens, as /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/u would find them. Read
// by hand: the regex's match array and its Unicode class tests were the themes' main cost.
// The first words of the theme phrases, so a pair or triple of words is joined only where a phrase may start.
const PHRASE_STARTS = new Set([...WORD_THEME.keys()].filter((k) => k.includes(' ')).map((k) => k.split(' ')[0]));
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/** Length in code units of the letter or digit at `i` (2 for an astral one), 0 if none there. */
function wordCharAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) ? 1 : 0;
  if (Number.isNaN(c)) return 0;
  const cp = text.codePointAt(i) as number;
  const len = cp > 0xffff ? 2 : 1;
  return LETTER_OR_DIGIT.test(text.slice(i, i + len)) ? len : 0;
}

// Only a word whose length and first letter some theme word or phrase start has is looked
// up: most words of an answer are not, and slicing them out only to miss the map cost more
// than the rest of the scan.
const candidateKey = (length: number, first: number) => length * 0x10000 + first;
const CANDIDATES = new Set([...WORD_THEME.keys(), ...PHRASE_STARTS].map((k) => candidateKey(k.split(' ')[0].length, k.charCodeAt(0))));

/** The themes a text speaks of, as THEMES indices (a bit each). */
export function themeBits(text: string): number {
  const lower = text.toLowerCase();
  const n = lower.length;
  // start and end of each word, then the lookups: a phrase needs the two words after it
  const bounds: number[] = [];
  let i = 0;
  while (i < n) {
    let len = wordCharAt(lower, i);
    if (len === 0) {
      i++;
      continue;
    }
    const start = i;
    for (;;) {
      while (len) {
        i += len;
        len = wordCharAt(lower, i);
      }
      // a hyphen joins the next run only when a letter or digit follows it
      if (lower.charCodeAt(i) === 45 && (len = wordCharAt(lower, i + 1))) i++;
      else break;
    }
    bounds.push(start, i);
  }
  let bits = 0;
  const words = bounds.length / 2;
  for (let k = 0; k < words; k++) {
    const start = bounds[2 * k];
    if (!CANDIDATES.has(candidateKey(bounds[2 * k + 1] - start, lower.charCodeAt(start)))) continue;
    const w = lower.slice(start, bounds[2 * k + 1]);
    const t = WORD_THEME.get(w);
    if (t !== undefined) bits |= 1 << t;
    if (PHRASE_STARTS.has(w) && k + 1 < words) {
      const two = `${w} ${lower.slice(bounds[2 * k + 2], bounds[2 * k + 3])}`;
      const t2 = WORD_THEME.get(two);
      if (t2 !== undefined) bits |= 1 << t2;
      if (k + 2 < words) {
        const t3 = WORD_THEME.get(`${two} ${lower.slice(bounds[2 * k + 4], bounds[2 * k + 5])}`);
        if (t3 !== undefined) bits |= 1 << t3;
      }
    }
  }
  return bits;
}

// where a clause about one brand turns to another of its sides
const PART_BREAK = /[,;:\u2013\u2014]|\b(?:but|however|although|though|while|whereas|yet|except)\b/i;

/** A clause about one brand (or a sentence naming it alone), with its VADER compound. */
export interface BrandUnit {
  brand: number;
  sent: number;
  text: string;
  compound: number;
  /** An item of a list of pros or cons: its sign is the list's, whole (sections.ts). */
  listed?: boolean;
}

export interface BrandTheme {
  /** Index of the brand in the compiled brands. */
  brand: number;
  theme: ThemeName;
  band: Band;
  /** The first sentence speaking of it, markdown stripped, at most 200 characters. */
  excerpt: string;
}

/** Score 0..100 → band: negative < 40, neutral 40–60, positive > 60 (the labelling rule). */
export function bandOf(score: number): Band {
  return score > 60 ? 'positive' : score < 40 ? 'negative' : 'neutral';
}

/** Per brand and theme named in its clauses: one entry, the band of the mean of those clauses. */
export function brandThemes(units: readonly BrandUnit[], sentenceText: (sent: number) => string): BrandTheme[] {
  // no closures here: under tsx (the bench) each closure made per call costs a __name call
  const acc: ThemeSums = new Map();
  // a clause about several brands is one unit per brand, with the same text (the same
  // string): its parts' themes and sentiments are read once, for the first of them
  let lastText: string | null = null;
  let lastBits = 0;
  let lastParts: Array<{ bits: number; compound: number }> | null | undefined;
  for (const u of units) {
    if (u.text !== lastText) {
      lastText = u.text;
      lastBits = themeBits(u.text);
      lastParts = undefined;
    }
    const bits = lastBits;
    if (bits === 0) continue;
    // "cheaper than X, but its reporting is limited": price and features each take the
    // sentiment of their own part of the clause, not the clause's mix
    // one theme: the clause's own sentiment is the theme's (no second VADER pass)
    const single = (bits & (bits - 1)) === 0;
    const parts = single || u.listed ? null : lastParts === undefined ? (lastParts = partScores(u.text)) : lastParts;
    if (parts === null) {
      addThemes(acc, u, bits, u.compound);
      continue;
    }
    for (const part of parts) addThemes(acc, u, part.bits, part.compound);
  }
  const excerpts = new Map<number, string>(); // one per sentence: several brands and themes share it
  const out: BrandTheme[] = [];
  for (const a of acc.values()) {
    let excerpt = excerpts.get(a.sent);
    if (excerpt === undefined) excerpts.set(a.sent, (excerpt = excerptOf(sentenceText(a.sent))));
    // the scale of toScale (sentiment.ts)
    out.push({ brand: a.brand, theme: THEMES[a.theme], band: bandOf(50 + 50 * (a.sum / a.n)), excerpt });
  }
  return out;
}

type ThemeSums = Map<number, { brand: number; theme: number; sum: number; n: number; sent: number }>;

/** Adds a clause's compound to each theme of `bits` for its brand (the first clause's sentence is the excerpt). */
function addThemes(acc: ThemeSums, u: BrandUnit, bits: number, compound: number): void {
  for (let t = 0; t < THEMES.length; t++) {
    if (!(bits & (1 << t))) continue;
    const key = u.brand * 64 + t;
    const a = acc.get(key);
    if (a) {
      a.sum += compound;
      a.n++;
    } else acc.set(key, { brand: u.brand, theme: t, sum: compound, n: 1, sent: u.sent });
  }
}

/** The parts of a clause that name a theme, with their own sentiment; null for a clause of one part. */
function partScores(text: string): Array<{ bits: number; compound: number }> | null {
  const parts = text.split(PART_BREAK);
  let scores: Array<{ bits: number; compound: number }> | null = null;
  if (parts.length > 1) {
    scores = [];
    for (const part of parts) {
      const bits = part ? themeBits(part) : 0;
      if (bits) scores.push({ bits, compound: vaderCompound(part) });
    }
  }
  return scores;
}

/** Markdown marks dropped, spaces collapsed, cut at 200 characters on a word boundary. */
export function excerptOf(sentence: string): string {
  // the link pattern cannot match without "](": most sentences skip that scan
  const plain = (sentence.includes('](') ? sentence.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') : sentence)
    .replace(/[*_`#>|]+/g, ' ')
    .replace(/^\s*(?:[-+]|\d+[.)])\s+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (plain.length <= 200) return plain;
  const cut = plain.slice(0, 199);
  const space = cut.lastIndexOf(' ');
  return `${cut.slice(0, space > 120 ? space : 199)}…`;
}
