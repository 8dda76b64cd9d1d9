import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { LEXICON_ADDITIONS } from './data/lexicon-additions';

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
const C_INCR = 0.733;
const N_SCALAR = -0.74;

const NEGATE = new Set([
  'aint', 'arent', 'cannot', 'cant', 'couldnt', 'darent', 'didnt', 'doesnt', "ain't", "aren't", "can't", "couldn't",
  "daren't", "didn't", "doesn't", 'dont', 'hadnt', 'hasnt', 'havent', 'isnt', 'mightnt', 'mustnt', 'neither',
  "don't", "hadn't", "hasn't", "haven't", "isn't", "mightn't", "mustn't", 'neednt', "needn't", 'never', 'none',
  'nope', 'nor', 'not', 'nothing', 'nowhere', 'oughtnt', 'shant', 'shouldnt', 'uhuh', 'wasnt', 'werent', "oughtn't",
  "shan't", "shouldn't", 'uh-uh', "wasn't", "weren't", 'without', 'wont', 'wouldnt', "won't", "wouldn't", 'rarely',
  'seldom', 'despite',
]);

const BOOSTERS = new Map<string, number>();
for (const w of [
  'absolutely', 'amazingly', 'awfully', 'completely', 'considerably', 'decidedly', 'deeply', 'effing', 'enormously',
  'entirely', 'especially', 'exceptionally', 'extremely', 'fabulously', 'flipping', 'flippin', 'fricking', 'frickin',
  'frigging', 'friggin', 'fully', 'fucking', 'greatly', 'hella', 'highly', 'hugely', 'incredibly', 'intensely',
  'majorly', 'more', 'most', 'particularly', 'purely', 'quite', 'really', 'remarkably', 'so', 'substantially',
  'thoroughly', 'totally', 'tremendously', 'uber', 'unbelievably', 'unusually', 'utterly', 'very',
]) BOOSTERS.set(w, B_INCR);
for (const w of [
  'almost', 'barely', 'hardly', 'just enough', 'kind of', 'kinda', 'kindof', 'kind-of', 'less', 'little',
  'marginally', 'occasionally', 'partly', 'scarcely', 'slightly', 'somewhat', 'sort of', 'sorta', 'sortof', 'sort-of',
]) BOOSTERS.set(w, B_DECR);

const IDIOMS = new Map<string, number>([
  ['the shit', 3], ['the bomb', 3], ['bad ass', 1.5], ['yeah right', -2], ['cut the mustard', 2],
  ['kiss of death', -1.5], ['hand to mouth', -2],
]);

let lexicon: Map<string, number> | null = null;

/**
 * The VADER lexicon (about 7,500 words and emoticons, read once from the package) plus the
 * product-review words of data/lexicon-additions.ts; `plain` leaves the additions out.
 */
export function vaderLexicon(plain = false): Map<string, number> {
  if (plain) return readLexicon();
  if (lexicon) return lexicon;
  const map = readLexicon();
  for (const [w, v] of Object.entries(LEXICON_ADDITIONS)) map.set(w, v);
  lexicon = map;
  return map;
}

function readLexicon(): Map<string, number> {
  const require = createRequire(import.meta.url);
  const file = path.join(path.dirname(require.resolve('vader-sentiment/package.json')), 'vader_lexicon.txt');
  const map = new Map<string, number>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const tab = line.indexOf('\t');
    if (tab <= 0) continue;
    const tab2 = line.indexOf('\t', tab + 1);
    map.set(line.slice(0, tab), Number(line.slice(tab + 1, tab2 === -1 ? undefined : tab2)));
  }
  return map;
}

// ASCII punctuation, curly quotes, dashes and the ellipsis
function isPunct(c: number): boolean {
  return (
    (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126) ||
    (c >= 0x2013 && c <= 0x2014) || (c >= 0x2018 && c <= 0x201d) || c === 0x2026
  );
}

/** Words as VADER sees them: split on white space, one-character tokens dropped, outer punctuation stripped. */
function vaderWords(text: string): string[] {
  const out: string[] = [];
  const len = text.length;
  let i = 0;
  while (i < len) {
    while (i < len && isSpaceCode(text.charCodeAt(i))) i++;
    const start = i;
    while (i < len && !isSpaceCode(text.charCodeAt(i))) i++;
    if (i - start <= 1) continue;
    let a = start;
    let b = i;
    while (a < b && isPunct(text.charCodeAt(a))) a++;
    while (b > a && isPunct(text.charCodeAt(b - 1))) b--;
    let w = b - a > 1 ? text.slice(a, b) : text.slice(start, i);
    if (w.indexOf('\u2019') !== -1) w = w.replace(/\u2019/g, "'");
    out.push(w);
  }
  return out;
}

function isSpaceCode(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 0xa0 || c === 0x3000 || (c >= 0x2000 && c <= 0x200a);
}

/** Python's str.isupper for ASCII words: an upper-case letter and no lower-case one. */
function isUpperWord(w: string): boolean {
  let upper = false;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    if (c >= 97 && c <= 122) return false;
    if (c >= 65 && c <= 90) upper = true;
  }
  return upper;
}

function isNegated(w: string): boolean {
  return NEGATE.has(w) || w.includes("n't");
}

/** VADER compound score of a text, in [-1, 1]; `lex` defaults to VADER's lexicon with the additions. */
export function vaderCompound(text: string, lex: Map<string, number> = lexicon ?? vaderLexicon()): number {
  const words = vaderWords(text);
  const n = words.length;
  if (n === 0) return 0;
  const lows = words.map((w) => w.toLowerCase());
  let upper = 0;
  for (const w of words) if (isUpperWord(w)) upper++;
  const capDiff = upper > 0 && upper < n;
  const sentiments = new Array<number>(n).fill(0);
  let butAt = -1;
  for (let i = 0; i < n; i++) {
    const lw = lows[i];
    if (butAt === -1 && (words[i] === 'but' || words[i] === 'BUT')) butAt = i;
    if (BOOSTERS.has(lw) || (lw === 'kind' && i < n - 1 && lows[i + 1] === 'of')) continue;
    let v = lex.get(lw);
    if (v === undefined) continue;
    if (capDiff && isUpperWord(words[i])) v += v > 0 ? C_INCR : -C_INCR;
    for (let k = 0; k < 3; k++) {
      if (i <= k) break;
      const prev = lows[i - k - 1];
      if (lex.has(prev)) continue;
      let s = scalar(prev, words[i - k - 1], v, capDiff);
      if (s !== 0 && k === 1) s *= 0.95;
      else if (s !== 0 && k === 2) s *= 0.9;
      v += s;
      v = neverCheck(v, words, lows, k, i);
      if (k === 2 && nearIdiom(words, i)) v = idiomsCheck(v, words, i);
    }
    v = leastCheck(v, lows, lex, i);
    sentiments[i] = v;
  }
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const s = butAt === -1 ? sentiments[i] : i < butAt ? sentiments[i] * 0.5 : i > butAt ? sentiments[i] * 1.5 : sentiments[i];
    sum += s;
  }
  if (sum === 0) return 0;
  const amp = punctuationEmphasis(text);
  sum += sum > 0 ? amp : -amp;
  const c = sum / Math.sqrt(sum * sum + 15);
  return c < -1 ? -1 : c > 1 ? 1 : c;
}

function scalar(lower: string, word: string, valence: number, capDiff: boolean): number {
  let s = BOOSTERS.get(lower);
  if (s === undefined) return 0;
  if (valence < 0) s = -s;
  if (capDiff && isUpperWord(word)) s += valence > 0 ? C_INCR : -C_INCR;
  return s;
}

function neverCheck(v: number, words: string[], lows: string[], k: number, i: number): number {
  if (k === 0) return isNegated(lows[i - 1]) ? v * N_SCALAR : v;
  if (k === 1) {
    if (words[i - 2] === 'never' && (words[i - 1] === 'so' || words[i - 1] === 'this')) return v * 1.5;
    return isNegated(lows[i - 2]) ? v * N_SCALAR : v;
  }
  if ((words[i - 3] === 'never' && (words[i - 2] === 'so' || words[i - 2] === 'this')) || words[i - 1] === 'so' || words[i - 1] === 'this') {
    return v * 1.25;
  }
  return isNegated(lows[i - 3]) ? v * N_SCALAR : v;
}

// A word of every idiom and of the two-word boosters: without one nearby, idiomsCheck changes nothing.
const IDIOM_WORDS = new Set(['shit', 'bomb', 'ass', 'yeah', 'mustard', 'death', 'mouth', 'kind', 'sort', 'enough']);

function nearIdiom(w: string[], i: number): boolean {
  for (let k = Math.max(0, i - 3); k <= i + 2 && k < w.length; k++) if (IDIOM_WORDS.has(w[k])) return true;
  return false;
}

function idiomsCheck(v: number, w: string[], i: number): number {
  const seqs = [`${w[i - 1]} ${w[i]}`, `${w[i - 2]} ${w[i - 1]} ${w[i]}`, `${w[i - 2]} ${w[i - 1]}`, `${w[i - 3]} ${w[i - 2]} ${w[i - 1]}`, `${w[i - 3]} ${w[i - 2]}`];
  for (const s of seqs) {
    const idiom = IDIOMS.get(s);
    if (idiom !== undefined) {
      v = idiom;
      break;
    }
  }
  if (w.length - 1 > i) {
    const idiom = IDIOMS.get(`${w[i]} ${w[i + 1]}`);
    if (idiom !== undefined) v = idiom;
  }
  if (w.length - 1 > i + 1) {
    const idiom = IDIOMS.get(`${w[i]} ${w[i + 1]} ${w[i + 2]}`);
    if (idiom !== undefined) v = idiom;
  }
  if (BOOSTERS.has(seqs[4]) || BOOSTERS.has(seqs[2])) v += B_DECR;
  return v;
}

function leastCheck(v: number, lows: string[], lex: Map<string, number>, i: number): number {
  if (i > 0 && lows[i - 1] === 'least' && !lex.has('least')) {
    if (i > 1 && (lows[i - 2] === 'at' || lows[i - 2] === 'very')) return v;
    return v * N_SCALAR;
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
