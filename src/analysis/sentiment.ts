import { CONTRAST_WORDS, LIST_JOINERS } from './data/words.js';
import { HEADING, lowerAt, type Doc } from './doc.js';
import type { Mention } from './mentions.js';
import { sectionItems } from './sections.js';
import type { BrandUnit } from './themes.js';
import { sentenceCompound as scored } from './reading.js';

const CONTRAST = new Set(CONTRAST_WORDS);
const JOINERS = new Set(LIST_JOINERS);
// contrast words whose brand is the object of a comparison, not the subject of what follows
const OBJECT_CONTRAST = new Set(['than', 'unlike', 'compared', 'versus', 'vs', 'over']);
const CLAUSE_JOINERS = new Set(['and', 'but', 'so', 'plus', 'yet']);
// words that open a list of examples ("(like iCloud Keychain or Google Password Manager)")
const EXAMPLE = new Set(['like', 'including', 'such', 'e.g', 'eg']);
// punctuation between two words that ends a clause
const CLAUSE_PUNCT = /[,;:|()\u2013\u2014]| - /;

/** How fast a list's summed items reach a verdict: one item of 0.3 reads 0.29, four 0.77. */
const LIST_ALPHA = 1;

/** VADER compound [-1, 1] → 0..100, 50 neutral. */
export function toScale(compound: number): number {
  return 50 + 50 * compound;
}

interface Segment {
  from: number; // first token
  to: number; // one past the last token
  brands: number[];
  contrast: boolean; // starts with but / while / unlike / than…
  namesOnly: boolean; // nothing but brand names and list words
}

/**
 * Sentiment of each tracked brand, 0..100 (NaN when not named): the mean over the
 * sentences that name it. A sentence naming one brand is scored whole. A sentence naming
 * several is cut into clauses at contrast words and clause punctuation; a clause made
 * only of names ("HubSpot, Zoho and…") shares the next clause, a clause without names
 * belongs to the one before it, and each brand gets the score of its own clauses.
 */
export function brandSentiments(doc: Doc, mentions: Mention[], nBrands: number, units?: BrandUnit[]): number[] {
  const sum = new Array<number>(nBrands).fill(0);
  const cnt = new Array<number>(nBrands).fill(0);
  const named = new Array<boolean>(nBrands).fill(false);
  // a sentence that says nothing of the brand (a heading, a name cell, "see HubSpot's
  // pricing") does not water down the ones that do
  const add = (b: number, compound: number) => {
    named[b] = true;
    if (compound === 0) return;
    sum[b] += toScale(compound);
    cnt[b]++;
  };
  // the names themselves are no praise or blame ("Less Annoying CRM", "Good Grips", "Super Pro")
  const text = blankNames(doc, mentions);
  for (let m = 0; m < mentions.length; ) {
    const s = mentions[m].sent;
    let e = m;
    const brands: number[] = [];
    while (e < mentions.length && mentions[e].sent === s) {
      if (!brands.includes(mentions[e].brand)) brands.push(mentions[e].brand);
      e++;
    }
    // a heading names what follows and says nothing itself ("#### 1. **Pixel 9a** – Best All-Rounder")
    const heading = (doc.flags[doc.sentTok[s]] & HEADING) !== 0;
    if (brands.length === 1 && !comparisonObject(doc, mentions, m, e)) {
      const t = text.slice(doc.sentStart[s], doc.sentEnd[s]);
      const c = heading ? 0 : scored(t);
      add(brands[0], c);
      units?.push({ brand: brands[0], sent: s, text: t, compound: c });
    } else {
      const per = new Map<number, number[]>();
      for (const [t, bs] of clauses(doc, s, mentions.slice(m, e), text)) {
        const c = heading ? 0 : scored(t);
        for (const b of bs) {
          units?.push({ brand: b, sent: s, text: t, compound: c });
          const list = per.get(b);
          if (list) list.push(c);
          else per.set(b, [c]);
        }
      }
      for (const [b, cs] of per) {
        const said = cs.filter((c) => c !== 0);
        add(b, said.length ? said.reduce((x, y) => x + y, 0) / said.length : 0);
      }
    }
    m = e;
  }
  // a list of pros and cons is read as one verdict: its items summed, as VADER sums a
  // sentence's words (four pros and two cons lean to praise; one pro and three cons to blame)
  const listed = new Map<number, number>();
  for (const item of sectionItems(doc, mentions, scored, text)) {
    units?.push(item);
    if (item.listed) listed.set(item.brand, (listed.get(item.brand) ?? 0) + item.compound);
    else add(item.brand, item.compound);
  }
  for (const [b, sum] of listed) add(b, sum / Math.sqrt(sum * sum + LIST_ALPHA));
  return sum.map((v, b) => (cnt[b] ? v / cnt[b] : named[b] ? 50 : NaN));
}

/** A mention of [m, e) comes right after "than", "unlike", "versus", "compared to/with": the brand is what another is compared with. */
function comparisonObject(doc: Doc, mentions: readonly Mention[], m: number, e: number): boolean {
  for (let k = m; k < e; k++) {
    const t = mentions[k].tok;
    if (t === doc.sentTok[mentions[k].sent]) continue;
    const w = lowerAt(doc, t - 1);
    if (OBJECT_CONTRAST.has(w) || ((w === 'to' || w === 'with') && t - 2 >= doc.sentTok[mentions[k].sent] && lowerAt(doc, t - 2) === 'compared')) return true;
  }
  return false;
}

/** `doc.clean` with the words of every mention blanked (same offsets). */
function blankNames(doc: Doc, mentions: readonly Mention[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const m of mentions) {
    const from = doc.start[m.tok];
    const to = doc.end[m.tokEnd];
    if (from < at) continue;
    parts.push(doc.clean.slice(at, from), ' '.repeat(to - from));
    at = to;
  }
  parts.push(doc.clean.slice(at));
  return parts.join('');
}

/** The clauses of sentence `s` with the brands each is about; their text is cut from `text` (default `doc.clean`). */
export function clauses(doc: Doc, s: number, mentions: Mention[], text = doc.clean): Array<[string, number[]]> {
  const first = doc.sentTok[s];
  const last = doc.sentTokEnd[s];
  const owner = new Map<number, number>();
  for (const m of mentions) for (let t = m.tok; t <= m.tokEnd; t++) owner.set(t, m.brand);

  let lastBrandTok = -1;
  for (const m of mentions) lastBrandTok = Math.max(lastBrandTok, m.tokEnd);

  const segs: Segment[] = [];
  let cur: Segment | null = null;
  let saidSomething = false; // the current clause has words after its last name
  for (let t = first; t < last; t++) {
    const lw = lowerAt(doc, t);
    const brand = owner.get(t);
    const contrast = brand === undefined && CONTRAST.has(lw);
    // "X targets enterprises and Y is great": "and"/"or" after a full clause about a name,
    // with another name to come, starts a clause of its own
    const joinsClauses = brand === undefined && (lw === 'and' || lw === 'or') && cur !== null && cur.brands.length > 0 && saidSomething && t < lastBrandTok;
    const punct = t > first && CLAUSE_PUNCT.test(doc.clean.slice(doc.end[t - 1], doc.start[t]));
    const sameName = cur !== null && brand !== undefined && owner.get(t - 1) === brand;
    // a name after words about another ("compared HubSpot with Zoho found Zoho's interface
    // clunky"): what follows it is about it
    const newSubject = brand !== undefined && !sameName && cur !== null && cur.brands.length > 0 && saidSomething;
    if (!cur || ((contrast || joinsClauses || punct || newSubject) && !sameName)) {
      cur = { from: t, to: t + 1, brands: [], contrast, namesOnly: true };
      segs.push(cur);
      saidSomething = false;
    }
    cur.to = t + 1;
    if (brand !== undefined) {
      if (!cur.brands.includes(brand)) cur.brands.push(brand);
      saidSomething = false;
    } else if (!JOINERS.has(lw) && !(cur.contrast && t === cur.from)) {
      cur.namesOnly = false;
      saidSomething = true;
    }
  }

  // names-only clauses share the next clause (unless that one is a contrast)
  const merged: Segment[] = [];
  let carry: Segment | null = null;
  for (let k = 0; k < segs.length; k++) {
    let seg = segs[k];
    if (carry) {
      seg = { ...seg, from: carry.from, brands: [...new Set([...carry.brands, ...seg.brands])], contrast: carry.contrast };
      carry = null;
    }
    const next = segs[k + 1];
    const prev = merged[merged.length - 1];
    // examples in brackets ("Unlike browser-specific managers (like iCloud Keychain), Bitwarden
    // works everywhere") belong to the words before them, not to the clause after
    if (seg.namesOnly && seg.brands.length && !seg.contrast && prev && EXAMPLE.has(lowerAt(doc, seg.from)) && doc.clean.slice(doc.end[seg.from - 1], doc.start[seg.from]).includes('(')) {
      merged[merged.length - 1] = { ...prev, to: seg.to, brands: [...new Set([...prev.brands, ...seg.brands])] };
    } else if (seg.namesOnly && seg.brands.length && !seg.contrast && next && !next.contrast) carry = seg;
    else merged.push(seg);
  }
  // clauses without names belong to the clause before them (or after, at the start); after
  // a comparison's object ("…than Zoho, and its support is slower") to the one before that
  const texts = merged.map((seg, k) => {
    const to = k + 1 < merged.length ? doc.start[merged[k + 1].from] : doc.sentEnd[s];
    return text.slice(doc.start[seg.from], to);
  });
  const groups: Array<{ text: string; brands: number[]; object: boolean }> = [];
  merged.forEach((seg, k) => {
    const prev = groups[groups.length - 1];
    const object = seg.contrast && OBJECT_CONTRAST.has(lowerAt(doc, seg.from));
    if (!seg.brands.length && prev) {
      // "…than Zoho, and its support…" goes back to the subject; "…than Zoho, whose…" stays with Zoho
      const back = prev.object && groups.length >= 2 && CLAUSE_JOINERS.has(lowerAt(doc, seg.from));
      const to = back ? groups[groups.length - 2] : prev;
      to.text += texts[k];
    } else if (prev && !prev.brands.length && !object) groups[groups.length - 1] = { text: prev.text + texts[k], brands: seg.brands, object };
    // "Interface can feel less intuitive than X or Y" about a brand the sentence does not
    // name: X and Y are the comparison's objects, the words before are not theirs
    else groups.push({ text: texts[k], brands: seg.brands, object });
  });
  return groups.map((g) => [g.text, g.brands]);
}
