import { JA_VALENCES, PHRASE_VALENCES } from './data/lexicon-additions.js';
import { BOOSTER_DAMPENERS, BOOSTER_INCREMENTS, NEGATIONS, SPECIAL_IDIOMS } from './data/vader-words.js';
import { hashLower } from './doc.js';
import { HashedLexicon, Words, vaderLexicon } from './vader-input.js';

export { vaderLexicon } from './vader-input.js';

/**
 * VADER (Hutto & Gilbert, 2014) compound score, on the lexicon shipped by the
 * `vader-sentiment` package. The rules follow that package's port (boosters, ALL-CAPS
 * emphasis, negation in the three words before a sentiment word, "never so", "least",
 * "but", idioms, ! and ? emphasis), with two changes: punctuation is stripped from both
 * ends of a word (so markdown `**great**` is "great"), and nothing is allocated per word
 * beyond the split. Tests compare it with the package on plain sentences.
 */

const B_INCR = 0.293;
const B_DECR = -0.293;
const NEGATE = new Set(NEGATIONS);
const BOOSTERS = new Map<string, number>([
  ...BOOSTER_INCREMENTS.map((w) => [w, B_INCR] as [string, number]),
  ...BOOSTER_DAMPENERS.map((w) => [w, B_DECR] as [string, number]),
]);
const IDIOMS = new Map<string, number>(Object.entries(SPECIAL_IDIOMS));
const C_INCR = 0.733;
const N_SCALAR_VADER = -0.74;


const hashed = new WeakMap<Map<string, number>, HashedLexicon>();
const HASHED_BOOSTERS = new HashedLexicon(BOOSTERS);
const H_KIND = hashLower('kind');
const H_OF = hashLower('of');
const H_BUT = hashLower('but');
const H_LEAST = hashLower('least');

const NEGATE_HASHES = new Set([...NEGATE].map(hashLower));

// Phrases by the hash of their first word.
const PHRASES = new Map<number, Array<{ words: string[]; v: number }>>();
for (const [p, v] of Object.entries(PHRASE_VALENCES)) {
  const words = p.split(' ');
  const h = hashLower(words[0]);
  PHRASES.set(h, [...(PHRASES.get(h) ?? []), { words, v }].sort((a, b) => b.words.length - a.words.length));
}
// Words that set praise against blame in one sentence ("strong, but expensive").
const CONTRASTS = new Set(['but', 'though', 'although', 'however', 'yet', 'while', 'whereas'].map(hashLower));
/** Weight of a balanced sentence (praise and blame joined by a contrast word): it reads as neither. */
const BALANCED = 0.4;

/** The phrase of PHRASE_VALENCES starting at word i: its length, and its valence in `phraseV`. */
let phraseV = 0;
function phraseAt(w: Words, i: number): number {
  const list = PHRASES.get(w.hash[i]);
  if (!list) return 0;
  for (const p of list) {
    if (i + p.words.length > w.n) continue;
    let ok = true;
    for (let k = 0; k < p.words.length && ok; k++) ok = w.lowAt(i + k) === p.words[k];
    if (ok) {
      phraseV = p.v;
      return p.words.length;
    }
  }
  return 0;
}

const H_NO = hashLower('no');
const H_LESS = hashLower('less');
// Product reading (the default lexicon): "no" negates ("no hidden fees"), and a negated
// blame word flips whole ("never slow" is as much praise as "slow" is blame).
let productRules = false;

// Words that take harm away ("avoids breaches", "minimizes the risk", "protection from
// breaches"): in product answers they negate the blame word after them, as "not" would.
const REDUCERS = new Set(['avoid', 'avoids', 'avoiding', 'avoided', 'minimize', 'minimizes', 'minimizing', 'minimise',
  'minimises', 'minimising', 'reduce', 'reduces', 'reducing', 'prevent', 'prevents', 'preventing', 'eliminates', 'eliminate',
  'protect', 'protects', 'protecting', 'protection', 'guards', 'withstand', 'withstands', 'resist', 'resists']);
const REDUCER_HASHES = new Set([...REDUCERS].map(hashLower));
function isReducer(w: Words, k: number): boolean {
  return REDUCER_HASHES.has(w.hash[k]) && REDUCERS.has(w.lowAt(k));
}
function blameWithin3(w: Words, hl: HashedLexicon, i: number): boolean {
  for (let k = i + 1; k <= i + 3 && k < w.n; k++) {
    const v = hl.get(w, k);
    if (v !== undefined) return v < 0;
  }
  return false;
}

/** Word k is a negation ("not", "never", "without"…) or contains n't. */
function isNegated(w: Words, k: number): boolean {
  if (k < 0) return false;
  if (NEGATE_HASHES.has(w.hash[k]) && NEGATE.has(w.lowAt(k))) return true;
  if (productRules && w.hash[k] === H_NO && w.lowAt(k) === 'no') return true;
  if (productRules && isReducer(w, k)) return true;
  // "less secure", "less polished": a comparison's blame in product answers ("less expensive" is praise)
  if (productRules && w.hash[k] === H_LESS && w.lowAt(k) === 'less') return true;
  const t = w.text;
  for (let j = w.from[k] + 1; j < w.to[k] - 1; j++) {
    const c = t.charCodeAt(j);
    if ((c === 39 || c === 0x2019) && t.charCodeAt(j - 1) === 110 && t.charCodeAt(j + 1) === 116) return true;
  }
  return false;
}

function rawIs(w: Words, k: number, word: string): boolean {
  return k >= 0 && k < w.n && w.to[k] - w.from[k] === word.length && w.rawAt(k) === word;
}

/**
 * VADER compound score of a text, in [-1, 1]; `lex` defaults to VADER's lexicon with the
 * additions. With that default lexicon two reading rules for product answers apply too:
 * the phrases of PHRASE_VALENCES, and a sentence that sets praise against blame with a
 * contrast word, one praise word for each blame word ("strong reporting, but expensive"),
 * is balanced: their sum, weighted 0.4.
 */
export function vaderCompound(text: string, lex: Map<string, number> = vaderLexicon()): number {
  const product = lex === vaderLexicon();
  productRules = product;
  let hl = hashed.get(lex);
  if (!hl) {
    hl = new HashedLexicon(lex);
    hashed.set(lex, hl);
  }
  const w = new Words(text, product);
  const n = w.n;
  if (n === 0) return 0;
  let upper = 0;
  for (let i = 0; i < n; i++) if (w.upper[i]) upper++;
  const capDiff = upper > 0 && upper < n;
  let sum = 0;
  let pos = 0;
  let neg = 0;
  let nPos = 0;
  let nNeg = 0;
  let contrast = false;
  let skipTo = 0;
  let butAt = -1;
  for (let i = 0; i < n && butAt === -1; i++) if (w.hash[i] === H_BUT && (w.rawAt(i) === 'but' || w.rawAt(i) === 'BUT')) butAt = i;
  for (let i = 0; i < n; i++) {
    if (product && CONTRASTS.has(w.hash[i])) contrast = true;
    if (i < skipTo) continue;
    if (HASHED_BOOSTERS.get(w, i) !== undefined || (w.is(i, 'kind', H_KIND) && w.is(i + 1, 'of', H_OF))) continue;
    let v = hl.get(w, i);
    // "avoids breaches": the reducer is no blame of its own when it negates the blame after it
    if (product && v !== undefined && isReducer(w, i) && blameWithin3(w, hl, i)) continue;
    if (product) {
      const len = phraseAt(w, i);
      if (len) {
        v = phraseV;
        skipTo = i + len;
      }
    }
    if (v === undefined) continue;
    if (capDiff && w.upper[i]) v += v > 0 ? C_INCR : -C_INCR;
    for (let k = 0; k < 3; k++) {
      if (i <= k) break;
      const p = i - k - 1;
      if (hl.get(w, p) !== undefined && !(product && isReducer(w, p))) continue;
      let s = scalar(w, p, v, capDiff);
      if (s !== 0 && k === 1) s *= 0.95;
      else if (s !== 0 && k === 2) s *= 0.9;
      v += s;
      v = neverCheck(v, w, k, i);
      if (k === 2 && nearIdiom(w, i)) v = idiomsCheck(v, w, i);
    }
    v = leastCheck(v, w, hl, i);
    sum += butAt === -1 || i === butAt ? v : i < butAt ? v * 0.5 : v * 1.5;
    if (v > 0) {
      pos += v;
      nPos++;
    } else {
      neg += v;
      nNeg++;
    }
  }
  if (contrast && nPos > 0 && nPos === nNeg) sum = (pos + neg) * BALANCED;
  if (product && CJK.test(text)) sum += cjkValence(text);
  if (sum === 0) return 0;
  const amp = punctuationEmphasis(text);
  sum += sum > 0 ? amp : -amp;
  const c = sum / Math.sqrt(sum * sum + 15);
  return c < -1 ? -1 : Math.min(c , 1);
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff]/;
// Japanese entries by their first character, longest first.
const JA = new Map<string, Array<[string, number]>>();
for (const [word, v] of Object.entries(JA_VALENCES)) {
  const list = JA.get(word[0]) ?? [];
  list.push([word, v]);
  list.sort((a, b) => b[0].length - a[0].length);
  JA.set(word[0], list);
}
const JA_NEGATION = /^(?:では|じゃ|く|に)?(?:ない|なく|ありません|ません|なかった)/;

/** Sum of the Japanese sentiment words of `text` (JA_VALENCES), negated ones flipped. */
function cjkValence(text: string): number {
  let sum = 0;
  for (let i = 0; i < text.length; ) {
    const list = JA.get(text[i]);
    const hit = list?.find(([word]) => text.startsWith(word, i));
    if (!hit) {
      i++;
      continue;
    }
    const [word, v] = hit;
    i += word.length;
    const negated = JA_NEGATION.test(text.slice(i, i + 6));
    sum += negated ? (v < 0 ? -v : v * N_SCALAR_VADER) : v;
  }
  return sum;
}

function scalar(w: Words, p: number, valence: number, capDiff: boolean): number {
  let s = HASHED_BOOSTERS.get(w, p);
  if (s === undefined) return 0;
  if (valence < 0) s = -s;
  if (capDiff && w.upper[p]) s += valence > 0 ? C_INCR : -C_INCR;
  return s;
}

function neverCheck(v: number, w: Words, k: number, i: number): number {
  const N_SCALAR = productRules && v < 0 ? -1 : N_SCALAR_VADER;
  if (k === 0) return isNegated(w, i - 1) ? v * N_SCALAR : v;
  if (k === 1) {
    if (rawIs(w, i - 2, 'never') && (rawIs(w, i - 1, 'so') || rawIs(w, i - 1, 'this'))) return v * 1.5;
    return isNegated(w, i - 2) ? v * N_SCALAR : v;
  }
  if ((rawIs(w, i - 3, 'never') && (rawIs(w, i - 2, 'so') || rawIs(w, i - 2, 'this'))) || rawIs(w, i - 1, 'so') || rawIs(w, i - 1, 'this')) {
    return v * 1.25;
  }
  return isNegated(w, i - 3) ? v * N_SCALAR : v;
}

// A word of every idiom and of the two-word boosters: without one nearby, idiomsCheck changes nothing.
const IDIOM_WORDS = new Set(['shit', 'bomb', 'ass', 'yeah', 'mustard', 'death', 'mouth', 'kind', 'sort', 'enough']);

const IDIOM_HASHES = new Set([...IDIOM_WORDS].map(hashLower));

function nearIdiom(w: Words, i: number): boolean {
  for (let k = Math.max(0, i - 3); k <= i + 2 && k < w.n; k++) if (IDIOM_HASHES.has(w.hash[k]) && IDIOM_WORDS.has(w.rawAt(k))) return true;
  return false;
}

function wordOrUndefined(words: Words, j: number): string | undefined {
  return j >= 0 && j < words.n ? words.rawAt(j) : undefined;
}

function idiomsCheck(v: number, words: Words, i: number): number {
  const w = wordOrUndefined.bind(null, words);
  const seqs = [`${w(i - 1)} ${w(i)}`, `${w(i - 2)} ${w(i - 1)} ${w(i)}`, `${w(i - 2)} ${w(i - 1)}`, `${w(i - 3)} ${w(i - 2)} ${w(i - 1)}`, `${w(i - 3)} ${w(i - 2)}`];
  for (const s of seqs) {
    const idiom = IDIOMS.get(s);
    if (idiom !== undefined) {
      v = idiom;
      break;
    }
  }
  if (words.n - 1 > i) {
    const idiom = IDIOMS.get(`${w(i)} ${w(i + 1)}`);
    if (idiom !== undefined) v = idiom;
  }
  if (words.n - 1 > i + 1) {
    const idiom = IDIOMS.get(`${w(i)} ${w(i + 1)} ${w(i + 2)}`);
    if (idiom !== undefined) v = idiom;
  }
  if (BOOSTERS.has(seqs[4]) || BOOSTERS.has(seqs[2])) v += B_DECR;
  return v;
}

function leastCheck(v: number, w: Words, lex: HashedLexicon, i: number): number {
  if (i > 0 && w.is(i - 1, 'least', H_LEAST) && lex.get(w, i - 1) === undefined) {
    if (i > 1 && (w.lowAt(i - 2) === 'at' || w.lowAt(i - 2) === 'very')) return v;
    return v * N_SCALAR_VADER;
  }
  return v;
}

function punctuationEmphasis(text: string): number {
  let ep = 0;
  let qm = 0;
  for (let i = text.indexOf('!'); i !== -1 && ep < 4; i = text.indexOf('!', i + 1)) ep++;
  for (let i = text.indexOf('?'); i !== -1 && qm < 4; i = text.indexOf('?', i + 1)) qm++;
  return ep * 0.292 + (qm > 1 ? (qm <= 3 ? qm * 0.18 : 0.96) : 0);
}
