import { HEADING, LIST, type Doc } from './doc.js';
import type { Mention } from './mentions.js';
import { vaderCompound } from './vader.js';

// What a section says of the brand it is about, in sentences that do not name it.
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
// sentence naming one brand owns the rest of its paragraph that points back to it ("Le
// Creuset offers… Its construction ensures even heating."). Those lines are scored for it as if they named it.
// A heading's blocks after its first (the verdict after a spec list) are its own only when
// a heading or a rule closes the section: after the last section, they are the answer's
// closing words ("Prices change often…"), not the last brand's.

const LABEL = /^(pros|cons|advantages|disadvantages|drawbacks|downsides|limitations|weaknesses|strengths|benefits|what we like|what could be better|where it falls short)\b[\s*_]*:?[\s*_]*(.*)$/i;
const NEGATIVE = new Set(['cons', 'disadvantages', 'drawbacks', 'downsides', 'limitations', 'weaknesses', 'what could be better', 'where it falls short']);
/** The least an item of a list of cons (negated for pros) weighs: 35 on the 0–100 scale. */
const FLOOR = 0.3;
const RULE_LINE = /\n[ \t]*(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})(?=\n)/;
const BLANK_LINE = /\n[ \t]*\n/;
// A paragraph's later sentence speaks of the brand its first named when it opens by
// pointing back to it ("Its construction ensures…", "This set is…"), not otherwise ("The
// weather is awful").
const ANAPHOR = /^[\s*_>]*(?:it|its|it's|it\u2019s|this|these|they|their|they're|both|also)\b/i;
// Advice to the reader ("Whatever you choose, test it…", "If you need offline sync…",
// "Consider your budget") speaks of no brand, even inside a brand's section.
const ADVICE = /^[\s*_#>]*(?:(?:if|whatever|whichever|when|unless|before)\s+you\b|you\b|your\b|check|test|try|consider|compare|choose|pick|look|start|make sure|keep|remember|note|close|ask|visit|read|see|go)\b/i;

export interface ListItemScore {
  brand: number;
  sent: number;
  text: string;
  compound: number;
  /** An item of a list of pros or cons: its sign is the list's, whole. */
  listed?: true;
}

/** The section a line belongs to: its brand, and how far it reaches. */
interface Owner {
  brand: number;
  kind: 'heading' | 'item' | 'para';
  /** heading level (1–6) or list indent */
  depth: number;
  /** a paragraph's sentence ended with a colon: the list after it is its own */
  introduces: boolean;
  /** a paragraph opened by a line of the name alone ("**Made In ProCoat Pan**"): its lines need not point back */
  title: boolean;
  /** a heading's section: a line came after the heading */
  seen: boolean;
  /** a heading's section: a blank line came after its first block */
  later: boolean;
  /** a heading's lines after its first block, kept until the section is closed */
  pending: ListItemScore[];
}

/** Sentence `s` is nothing but brand names (a name on a line of its own, bold or linked). */
function namesOnly(doc: Doc, s: number, mentions: readonly Mention[], from: number): boolean {
  let covered = 0;
  for (let k = from; k < mentions.length && mentions[k].sent === s; k++) covered += mentions[k].tokEnd - mentions[k].tok + 1;
  return covered >= doc.sentTokEnd[s] - doc.sentTok[s];
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

/**
 * The scores of the sentences that name no brand and speak of one: items of pros and cons
 * lists, and lines of a section about one brand (see above).
 * `scored` reads a line the way a sentence naming the brand is read (hedges, fit labels).
 */
export function sectionItems(doc: Doc, mentions: readonly Mention[], scored: (text: string) => number = vaderCompound): ListItemScore[] {
  const bySent = new Map<number, Set<number>>();
  const firstOf = new Map<number, number>(); // first mention of each sentence
  mentions.forEach((m, k) => {
    let set = bySent.get(m.sent);
    if (!set) {
      bySent.set(m.sent, (set = new Set()));
      firstOf.set(m.sent, k);
    }
    set.add(m.brand);
  });
  const out: ListItemScore[] = [];
  const text = doc.clean;
  let brand = -1; // the brand the current pros/cons section is about
  let sign = 0; // -1 cons, +1 pros, 0 outside a list
  let owner: Owner | null = null;
  let prevEnd = 0;
  let lineStart = -1;
  // a heading's later blocks count once a heading or a rule closes it (`closed`)
  const close = (closed: boolean): null => {
    if (closed && owner?.pending.length) out.push(...owner.pending);
    return null;
  };
  const open = (b: number, kind: Owner['kind'], depth: number, introduces: boolean, closes: boolean, title = false): Owner => {
    close(closes);
    return { brand: b, kind, depth, introduces, title, seen: false, later: false, pending: [] };
  };
  const score = (s: number, t: string) => {
    if (brand < 0 || sign === 0 || !/[\p{L}]/u.test(t)) return false;
    const c = vaderCompound(t);
    out.push({ brand, sent: s, text: t, compound: sign < 0 ? Math.min(c, -FLOOR) : Math.max(c, FLOOR), listed: true });
    return true;
  };
  for (let s = 0; s < doc.sentStart.length; s++) {
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
    const named = bySent.get(s);
    const t = text.slice(start, doc.sentEnd[s]);
    const flags = doc.flags[doc.sentTok[s]];
    const heading = (flags & HEADING) !== 0;
    const item = (flags & LIST) !== 0 && newLine;
    if (named) {
      // a sentence naming one brand opens its section; several, nobody's
      brand = named.size === 1 ? [...named][0] : -1;
      sign = 0;
      if (named.size === 1) {
        const b = [...named][0];
        // a heading closes the section before it; another brand named in its lines does not
        if (heading) owner = open(b, 'heading', levelAt(text, lineStart), false, true);
        else if (owner?.kind === 'heading' && owner.brand === b) {
          // the section's own brand named again: still its section
        } else if (item) owner = open(b, 'item', indentAt(text, lineStart), false, false);
        else if (!owner || owner.brand !== b || owner.kind === 'para') {
          owner = open(b, 'para', 0, /:[\s*_]*$/.test(t), false, newLine && namesOnly(doc, s, mentions, firstOf.get(s) ?? 0));
        }
      } else if (heading || !owner || owner.kind !== 'heading') owner = close(heading);
      continue;
    }
    // how far the section reaches
    if (owner) {
      if (heading) {
        if (owner.kind !== 'heading' || levelAt(text, lineStart) <= owner.depth) owner = close(true);
      } else if (owner.kind === 'item') {
        if (newLine && indentAt(text, lineStart) <= owner.depth) owner = null;
      } else if (owner.kind === 'para') {
        if (newLine && (blank || item) && !(item && owner.introduces)) owner = null;
      }
    }
    const label = LABEL.exec(t);
    if (label) {
      sign = NEGATIVE.has(label[1].toLowerCase()) ? -1 : 1;
      if (score(s, label[2])) continue;
    } else if (flags & LIST) {
      if (score(s, t)) continue;
    } else if (heading || !(flags & LIST)) sign = 0;
    if (owner) owner.seen = true;
    if (owner && /[\p{L}]/u.test(t) && !ADVICE.test(t) && (owner.kind !== 'para' || owner.title || item || ANAPHOR.test(t))) {
      const c = scored(t);
      if (c !== 0) (owner.later ? owner.pending : out).push({ brand: owner.brand, sent: s, text: t, compound: c });
    }
  }
  return out;
}
