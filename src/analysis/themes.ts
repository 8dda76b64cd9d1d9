import { vaderCompound } from './vader.js';

/**
 * The themes an answer speaks of for a brand: price, ease of use, support… A theme is
 * found by its words in the clauses about the brand (the same clauses its sentiment is
 * read from), and each brand × theme of an answer counts once, with the band of those
 * clauses and the first sentence as its excerpt.
 */
export const THEMES = [
  'price',
  'ease_of_use',
  'support',
  'features',
  'integrations',
  'reliability',
  'security',
  'performance',
  'scalability',
  'customization',
] as const;
export type ThemeName = (typeof THEMES)[number];

export type Band = 'positive' | 'neutral' | 'negative';

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
// Words of a text (hyphenated words whole: "user-friendly", "add-ons"), and the first
// words of the theme phrases, so a pair or triple of words is joined only where a phrase may start.
const WORD = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu;
const PHRASE_STARTS = new Set([...WORD_THEME.keys()].filter((k) => k.includes(' ')).map((k) => k.split(' ')[0]));

/** The themes a text speaks of, as THEMES indices (a bit each). */
export function themeBits(text: string): number {
  let bits = 0;
  const words = text.toLowerCase().match(WORD);
  if (!words) return 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const t = WORD_THEME.get(w);
    if (t !== undefined) bits |= 1 << t;
    if (PHRASE_STARTS.has(w) && i + 1 < words.length) {
      const two = `${w} ${words[i + 1]}`;
      const t2 = WORD_THEME.get(two);
      if (t2 !== undefined) bits |= 1 << t2;
      if (i + 2 < words.length) {
        const t3 = WORD_THEME.get(`${two} ${words[i + 2]}`);
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
  /** An item of a list of pros or cons: its sign is the list's, whole (pros-cons.ts). */
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
  const acc = new Map<number, { brand: number; theme: number; sum: number; n: number; sent: number }>();
  const add = (u: BrandUnit, bits: number, compound: number) => {
    for (let t = 0; t < THEMES.length; t++) {
      if (!(bits & (1 << t))) continue;
      const key = u.brand * 64 + t;
      const a = acc.get(key);
      if (a) {
        a.sum += compound;
        a.n++;
      } else acc.set(key, { brand: u.brand, theme: t, sum: compound, n: 1, sent: u.sent });
    }
  };
  for (const u of units) {
    const bits = themeBits(u.text);
    if (bits === 0) continue;
    // "cheaper than X, but its reporting is limited": price and features each take the
    // sentiment of their own part of the clause, not the clause's mix
    // one theme: the clause's own sentiment is the theme's (no second VADER pass)
    const single = (bits & (bits - 1)) === 0;
    const parts = single || u.listed ? [u.text] : u.text.split(PART_BREAK);
    if (parts.length === 1) {
      add(u, bits, u.compound);
      continue;
    }
    for (const part of parts) {
      const partBits = part ? themeBits(part) : 0;
      if (partBits) add(u, partBits, vaderCompound(part));
    }
  }
  const excerpts = new Map<number, string>(); // one per sentence: several brands and themes share it
  const excerpt = (sent: number) => {
    let e = excerpts.get(sent);
    if (e === undefined) excerpts.set(sent, (e = excerptOf(sentenceText(sent))));
    return e;
  };
  return [...acc.values()].map((a) => ({
    brand: a.brand,
    theme: THEMES[a.theme],
    band: bandOf(50 + 50 * (a.sum / a.n)), // the scale of toScale (sentiment.ts)
    excerpt: excerpt(a.sent),
  }));
}

/** Markdown marks dropped, spaces collapsed, cut at 200 characters on a word boundary. */
export function excerptOf(sentence: string): string {
  const plain = sentence
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`#>|]+/g, ' ')
    .replace(/^\s*(?:[-+]|\d+[.)])\s+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (plain.length <= 200) return plain;
  const cut = plain.slice(0, 199);
  const space = cut.lastIndexOf(' ');
  return `${cut.slice(0, space > 120 ? space : 199)}…`;
}
