import { HEADING, LIST, type Doc } from './doc.js';
import type { Mention } from './mentions.js';
import { vaderCompound } from './vader.js';

// Lists of pros and cons: "**Cons:**" then items that name no brand ("- Expensive
// upgrades", "- Steep learning curve") speak of the brand the section is about, the one the
// sentences before named alone. The label says which way: an item under Cons is blame even
// when its words are neutral ("- Pricing"), and praise-words under Cons stay blame ("- Fast,
// but only on paid plans" is a con).

const LABEL = /^(pros|cons|advantages|disadvantages|drawbacks|downsides|limitations|weaknesses|strengths|benefits|what we like|what could be better|where it falls short)\b[\s*_]*:?[\s*_]*(.*)$/i;
const NEGATIVE = new Set(['cons', 'disadvantages', 'drawbacks', 'downsides', 'limitations', 'weaknesses', 'what could be better', 'where it falls short']);
/** The least an item of a list of cons (negated for pros) weighs: 35 on the 0–100 scale. */
const FLOOR = 0.3;

export interface ListItemScore {
  brand: number;
  sent: number;
  text: string;
  compound: number;
  listed: true;
}

/** The scores of the items of pros and cons lists, each for the brand its section is about. */
export function prosConsItems(doc: Doc, mentions: readonly Mention[]): ListItemScore[] {
  const bySent = new Map<number, Set<number>>();
  for (const m of mentions) {
    let set = bySent.get(m.sent);
    if (!set) bySent.set(m.sent, (set = new Set()));
    set.add(m.brand);
  }
  const out: ListItemScore[] = [];
  let brand = -1; // the brand the current section is about
  let sign = 0; // -1 cons, +1 pros, 0 outside a list
  const score = (s: number, text: string) => {
    if (brand < 0 || sign === 0 || !/[\p{L}]/u.test(text)) return;
    const c = vaderCompound(text);
    out.push({ brand, sent: s, text, compound: sign < 0 ? Math.min(c, -FLOOR) : Math.max(c, FLOOR), listed: true });
  };
  for (let s = 0; s < doc.sentStart.length; s++) {
    if (doc.sentTok[s] === doc.sentTokEnd[s]) continue;
    const named = bySent.get(s);
    const text = doc.clean.slice(doc.sentStart[s], doc.sentEnd[s]);
    const flags = doc.flags[doc.sentTok[s]];
    if (named) {
      // a sentence naming one brand opens its section; several, nobody's
      brand = named.size === 1 ? [...named][0] : -1;
      sign = 0;
      continue;
    }
    const label = LABEL.exec(text);
    if (label) {
      sign = NEGATIVE.has(label[1].toLowerCase()) ? -1 : 1;
      score(s, label[2]);
    } else if (flags & LIST) score(s, text);
    else if (flags & HEADING || !(flags & LIST)) sign = 0;
  }
  return out;
}
