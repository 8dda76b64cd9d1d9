// What the analysis model is asked (src/analysis/README.md, "Model-based analysis"): the
// sentiment an answer expresses toward each brand the lexicon found in it. The rules are the
// labelling rules of the team's corpus (test/fixtures/analysis/README.md, "Labelling rules"),
// the same a person labelling the held-out corpus followed; nothing here was written from
// the held-out answers or their labels.

export const SENTIMENT_SYSTEM_PROMPT =
  'You read answers that AI assistants (ChatGPT, Perplexity, Gemini, Claude, Google AI answers) gave to ' +
  "a buyer's question, for a brand-monitoring tool. For each brand you are given, you judge the sentiment " +
  'the answer expresses toward that brand, as a careful analyst reads it. You reply with JSON only.';

export const SENTIMENT_TASK = [
  'For every brand in `brands` (the answer names each of them, by its name or an alias), give one item:',
  '- `name`: the brand\'s name exactly as given in `brands`;',
  '- `band`: `positive`, `neutral` or `negative`: what the answer says of that brand, not the tone of the sentence or of the answer;',
  '- `evidence`: the words of the answer that carry the judgement, copied exactly, at most 200 characters; an empty string when the band is neutral because nothing evaluative is said of the brand.',
  'How to judge:',
  '- Facts and features are neutral: "offers a free plan", "popular with agencies", "charges per user", a plain description of what a product does, a price, a specification.',
  '- Praise and blame of the same weight are neutral; a hedge alone ("may suit small teams", "could be a good fit") is neutral.',
  '- Praise put with a negation is praise ("isn\'t hard to learn", "won\'t let you down"); praise denied is blame ("isn\'t cheap").',
  '- In a comparison the winner is praised ("faster than most rivals"); the brand it is compared with gets nothing unless something is said of it. In a sentence about two brands, each gets what is said of it ("X is a better fit, while Y is clunky": X positive, Y negative).',
  '- Lists of pros and cons, and the lines under a heading that names one brand, speak of that brand even when they do not repeat its name.',
  '- An explicit recommendation or verdict ("the best choice for most teams", "our top pick", "avoid it") is praise or blame; being listed, ranked or described is not.',
  '- A heading, a table\'s name cell or a link says nothing by itself.',
  '- Weigh everything the answer says of the brand; when praise clearly outweighs blame (or the reverse), the band is the heavier side.',
].join('\n');

/** Answers longer than this are cut (with a note) before they are sent: a bound on the tokens an answer costs. */
export const MAX_ANSWER_CHARS = 24_000;

export const BANDS = ['positive', 'neutral', 'negative'] as const;

/**
 * The reply's JSON schema, as OpenAI's strict structured outputs take it (every property
 * required, no others). The same for every request, so a provider that compiles schemas
 * compiles it once.
 */
export const SENTIMENT_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    brands: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'The brand, exactly as named in the input `brands`' },
          band: { type: 'string', enum: [...BANDS] },
          evidence: { type: 'string', description: 'Words of the answer that carry the judgement, copied exactly; empty when nothing evaluative is said' },
        },
        required: ['name', 'band', 'evidence'],
        additionalProperties: false,
      },
    },
  },
  required: ['brands'],
  additionalProperties: false,
};

export const SENTIMENT_SCHEMA_NAME = 'brand_sentiments';
