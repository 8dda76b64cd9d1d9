import { inferMarket, placeFromSite, placeName, type Inferred } from './infer.js';
import type { Market, TopicKey } from './markets.js';
import { BRAND_ONLY, GENERIC, GENERIC_AUDIENCES, LOCAL, PRODUCT, SOFTWARE, type Intent, type Template } from './templates.js';
import { builtinEnrichAction, builtinWordRecommendation } from './builtin-actions.js';
import { builtinDraft, builtinFinal, builtinOutline } from './builtin-article.js';
import { builtinSuggestEdits } from './builtin-edits.js';
import { builtinForumComment } from './builtin-forum.js';
import type { SuggestInput, SuggestedPrompt, SuggestedTopic, Suggestions, Writer } from './types.js';

// The writer used when no model is configured (docs/self-hosting.md). It infers the
// brand's market from its site and fills templated buyer questions, so the same input
// always gives the same prompts. Most prompts do not name the brand: they measure whether
// an engine brings the brand up on its own. English only.

interface Candidate {
  text: string;
  intent: Intent;
  topic: TopicKey;
  mentionsBrand: boolean;
}

interface Plan {
  templates: Template[];
  values: Record<string, string[]>;
  topics: Record<TopicKey, [string, string]>;
}

/** List slots whose starting value shifts from template to template (competitors do not). */
const LIST_KEYS = new Set(['aud', 'job', 'integration', 'use', 'quality', 'offer']);
/**
 * Order of intents as prompts are picked: the first three are a commercial, an
 * informational and a transactional question (the reduced bootstrap); a comparison (or,
 * without competitors, a brand question) comes fifth and eighth.
 */
const PATTERN: Intent[] = ['commercial', 'informational', 'transactional', 'commercial', 'comparison', 'informational', 'transactional', 'comparison'];
const FALLBACK: Intent[] = ['comparison', 'brand', 'commercial', 'informational', 'transactional'];

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function withArticle(noun: string): string {
  const first = noun.split(' ')[0];
  const acronym = /^[A-Z]{2,}$/.test(first);
  const an = acronym ? /^[AEFHILMNORSX]/.test(first) : /^[aeiou]/i.test(first);
  return `${an ? 'an' : 'a'} ${noun}`;
}

function marketPlan(market: Market, loc: string | null): Plan {
  const base = { topics: market.topics };
  switch (market.kind) {
    case 'software':
      return {
        ...base,
        templates: SOFTWARE,
        values: {
          tool: [market.tool], tools: [market.tools], a_tool: [market.aTool ?? withArticle(market.tool)],
          aud: market.audiences, job: market.jobs, integration: market.integrations,
        },
      };
    case 'product':
      return { ...base, templates: PRODUCT, values: { items: [market.items], makers: [market.makers], use: market.uses, quality: market.qualities } };
    case 'local':
      return {
        ...base,
        templates: LOCAL,
        values: {
          place: [market.place], a_place: [withArticle(market.place)], places: [market.places],
          offer: market.offers, where: [loc ? `in ${loc}` : 'near me'],
          order: [market.booked ? 'book' : 'order'], from: [market.booked ? 'with' : 'from'],
        },
      };
  }
}

function planFor(inferred: Inferred, brandName: string, loc: string | null): Plan {
  if (inferred.kind === 'catalogue') return marketPlan(inferred.market, loc);
  if (inferred.kind === 'phrase') {
    const o = inferred.offering;
    return {
      templates: GENERIC,
      values: { offering: [o] },
      topics: {
        choose: [capitalize(o), `Which companies people recommend for ${o}.`],
        use: [`Choosing ${o}`, `What to look for in ${o} and how providers differ.`],
        buy: [`${capitalize(o)} prices`, `What ${o} cost and where to get them.`],
      },
    };
  }
  return {
    templates: BRAND_ONLY,
    values: { aud: GENERIC_AUDIENCES },
    topics: {
      choose: [`${brandName} reputation`, `How answer engines describe ${brandName} and who they compare it with.`],
      use: [`${brandName} reviews`, `What customers say about ${brandName}, its strengths and weaknesses.`],
      buy: [`${brandName} pricing`, `What ${brandName} costs and whether it is worth it.`],
    },
  };
}

/** Every way to fill a template; list slots start at `rotation` so templates vary. */
function expand(text: string, values: Record<string, string[]>, rotation: number): string[] {
  const m = text.match(/\{(\w+)\}/);
  if (!m) return [text];
  const key = m[1];
  const options = values[key] ?? [];
  if (options.length === 0) return [];
  const shift = LIST_KEYS.has(key) ? rotation % options.length : 0;
  const ordered = [...options.slice(shift), ...options.slice(0, shift)];
  return ordered.flatMap((value) => {
    // {comp2} takes the competitors after {comp}: each pair once.
    const next = key === 'comp' ? { ...values, comp2: options.slice(options.indexOf(value) + 1) } : values;
    return expand(text.replaceAll(`{${key}}`, value), next, rotation);
  });
}

function candidatePools(plan: Plan, brandName: string): Map<Intent, Candidate[]> {
  const pools = new Map<Intent, Candidate[]>();
  const brand = new RegExp(`(^|[^\\p{L}\\p{N}])${brandName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}\\p{N}])`, 'iu');
  const byIntent = new Map<Intent, Template[]>();
  for (const tpl of plan.templates) byIntent.set(tpl.intent, [...(byIntent.get(tpl.intent) ?? []), tpl]);
  for (const [intent, templates] of byIntent) {
    const expansions = templates.map((tpl, i) =>
      expand(tpl.text, plan.values, i).map((text) => ({ text: capitalize(text), intent, topic: tpl.topic, mentionsBrand: brand.test(text) })),
    );
    // Round-robin over templates: one of each kind of question before any repeats.
    const pool: Candidate[] = [];
    for (let row = 0; expansions.some((e) => row < e.length); row++) {
      for (const e of expansions) if (row < e.length) pool.push(e[row]);
    }
    pools.set(intent, pool);
  }
  return pools;
}

function pick(pools: Map<Intent, Candidate[]>, count: number): Candidate[] {
  const chosen: Candidate[] = [];
  const seen = new Set<string>();
  const brandCap = Math.max(1, Math.floor(count / 5));
  let brandUsed = 0;
  const take = (intent: Intent, capped: boolean): Candidate | null => {
    for (const c of pools.get(intent) ?? []) {
      if (seen.has(c.text.toLowerCase())) continue;
      if (capped && c.mentionsBrand && brandUsed >= brandCap) continue;
      return c;
    }
    return null;
  };
  for (let slot = 0; chosen.length < count; slot++) {
    const preferred = PATTERN[slot % PATTERN.length];
    const order = [preferred, ...FALLBACK.filter((i) => i !== preferred)];
    let found: Candidate | null = null;
    for (const capped of [true, false]) {
      for (const intent of order) if (!found) found = take(intent, capped);
      if (found) break;
    }
    if (!found) throw new RangeError(`The built-in writer can write only ${chosen.length} distinct prompts for this brand, not ${count}`);
    seen.add(found.text.toLowerCase());
    if (found.mentionsBrand) brandUsed++;
    chosen.push(found);
  }
  return chosen;
}

/** The built-in writer's suggestions, synchronously (same input, same output). */
export function builtinSuggestions(input: SuggestInput): Suggestions {
  const brandName = input.brandName.trim();
  if (!brandName) throw new RangeError('brandName is empty');
  if (!Number.isInteger(input.count) || input.count < 1) throw new RangeError(`count must be a positive integer, got ${input.count}`);
  const inferred = inferMarket(brandName, input.site);
  const isLocal = inferred.kind === 'catalogue' && inferred.market.kind === 'local';
  const loc = (isLocal ? placeFromSite(input.site) : null) ?? placeName(input.location);
  const plan = planFor(inferred, brandName, loc);
  // Brand questions are the last resort of every plan (the brand-mention cap keeps them rare).
  if (plan.templates !== BRAND_ONLY) plan.templates = [...plan.templates, ...BRAND_ONLY.filter((t) => t.intent === 'brand')];
  const competitors = [...new Set((input.competitors ?? []).map((c) => c.trim()).filter((c) => c && c.toLowerCase() !== brandName.toLowerCase()))];
  plan.values = { aud: GENERIC_AUDIENCES, ...plan.values, brand: [brandName], comp: competitors, loc: loc ? [loc] : [] };

  const chosen = pick(candidatePools(plan, brandName), input.count);
  const topics: SuggestedTopic[] = [];
  const prompts: SuggestedPrompt[] = chosen.map((c) => {
    const [name, description] = plan.topics[c.topic];
    if (!topics.some((t) => t.name === name)) topics.push({ name, description });
    return { topic: name, content: c.text };
  });
  return { topics, prompts };
}

export function createBuiltinWriter(): Writer {
  return {
    name: 'builtin',
    builtIn: true,
    suggestTopicsAndPrompts: async (input) => builtinSuggestions(input),
    enrichAction: async (input) => builtinEnrichAction(input),
    wordRecommendation: async (input) => builtinWordRecommendation(input),
    suggestEdits: async (input) => builtinSuggestEdits(input),
    forumComment: async (input) => builtinForumComment(input),
    writeOutline: async (input) => builtinOutline(input),
    writeDraft: async (input) => builtinDraft(input),
    writeFinal: async (input) => builtinFinal(input),
  };
}
