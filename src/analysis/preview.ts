import { ABBREVIATIONS } from './data/words.js';

export const PREVIEW_MAX = 150;
const ABBREV = new Set(ABBREVIATIONS);

/** Inline markdown removed: images, links (their text kept), citation marks, emphasis, code, HTML. */
export function stripMarkdown(line: string): string {
  return line
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\((?:[^()\s]|\([^)]*\))*\)/g, '$1')
    .replace(/\[\^?\d+\]|\u3010[^\u3011]*\u3011/g, '')
    .replace(/<\/?[a-z][^>]*>/gi, '')
    .replace(/\*\*|__|~~|`/g, '')
    .replace(/(^|[\s(])[*_](?=\S)|(?<=\S)[*_](?=[\s).,;:!?]|$)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The line's content without list, heading, quote or table markup, or '' when it has none. */
function lineContent(raw: string): string {
  let s = raw.trim();
  if (/^\|?\s*:?-{3,}/.test(s) || /^(-{3,}|\*{3,}|_{3,})$/.test(s) || s.startsWith('```')) return '';
  s = s.replace(/^(>\s*)+/, '').replace(/^#{1,6}\s+/, '').replace(/^([-*+\u2022]|\d{1,3}[.)])\s+/, '');
  if (s.startsWith('|')) s = s.split('|').map((c) => c.trim()).filter(Boolean).join(' \u2013 ');
  return stripMarkdown(s);
}

/** Length of the first sentence of a single line of plain text. */
function firstSentenceEnd(s: string): number {
  const re = /[.!?\u2026]+["')\]\u201d\u2019]*(?=\s|$)|[\u3002\uff01\uff1f]/g;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    if (m[0][0] === '.' && m[0].length === 1) {
      const word = /([\p{L}.]+)$/u.exec(s.slice(0, m.index))?.[1] ?? '';
      if (ABBREV.has(word.toLowerCase()) || /^\p{Lu}$/u.test(word)) continue;
    }
    return m.index + m[0].length;
  }
  return s.length;
}

/** Cuts to at most `max` characters on a word boundary, the ellipsis counted. */
export function truncate(s: string, max = PREVIEW_MAX): string {
  if (s.length <= max) return s; // no more characters than UTF-16 units: short enough, without splitting it
  const all = [...s];
  if (all.length <= max) return s;
  const chars = all.slice(0, max - 1).join('');
  // the kept part ends a word when the next character is a space
  const space = all[max - 1] === ' ' ? chars.length : chars.lastIndexOf(' ');
  const cut = space > max / 3 ? chars.slice(0, space) : chars;
  return `${cut.replace(/[\s,;:\u2013\u2014-]+$/, '')}\u2026`;
}

/** chat_preview: the first sentence of the answer, markdown stripped, at most 150 characters. */
export function chatPreview(text: string): string {
  for (const raw of text.split('\n')) {
    const line = lineContent(raw);
    if (!line || !/[\p{L}\p{N}]/u.test(line)) continue;
    return truncate(line.slice(0, firstSentenceEnd(line)).trim());
  }
  return '';
}
