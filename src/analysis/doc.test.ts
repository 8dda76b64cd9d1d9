import { describe, expect, it } from 'vitest';
import { CAP, HEADING, LIST, SENT_START, TABLE, hashLower, lowerAt, parseDoc } from './doc.js';

const sentences = (text: string) => {
  const d = parseDoc(text);
  return d.sentStart.map((s, i) => d.clean.slice(s, d.sentEnd[i]));
};

describe('parseDoc', () => {
  it('splits sentences at stops followed by a space and at line ends', () => {
    expect(sentences('One. Two! Three? Four\nFive')).toEqual(['One.', 'Two!', 'Three?', 'Four', 'Five']);
  });

  it('does not split after abbreviations, initials, decimals or inside URLs', () => {
    expect(sentences('Tools e.g. Zoho, etc. cost $1.50 at J. Smith Inc. today. See https://a.com/x. Done.')).toEqual([
      'Tools e.g. Zoho, etc. cost $1.50 at J. Smith Inc. today.',
      `See ${' '.repeat('https://a.com/x'.length)}.`,
      'Done.',
    ]);
  });

  it('ends a sentence glued to the next one, but not inside a domain or an acronym', () => {
    expect(sentences('It cools well.DreamCloud: This one is firm.hOmeLabs is too. See monday.com or ASP.NET.Core today')).toEqual([
      'It cools well.',
      'DreamCloud: This one is firm.',
      'hOmeLabs is too.',
      'See monday.com or ASP.NET.Core today',
    ]);
  });

  it('ends sentences after closing quotes and emphasis, and at CJK stops', () => {
    expect(sentences('He said "great." Then **left.** 次です。終わり')).toEqual(['He said "great."', 'Then **left.**', '次です。', '終わり']);
  });

  it('flags words: capital, sentence start, heading, list item, table cell', () => {
    const d = parseDoc('# Title here\n- item One\n1. Second item\n| Cell | Other |\nmid Word');
    const f = (w: string) => d.flags[[...Array(d.n).keys()].find((i) => lowerAt(d, i) === w)!];
    expect(f('title') & (HEADING | SENT_START | CAP)).toBe(HEADING | SENT_START | CAP);
    expect(f('item') & (LIST | SENT_START)).toBe(LIST | SENT_START);
    expect(f('one') & (LIST | CAP | SENT_START)).toBe(LIST | CAP);
    expect(f('second') & (LIST | SENT_START)).toBe(LIST | SENT_START);
    expect(f('other') & (TABLE | SENT_START)).toBe(TABLE | SENT_START);
    expect(f('word') & (CAP | SENT_START)).toBe(CAP);
  });

  it('hashes words in lower case and blanks URLs with the same offsets', () => {
    const d = parseDoc('HubSpot at https://x.com/a ok');
    expect(d.hash[0]).toBe(hashLower('hubspot'));
    expect(d.clean.length).toBe(d.text.length);
    expect(d.n).toBe(3);
    expect(lowerAt(d, 2)).toBe('ok');
  });

  it('handles empty text', () => {
    expect(parseDoc('')).toMatchObject({ n: 0, sentStart: [] });
  });
});
