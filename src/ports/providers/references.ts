import type { Reference } from './types.js';

export interface SourceRef {
  link: string;
  title?: string | null;
  snippet?: string | null;
}

/**
 * The normalised reference list: in the order given (callers pass them by first appearance
 * in the text), one entry per link (the first wins; a later duplicate may fill in a missing
 * title or snippet), numbered from 1.
 */
export function numberReferences(sources: SourceRef[]): Reference[] {
  const out: Reference[] = [];
  const byLink = new Map<string, Reference>();
  for (const s of sources) {
    const link = (s.link ?? '').trim();
    if (!link) continue;
    const seen = byLink.get(link);
    if (seen) {
      if (!seen.title && s.title) seen.title = s.title.trim();
      if (!seen.snippet && s.snippet) seen.snippet = s.snippet.trim();
      continue;
    }
    const ref: Reference = { title: (s.title ?? '').trim(), link, snippet: (s.snippet ?? '').trim(), reference_index: out.length + 1 };
    byLink.set(link, ref);
    out.push(ref);
  }
  return out;
}

/** The sentence of `text` that ends at `end` (the claim a citation placed there supports). */
export function sentenceBefore(text: string, end: number): string {
  // Citations (inline links, [n] markers) are not part of any claim.
  const head = text.slice(0, end).replace(/\s*\(?\[[^\]]*\]\([^)\s]*\)\)?|\s*\[\d+\]/g, ' ');
  let start = Math.max(head.lastIndexOf('\n'), 0);
  const re = /[.!?]\s+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(head)) !== null) {
    // A full stop right before the citation ends the claim itself, not the one before it.
    if (m.index + m[0].length < head.trimEnd().length) start = Math.max(start, m.index + m[0].length);
  }
  return head.slice(start).replace(/^[\s\-*#>\d.]+/, '').replace(/\*\*/g, '').trim();
}
