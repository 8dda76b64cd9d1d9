import { vaderCompound } from './vader.js';

// How a sentence (or a clause, or a line of a section) is read for sentiment in a product
// answer: VADER on what is left once the parts that say nothing of the product are taken out
// (labels, fit and spec fields, shopping cards, quoted terms, the reader's side of a
// condition), and a hedge weighing the rest down. The rules and their examples are in
// README.md ("Sentiment").

// A hedge ("may suit small teams", "could be a good fit", "some users find it slow") says
// little: the clause's sentiment counts at HEDGE_WEIGHT, so hedged praise alone stays near
// neutral while plain praise beside it still counts in full.
const HEDGE = /\b(?:may|might|could|perhaps|possibly|arguably|reportedly|some (?:users|reviewers|teams) (?:say|find|report|feel))\b/i;
const HEDGE_WEIGHT = 0.3;
// A fit field says whom a product suits, not how good it is: "Best for: small teams that
// want a clean interface", "Ideal for …:", "Best if you expect to scale:" read neutral to
// the end of the sentence. It opens a field: the start of the text, or after a list marker,
// a table bar, a colon ("- Best if: …" in a list whose line breaks were collapsed) or a
// copula ("Brevio is best for: …"), not any phrase ("the monitors recommended for office
// work in 2025: …" is no field).
const FIT_LABEL = /(?:^|(?<![\p{L}\p{N}])[-*\u2022|:>#]\s*|\s[-\u2013]\s|\b(?:is|are|it['\u2019]s)\s+)[\s*_]*(?:best|ideal|great|good|perfect|recommended|suited|suitable)\s+(?:for|if|when)\b[^:.!?]{0,60}:/iu;
const FIT_WORD = /\b(?:for|if|when)\b/i;
const SPEC_WORD = /eatures|pecs|pecification/;
// A spec field ("Features: 9 speeds, 10 attachments…", "Key specs:") lists what a product has.
const SPEC_LABEL = /(?:^|(?<![\p{L}\p{N}])[-*\u2022|>#]\s*|\s[-\u2013]\s)[\s*_]*(?:[\p{L}-]+\s+){0,2}(?:features|specs|specifications)[*_\s]*:/iu;
// Any other label that opens a field names what follows and says nothing itself: "Best
// Value:", "Why it's great:", "Top Picks:", "Other Strong Contenders:", "Cons:" (what
// follows it is read).
const LABEL = /(?:^|(?<![\p{L}\p{N}])[-*\u2022|>#]\s*|\s[-\u2013]\s)[\s*_]*(?:[^\s:.!?;|]+[ \t*_]+){0,8}[^\s:.!?;|]*[*_]*:(?![/\d])/gu;
// …but a clause with a verb before its colon is a sentence, not a label ("X is great for teams: …")
const CLAUSE_VERB = /\b(?:is|are|was|were|be|has|have|had|offers?|provides?|makes?|gives?|can|will|would|should|lets?|does|do)\b/i;
const unlabel = (m: string) => (CLAUSE_VERB.test(m) ? m : ' ');
// A fit phrase in prose ("making it ideal for side sleepers seeking comfort", "perfect for
// remote work setups") says whom it suits: read as the mild "ideal", without the words
// about the reader that follow ("seeking comfort"), to the end of its clause.
const FIT_PHRASE = /\b(?:ideal|perfect|suitable|suited|well-suited|tailored|designed)\s+for\b[^,;.!?]*/gi;
// A shopping card glued into the text ("Arlo Pro 5S 2K Spotlight Security Camera$119.99$179.994.0(865)"):
// a name, prices and a rating, no word about the product; what comes before it in the sentence is its name.
const CARD = /\$\d[\d,]*(?:\.\d\d)?[^()]{0,30}?\d\.\d\(\d[\d.]*k?\+?\)/g;
// A short quoted phrase is a term or a name ('a "Fit Liberty" policy', 'recommended as
// “best overall”'), mentioned rather than said.
const QUOTED = /["\u201c][^"\u201c\u201d\n]{1,40}["\u201d]/g;
// The reader's side of a condition ("if you want more flexibility", "if you're comfortable
// and want to cut costs"): what the reader wants or feels, not what the product is.
const IF_YOU = /\b(?:if you(?:['\u2019]re)?|for (?:those|anyone|people|users|someone)(?: who| seeking| looking| wanting| that))\b[^,;:.!?()]*/gi;
// A fit cell of a table ("| Best for Gmail/Google Workspace teams | NetHunt | Built to…"): whom it suits.
const CELL_FIT = /(?:^|\|)[\s*_]*(?:best|ideal|great|good|perfect|recommended|suited|suitable)\s+(?:for|if|when)\b[^|:.!?]{0,60}(?=\|)/gi;
// A source chip of ChatGPT's web app, a reference-style link ("([Good Housekeeping][2])",
// "[Best Products][4]"): the name of a source, not a word about the product.
const SOURCE_CHIP = /\[[^[\]\n]{1,100}\]\[\d{1,3}\]/g;
/** VADER compound [-1, 1] of `raw` read as above. */
export function sentenceCompound(raw: string): number {
  // non-breaking hyphens ("consumer‑friendly") are hyphens
  let text = raw.indexOf('\u2011') === -1 ? raw : raw.replace(/\u2011/g, '-');
  if (text.indexOf('][') !== -1) text = text.replace(SOURCE_CHIP, ' ');
  // the patterns below are costly: each runs only on text with the characters it needs
  const colon = text.indexOf(':') !== -1;
  const fitWord = FIT_WORD.test(text);
  const fit = colon && fitWord ? FIT_LABEL.exec(text) : null;
  if (fit) text = text.slice(0, fit.index);
  if (fitWord && text.indexOf('|') !== -1) text = text.replace(CELL_FIT, '|');
  const spec = colon && SPEC_WORD.test(text) ? SPEC_LABEL.exec(text) : null;
  if (spec) text = text.slice(0, spec.index);
  if (text.indexOf('$') !== -1) {
    CARD.lastIndex = 0;
    let last = -1;
    for (let m = CARD.exec(text); m; m = CARD.exec(text)) last = m.index + m[0].length;
    if (last >= 0) text = text.slice(last);
  }
  if (text.indexOf(':') !== -1) text = text.replace(LABEL, unlabel);
  const hasFor = text.indexOf('for ') !== -1;
  if (hasFor) text = text.replace(FIT_PHRASE, ' ideal ');
  if (text.indexOf('"') !== -1 || text.indexOf('\u201c') !== -1) text = text.replace(QUOTED, ' ');
  if (hasFor || text.indexOf('f you') !== -1) text = text.replace(IF_YOU, ' ');
  const c = vaderCompound(text);
  return c !== 0 && HEDGE.test(text) ? c * HEDGE_WEIGHT : c;
}
