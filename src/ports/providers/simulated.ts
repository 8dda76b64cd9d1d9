import {
  CLAUDE_INTROS,
  CONSIDERATIONS,
  CRITICAL,
  DETAILS,
  INTRO_FOLLOW,
  INTROS,
  MIXED,
  NEUTRAL,
  PRAISE,
  SEGMENTS,
  type Market,
} from './simulated-data.js';
import { mulberry32, type Rng } from '../../lib/random.js';
import { between, findMarket, hash32, makeRef, pick, slugify, type RefKind, type SimBrand } from './simulated-refs.js';
import { REPORTS_SEARCHES } from './search-queries.js';
import type { AskInput, MarketContext, ProviderAdapter, ProviderAnswer, ProviderName, Reference } from './types.js';

export const SIMULATED_MODEL = 'simulated';
export const SIMULATOR_VERSION = 'sightline-simulated-1';

/** How each engine tends to answer: length, layout and how densely it cites. */
interface Style {
  brands: [number, number];
  refs: [number, number];
  sentences: [number, number];
  intro: number;
  /** Chance that a sentence carries a citation marker. */
  cite: number;
  list: 'numbered' | 'bullets';
  heading: string | null;
  outro: 'bottom-line' | 'considerations' | 'caveats' | 'factors';
  /** Perplexity writes "claim.[1][2]"; the others "claim. [1]". */
  tight: boolean;
  /** Sometimes adds a comparison table (Gemini likes them). */
  table?: boolean;
}

const STYLES: Record<ProviderName, Style> = {
  chatgpt: { brands: [5, 7], refs: [5, 8], sentences: [2, 3], intro: 2, cite: 0.4, list: 'numbered', heading: null, outro: 'bottom-line', tight: false },
  perplexity: { brands: [4, 6], refs: [7, 10], sentences: [1, 2], intro: 2, cite: 0.9, list: 'numbered', heading: '## Top options', outro: 'considerations', tight: true },
  google_ai_overview: { brands: [4, 5], refs: [4, 6], sentences: [1, 1], intro: 2, cite: 0.35, list: 'bullets', heading: null, outro: 'factors', tight: false },
  gemini: { brands: [4, 6], refs: [4, 7], sentences: [1, 2], intro: 1, cite: 0.4, list: 'bullets', heading: '### Top picks', outro: 'considerations', tight: false, table: true },
  claude: { brands: [3, 5], refs: [4, 6], sentences: [2, 3], intro: 2, cite: 0.35, list: 'numbered', heading: null, outro: 'caveats', tight: false },
  google_ai_mode: { brands: [4, 6], refs: [5, 8], sentences: [1, 2], intro: 1, cite: 0.6, list: 'bullets', heading: '### Top options', outro: 'factors', tight: false },
  grok: { brands: [3, 5], refs: [4, 7], sentences: [1, 2], intro: 1, cite: 0.5, list: 'numbered', heading: null, outro: 'bottom-line', tight: true },
  copilot: { brands: [3, 5], refs: [4, 6], sentences: [1, 2], intro: 2, cite: 0.5, list: 'bullets', heading: '## Options', outro: 'considerations', tight: false },
  chatgpt_ui: { brands: [4, 7], refs: [4, 8], sentences: [1, 2], intro: 1, cite: 0.5, list: 'numbered', heading: '### Top picks', outro: 'bottom-line', tight: false },
};

const MIN_REFS = 4;
const MIN_WORDS = 120;

interface Sentence {
  text: string;
  brand: SimBrand | null;
  citable: boolean;
}
type Block =
  | { kind: 'p'; sentences: Sentence[] }
  | { kind: 'item'; brand: SimBrand | null; sentences: Sentence[] }
  | { kind: 'line' | 'row'; text: string };

const WATCH_OUTS = ['price at scale', 'limited customization', 'steeper learning curve', 'add-on costs', 'basic reporting'];

/** A provider that makes up answers: deterministic for (prompt, provider, day, sample, market), and says so. */
export function createSimulatedProvider(name: ProviderName): ProviderAdapter {
  return { name, simulated: true, ask: async (input: AskInput) => simulateAnswer(name, input) };
}

export function simulateAnswer(provider: ProviderName, input: AskInput): ProviderAnswer {
  // The first sample keeps the seed answers had before repeated samples existed.
  const sample = input.sample && input.sample > 1 ? `|${input.sample}` : '';
  // Markets answer differently; the US-English one (and none named) keeps the seed answers had before markets.
  const marketSeed = input.country && !(input.country.toUpperCase() === 'US' && (input.language ?? 'en').toLowerCase() === 'en') ? `|${input.country}-${input.language ?? ''}` : '';
  const seed = hash32(`${input.prompt}|${provider}|${input.day}${sample}${marketSeed}`);
  const rng = mulberry32(seed);
  const style = STYLES[provider];
  const ctx = input.context;
  const market = findMarket(`${input.prompt} ${ctx?.competitors.map((c) => c.name).join(' ') ?? ''}`);
  const own: SimBrand | null = ctx ? brandOf(ctx.brand.name, ctx.brand.domain, 'own') : null;
  const includeOwn = own !== null && rng() < ownBrandRate(input.prompt, own.name, provider);
  const listed = chooseBrands(rng, style, market, ctx, own, includeOwn);

  const blocks = compose(rng, style, market, listed);
  const { refs, kinds } = placeCitations(rng, style, market, input.day, blocks, listed, own);
  let text = render(blocks, style);
  // Short styles get a closing paragraph of advice to reach a realistic length.
  const pad: string[] = [];
  for (let i = 0, words = countWords(text); words < MIN_WORDS && i < CONSIDERATIONS.length; i++) {
    const line = CONSIDERATIONS[(seed + i) % CONSIDERATIONS.length];
    pad.push(line);
    words += countWords(line);
  }
  if (pad.length) text += `\n\n${pad.join(' ')}`;

  return {
    provider,
    model: SIMULATED_MODEL,
    text,
    references: refs,
    raw: {
      simulated: true,
      generator: SIMULATOR_VERSION,
      seed,
      market: market.key,
      own_brand_included: includeOwn,
      reference_kinds: kinds,
      ...(REPORTS_SEARCHES.has(provider) ? { search_queries: simulatedSearches(input.prompt, seed, input.day) } : {}),
    },
    simulated: true,
  };
}

const SEARCH_SUFFIXES = ['reviews', 'comparison', 'pricing', 'alternatives'];

/**
 * The searches an engine that reports them would run for the prompt: the question itself,
 * then one or two narrower ones. From the seed alone, so the answer's own draws are unchanged.
 */
function simulatedSearches(prompt: string, seed: number, day: string): string[] {
  const core = prompt.replace(/[?!.]+$/, '').trim().toLowerCase();
  const extra = seed % 3;
  const narrower = Array.from({ length: extra }, (_, i) =>
    i === 0 ? `${core} ${day.slice(0, 4)}` : `${core} ${SEARCH_SUFFIXES[(seed >>> 4) % SEARCH_SUFFIXES.length]}`,
  );
  return [core, ...narrower];
}

/** Per prompt, the own brand shows up on 40 to 70 % of days; engines differ a little. */
function ownBrandRate(prompt: string, brand: string, provider: ProviderName): number {
  const base = 0.42 + 0.26 * (hash32(`${prompt}|${brand}`) / 2 ** 32);
  const tilt = ((hash32(`${prompt}|${provider}`) % 7) - 3) / 100;
  return Math.min(0.7, Math.max(0.4, base + tilt));
}

// every answer names brands of the same few: each made once (read only once made)
const simBrands = new Map<string, SimBrand>();
function brandOf(name: string, domain: string | null, kind: SimBrand['kind']): SimBrand {
  const key = `${kind}|${name}|${domain ?? ''}`;
  let brand = simBrands.get(key);
  if (!brand) {
    brand = { name, slug: slugify(name), domain: domain ? domain.replace(/^https?:\/\//, '').replace(/\/.*$/, '') : null, kind };
    if (simBrands.size < 10_000) simBrands.set(key, brand);
  }
  return brand;
}

/** A brand of the market that no project tracks, with a made-up domain. */
const otherBrand = (name: string) => brandOf(name, `${slugify(name).replace(/-/g, '')}.${hash32(name) % 3 ? 'com' : 'io'}`, 'brand');

function shuffle<T>(rng: Rng, list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

function chooseBrands(rng: Rng, style: Style, market: Market, ctx: MarketContext | undefined, own: SimBrand | null, includeOwn: boolean): SimBrand[] {
  const total = between(rng, style.brands);
  const taken = new Set([own?.name.toLowerCase(), ...(ctx?.competitors.map((c) => c.name.toLowerCase()) ?? [])]);
  const others = shuffle(
    rng,
    market.others.filter((n) => !taken.has(n.toLowerCase())).map(otherBrand),
  );
  const slots = total - (includeOwn ? 1 : 0);
  const wantOthers = 1 + Math.floor(rng() * 2);
  const comps = shuffle(rng, (ctx?.competitors ?? []).map((c) => brandOf(c.name, c.domain, 'competitor'))).slice(0, Math.max(0, slots - wantOthers));
  const listed = shuffle(rng, [...comps, ...others.slice(0, slots - comps.length)]);
  if (includeOwn && own) listed.splice(Math.floor(rng() * (listed.length + 1)), 0, own);
  return listed;
}

function fill(template: string, b: SimBrand | null, market: Market, rng: Rng): string {
  return template
    .replace('{B}', b?.name ?? '')
    .replace('{F}', pick(rng, market.features))
    .replace('{S}', pick(rng, SEGMENTS))
    .replace('{N}', market.noun);
}

function compose(rng: Rng, style: Style, market: Market, listed: SimBrand[]): Block[] {
  const makeSentence = (text: string, brand: SimBrand | null = null, citable = true): Sentence => ({ text, brand, citable });
  const blocks: Block[] = [];
  const intro = [makeSentence(fill(pick(rng, style.outro === 'caveats' ? CLAUDE_INTROS : INTROS), null, market, rng))];
  if (style.intro > 1) intro.push(makeSentence(pick(rng, INTRO_FOLLOW)));
  blocks.push({ kind: 'p', sentences: intro });
  if (style.heading) blocks.push({ kind: 'line', text: style.heading });
  // Lower ranks lean critical, as in real rankings; the tone drives the sentiment found later.
  const liked: Array<{ b: SimBrand; score: number }> = [];
  listed.forEach((b, rank) => {
    const t = rng() + rank * 0.06;
    const bank = t < 0.45 ? PRAISE : t < 0.75 ? MIXED : t < 0.9 ? CRITICAL : NEUTRAL;
    liked.push({ b, score: bank === PRAISE ? 3 : bank === CRITICAL ? 0 : bank === MIXED ? 1 : 2 });
    const sentences = [makeSentence(fill(pick(rng, bank), b, market, rng), b)];
    const extra = between(rng, style.sentences) - 1;
    const start = Math.floor(rng() * DETAILS.length);
    for (let i = 0; i < extra; i++) sentences.push(makeSentence(DETAILS[(start + i) % DETAILS.length], b));
    blocks.push({ kind: 'item', brand: b, sentences });
  });
  const best = liked.slice().sort((x, y) => y.score - x.score);
  const [first, second] = [best[0].b, (best[1] ?? best[0]).b];
  if (style.table && rng() < 0.5) {
    blocks.push({ kind: 'line', text: '| Tool | Best for | Watch out for |\n| --- | --- | --- |' });
    for (const b of listed.slice(0, 4)) {
      blocks.push({ kind: 'row', text: `| ${b.name} | ${pick(rng, SEGMENTS)} | ${pick(rng, WATCH_OUTS)} |` });
    }
  }
  const seg = pick(rng, SEGMENTS);
  switch (style.outro) {
    case 'bottom-line':
      blocks.push({ kind: 'p', sentences: [makeSentence(`**Bottom line:** for most ${seg}, ${first.name} is the safest starting point; if budget matters more, look at ${second.name}.`, null, false)] });
      break;
    case 'caveats':
      blocks.push({ kind: 'p', sentences: [makeSentence('A few caveats: rankings like this shift quickly, and the best choice depends on your workflows.'), makeSentence(`I'd suggest trialing ${first.name} and ${second.name} side by side before deciding.`, null, false)] });
      break;
    case 'considerations':
      blocks.push({ kind: 'line', text: style.list === 'bullets' ? '### How to choose' : '**What to consider:**' });
      for (const c of shuffle(rng, CONSIDERATIONS.slice()).slice(0, 2)) blocks.push({ kind: 'item', brand: null, sentences: [makeSentence(c)] });
      break;
    case 'factors': {
      const i = Math.floor(rng() * market.features.length);
      const [f1, f2] = [market.features[i], market.features[(i + 1) % market.features.length]];
      blocks.push({ kind: 'p', sentences: [makeSentence(`Key factors to compare include ${f1}, ${f2} and total cost for ${seg}.`)] });
    }
  }
  return blocks;
}

/** Markers in reading order, so reference k first appears as [k]; 4 to 10 distinct sources. */
function placeCitations(rng: Rng, style: Style, market: Market, day: string, blocks: Block[], listed: SimBrand[], own: SimBrand | null) {
  const target = between(rng, style.refs);
  const refs: Reference[] = [];
  const kinds: RefKind[] = [];
  const byLink = new Map<string, number>();
  const byBrand = new Map<SimBrand | null, number[]>();
  const citable = blocks.flatMap((b) => ('sentences' in b ? b.sentences.filter((x) => x.citable) : []));
  citable.forEach((sentence, i) => {
    const left = citable.length - i;
    if (!(MIN_REFS - refs.length >= left || rng() < style.cite)) return;
    const marks = style.tight && rng() < 0.35 ? 2 : 1;
    const used = new Set<number>();
    for (let m = 0; m < marks; m++) {
      let n: number;
      if (refs.length < target && (refs.length < MIN_REFS || rng() < 0.75)) {
        const ref = makeRef(rng, market, day, sentence.brand, listed, own);
        n = byLink.get(ref.link) ?? 0;
        if (!n) {
          n = refs.push({ title: ref.title, link: ref.link, snippet: ref.snippet, reference_index: refs.length + 1 });
          kinds.push(ref.kind);
          byLink.set(ref.link, n);
        }
        byBrand.set(sentence.brand, [...(byBrand.get(sentence.brand) ?? []), n]);
      } else {
        // Cite again what was cited about the same brand, as engines do, or any earlier source.
        const own = byBrand.get(sentence.brand);
        n = own && rng() < 0.7 ? pick(rng, own) : 1 + Math.floor(rng() * refs.length);
      }
      if (used.has(n)) continue;
      used.add(n);
      sentence.text += style.tight ? `[${n}]` : ` [${n}]`;
    }
  });
  return { refs, kinds };
}

function render(blocks: Block[], style: Style): string {
  const out: string[] = [];
  let n = 0;
  let inList = false;
  for (const b of blocks) {
    if (b.kind === 'item') {
      const body = b.sentences.map((x) => x.text).join(' ');
      const head = b.brand ? (style.list === 'bullets' ? `**${b.brand.name}:** ` : `**${b.brand.name}** — `) : '';
      const bullet = style.list === 'numbered' && b.brand ? `${++n}.` : '-';
      out.push(`${inList ? '' : '\n'}${bullet} ${head}${body}`);
      inList = true;
      continue;
    }
    if (b.kind === 'row') {
      out.push(b.text);
      continue;
    }
    inList = false;
    out.push(`\n${'sentences' in b ? b.sentences.map((x) => x.text).join(' ') : b.text}`);
  }
  return out.join('\n').trim();
}

function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = text.charCodeAt(i) <= 32;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}
