import { HEADING, LIST, type Doc } from './doc.js';
import type { Mention } from './mentions.js';
import { vaderCompound } from './vader.js';

// What a section says of the brands it is about, in sentences that do not name them.
//
// Lists of pros and cons: "**Cons:**" then items that name no brand ("- Expensive
// upgrades", "- Steep learning curve") speak of the brand the section is about, the one the
// sentences before named alone. The label says which way: an item under Cons is blame even
// when its words are neutral ("- Pricing"), and praise-words under Cons stay blame ("- Fast,
// but only on paid plans" is a con).
//
// Sections: a heading naming one brand ("### 2. **LG 27QN880-B**") owns the lines under it
// that name no brand, down to the next heading of its level or above or a rule (`---`); a
// list item naming one brand ("1. **Nike ZoomX**") owns the items nested under it; a
// sentence naming one brand owns the sentences of its paragraph that follow it and point
// back to it ("Le Creuset offers… Its construction ensures even heating."), up to the
// first that does not. Those lines are scored for it as if they named it. A group of names
// written together ("Browser password managers (Chrome, Firefox, Edge, Safari):", "KeePass
// / KeePassXC") owns its section as one brand would, for each of them.
// A sub-heading inside a section ("#### Budget-Friendly") is a label, not a verdict: not
// read. A heading's blocks after its first (the verdict after a spec list) are its own only when
// a heading or a rule closes the section: after the last section, they are the answer's
// closing words ("Prices change often…"), not the last brand's.

const LABEL = /^(pros|cons|advantages|disadvantages|drawbacks|downsides|limitations|weaknesses|strengths|benefits|what we like|what could be better|where it falls short)\b[\s*_]*:?[\s*_]*(.*)$/i;
const FIELD = /^[\s*_]*(?:(?:best|ideal|good|great|perfect|recommended)\s+(?:for|if|when)\b[^:]{0,40}|why(?: it[\u2019']s [\w ]{1,20})?|verdict|bottom line|overview|summary|who it[\u2019']s for|recommendation)[*_]*:/i;
const NEGATIVE = new Set(['cons', 'disadvantages', 'drawbacks', 'downsides', 'limitations', 'weaknesses', 'what could be better', 'where it falls short']);
/** The least an item of a list of cons (negated for pros) weighs: 35 on the 0–100 scale. */
const FLOOR = 0.3;
const RULE_LINE = /\n[ \t]*(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})(?=\n)/;
const BLANK_LINE = /\n[ \t]*\n/;
// A paragraph's later sentence speaks of the brand its first named when it opens by
// pointing back to it ("Its construction ensures…", "This set is…"), not otherwise ("The
// weather is awful").
const ANAPHOR = /^[\s*_>]*(?:(?:however|but|still|plus|and|also|additionally|though),?\s+)?(?:it|its|it's|it\u2019s|this|these|they|their|they're|both|also)\b/i;
// A list marker inside a line before a sentence ("…support.   *   **Tied to Browser:** Less…"):
// a list whose line breaks were collapsed, read as list items are under a pros/cons label.
const INLINE_ITEM = /\s[-*\u2022]\s+[*_]*$/;
// Advice to the reader ("Whatever you choose, test it…", "If you need offline sync…",
// "Consider your budget") speaks of no brand, even inside a brand's section.
const ADVICE = /^[\s*_#>]*(?:(?:if|whatever|whichever|when|unless|before)\s+you\b|you\b|your\b|check|test|try|consider|compare|choose|pick|look|start|make sure|keep|remember|note|close|ask|visit|read|see|go)\b/i;
// What may stand between the names of a group: "Chrome, Firefox, Edge", "KeePass / KeePassXC", "A and B".
const GROUP_GAP = /^[\s,/&()*_|+\uff08\uff09\u3001\u30fb]*(?:(?:and|or)[\s,/&()*_|+\uff08\uff09\u3001\u30fb]*)?$/i;

export interface ListItemScore {
  brand: number;
  sent: number;
  text: string;
  compound: number;
  /** An item of a list of pros or cons: its sign is the list's, whole. */
  listed?: true;
}

/** The section a line belongs to: its brands, and how far it reaches. */
interface Owner {
  brands: number[];
  kind: 'heading' | 'item' | 'para';
  /** heading level (1–6) or list indent */
  depth: number;
  /** a paragraph's sentence ended with a colon: the list after it is its own */
  introduces: boolean;
  /** a paragraph opened by a line of the names alone ("**Made In ProCoat Pan**"): its lines need not point back */
  title: boolean;
  /** a heading's section: a line came after the heading */
  seen: boolean;
  /** a heading's section: a blank line came after its first block */
  later: boolean;
  /** a heading's lines after its first block, kept until the section is closed */
  pending: ListItemScore[];
}

/** Mentions [from, to) of one sentence are nothing but brand names (a name on a line of its own, bold or linked). */
function namesOnly(doc: Doc, s: number, mentions: readonly Mention[], from: number, to: number): boolean {
  let covered = 0;
  for (let k = from; k < to; k++) covered += mentions[k].tokEnd - mentions[k].tok + 1;
  return covered >= doc.sentTokEnd[s] - doc.sentTok[s];
}

/** The brands of mentions [from, to) of one sentence when they are one group written together, else null. */
function group(doc: Doc, mentions: readonly Mention[], from: number, to: number): number[] | null {
  const brands: number[] = [];
  for (let k = from; k < to; k++) {
    const m = mentions[k];
    // a name and its alias side by side ("Trello（トレロ）", "Max (formerly HBO Max)") are one brand
    if (k > from && m.brand !== mentions[k - 1].brand && !GROUP_GAP.test(doc.clean.slice(doc.end[mentions[k - 1].tokEnd], doc.start[m.tok]))) return null;
    if (!brands.includes(m.brand)) brands.push(m.brand);
  }
  return brands;
}

/** Indent of the line starting at `at` (a tab is 4). */
function indentAt(text: string, at: number): number {
  let n = 0;
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) n++;
    else if (c === 9) n += 4;
    else break;
  }
  return n;
}

/** Heading level of the line starting at `at`. */
function levelAt(text: string, at: number): number {
  let i = at;
  while (text.charCodeAt(i) === 32) i++;
  let n = 0;
  while (text.charCodeAt(i + n) === 35 /* # */) n++;
  return n || 6;
}

// Marks that open a line of pros and cons in chat answers: a check for a pro; a cross, a
// thumbs-down, a minus or a warning for a con.
const PRO_MARK = /[\u2705\u2714\u2611\u{1F44D}\u2795]/u;
const CON_MARK = /[\u274C\u274E\u2716\u{1F44E}\u2796\u2757\u26A0]/u;
/** +1 when the text before a line's first word holds a pro mark, -1 a con mark, else 0. */
function markOf(prefix: string): number {
  if (prefix.trimStart().length > 8) return 0;
  return PRO_MARK.test(prefix) ? 1 : CON_MARK.test(prefix) ? -1 : 0;
}

/** A title line ranks below every heading: any heading ends its section. */
const TITLE_DEPTH = 7;

/** The sentence ending at `end` ends its block: only markup and spaces before a blank line (or the end). */
function endsBlock(text: string, end: number): boolean {
  let lines = 0;
  for (let i = end; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      if (++lines === 2) return true;
    } else if (c !== 32 && c !== 9 && c !== 13 && !(lines === 0 && (c === 42 || c === 95))) return false;
  }
  return true;
}

const sameBrands = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x) => b.includes(x));

/**
 * The scores of the sentences that name no brand and speak of some: items of pros and cons
 * lists, and lines of a section about one brand or one group (see above).
 * `scored` reads a line the way a sentence naming the brand is read (hedges); `text` is
 * `doc.clean` or a copy with the same offsets (names blanked).
 */
export function sectionItems(
  doc: Doc,
  mentions: readonly Mention[],
  scored: (text: string) => number = vaderCompound,
  text = doc.clean,
): ListItemScore[] {
  const out: ListItemScore[] = [];
  let listBrands: number[] = []; // the brands the current pros/cons section is about
  let sign = 0; // -1 cons, +1 pros, 0 outside a list
  let inlineList = false; // the list of the current label is written on the label's line
  let owner: Owner | null = null;
  let prevEnd = 0;
  let lineStart = -1;
  let m = 0; // first mention of the sentence
  // a heading's later blocks count once a heading or a rule closes it (`closed`)
  const close = (closed: boolean): null => {
    if (closed && owner?.pending.length) out.push(...owner.pending);
    return null;
  };
  const open = (brands: number[], kind: Owner['kind'], depth: number, introduces: boolean, closes: boolean, title = false): Owner => {
    close(closes);
    return { brands, kind, depth, introduces, title, seen: false, later: false, pending: [] };
  };
  const push = (to: ListItemScore[], brands: readonly number[], s: number, t: string, compound: number, listed: boolean) => {
    for (const brand of brands) to.push(listed ? { brand, sent: s, text: t, compound, listed: true } : { brand, sent: s, text: t, compound });
  };
  const score = (s: number, t: string) => {
    if (!listBrands.length || sign === 0 || !/[\p{L}]/u.test(t)) return false;
    const c = vaderCompound(t);
    push(out, listBrands, s, t, sign < 0 ? Math.min(c, -FLOOR) : Math.max(c, FLOOR), true);
    return true;
  };
  for (let s = 0; s < doc.sentStart.length; s++) {
    const from = m;
    while (m < mentions.length && mentions[m].sent === s) m++;
    if (doc.sentTok[s] === doc.sentTokEnd[s]) continue;
    const start = doc.sentStart[s];
    const gap = text.slice(prevEnd, start);
    prevEnd = doc.sentEnd[s];
    const newLine = gap.includes('\n') || s === 0;
    const blank = newLine && BLANK_LINE.test(gap);
    if (newLine) {
      lineStart = text.lastIndexOf('\n', start - 1) + 1;
      if (owner && RULE_LINE.test(gap)) owner = close(true);
      else if (owner?.kind === 'heading' && blank && owner.seen) owner.later = true;
    }
    const t = text.slice(start, doc.sentEnd[s]);
    const flags = doc.flags[doc.sentTok[s]];
    const heading = (flags & HEADING) !== 0;
    const item = (flags & LIST) !== 0 && newLine;
    if (m > from) {
      // a sentence naming one brand, or one group, opens its section; several otherwise, nobody's
      const brands = group(doc, mentions, from, m);
      listBrands = brands ?? [];
      sign = 0;
      if (brands) {
        // a heading closes the section before it; another brand named in its lines does not
        if (heading) owner = open(brands, 'heading', levelAt(text, lineStart), false, true);
        else if (owner?.kind === 'heading' && sameBrands(owner.brands, brands)) {
          // the section's own brands named again: still its section
        } else if (item) owner = open(brands, 'item', indentAt(text, lineStart), false, false);
        else if (newLine && endsBlock(text, doc.sentEnd[s]) && namesOnly(doc, s, mentions, from, m)) {
          // a line of the names alone ("**HP Envy Inspire 7955e**") is the title of what follows, as a heading is
          owner = open(brands, 'heading', TITLE_DEPTH, false, true);
        } else if (!owner || !sameBrands(owner.brands, brands) || owner.kind === 'para') {
          owner = open(brands, 'para', 0, /:[\s*_]*$/.test(t), false, newLine && namesOnly(doc, s, mentions, from, m));
        }
      } else if (heading || !owner || owner.kind !== 'heading') owner = close(heading);
      continue;
    }
    // how far the section reaches
    let credited = true;
    if (owner) {
      if (heading) {
        if (owner.kind !== 'heading' || levelAt(text, lineStart) <= owner.depth) owner = close(true);
      } else if (owner.kind === 'item') {
        if (newLine && indentAt(text, lineStart) <= owner.depth) owner = null;
      } else if (owner.kind === 'para') {
        // a line of the names alone ("**Trello**") owns the list right under it, as a sentence ending with a colon does
        if (newLine && (blank || item) && !(item && !blank && (owner.introduces || owner.title))) owner = null;
        else if (!owner.title && !item && !ANAPHOR.test(t)) {
          // the chain of sentences about it breaks here
          owner = null;
          credited = false;
        }
      }
    }
    // a line marked as a pro or a con ("* ✅ Easy Wi-Fi setup", "* ❌ No fax") under a section's brand
    const mark = credited && newLine && !heading ? markOf(text.slice(lineStart, start)) : 0;
    if (owner && mark !== 0 && /[\p{L}]/u.test(t)) {
      owner.seen = true;
      const c = vaderCompound(t);
      push(owner.later ? owner.pending : out, owner.brands, s, t, mark < 0 ? Math.min(c, -FLOOR) : Math.max(c, FLOOR), true);
      continue;
    }
    // a label with its list on its own line ("* **Cons:** Pricey, narrow fit") ends with that line:
    // the next line ("* **Weight:** 6.5 oz") is no con
    if (inlineList && newLine) {
      inlineList = false;
      sign = 0;
    }
    const label = LABEL.exec(t);
    // another field ("Best if:", "Why:", "Price:") after a list of pros or cons ends it
    if (!label && sign !== 0 && FIELD.test(t)) sign = 0;
    if (label) {
      sign = NEGATIVE.has(label[1].toLowerCase()) ? -1 : 1;
      if (score(s, label[2])) {
        inlineList = newLine;
        continue;
      }
    } else if (flags & LIST || (!newLine && INLINE_ITEM.test(gap))) {
      if (score(s, t)) continue;
    } else if (newLine || heading) sign = 0;
    if (owner) owner.seen = true;
    if (owner && credited && !heading && /[\p{L}]/u.test(t) && !ADVICE.test(t)) {
      const c = scored(t);
      if (c !== 0) push(owner.later ? owner.pending : out, owner.brands, s, t, c, false);
    }
  }
  return out;
}
