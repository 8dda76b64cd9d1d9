import { describe, expect, it } from 'vitest';
import { chatPreview, stripMarkdown, truncate } from './preview.js';

describe('stripMarkdown', () => {
  it('keeps link and image text, drops emphasis, code, HTML and citation marks', () => {
    expect(stripMarkdown('**Bold** _it_ `code` [link](https://a.com/x_(y)) ![alt](i.png) <b>x</b> ok[1][2] 【3†source】')).toBe('Bold it code link alt x ok');
    expect(stripMarkdown('snake_case_name and 2*3*4')).toBe('snake_case_name and 2*3*4');
  });
});

describe('truncate', () => {
  it('leaves short text alone', () => {
    expect(truncate('Short.')).toBe('Short.');
    expect(truncate('x'.repeat(150))).toBe('x'.repeat(150));
  });

  it('cuts on a word boundary with an ellipsis counted in the limit', () => {
    const s = `${'word '.repeat(40)}end`;
    const t = truncate(s);
    expect([...t].length).toBeLessThanOrEqual(150);
    expect(t.endsWith('word…')).toBe(true);
    expect(truncate('a '.repeat(100), 20)).toBe('a a a a a a a a a a…');
  });

  it('cuts inside a word only when there is no space early enough, never inside a surrogate pair', () => {
    expect(truncate('x'.repeat(200))).toBe(`${'x'.repeat(149)}…`);
    const emoji = '😀'.repeat(200);
    expect([...truncate(emoji)].length).toBe(150);
  });
});

describe('chatPreview', () => {
  it('is the first sentence of the first line with words', () => {
    expect(chatPreview('\n\n## Best CRMs\n\nHubSpot is good.')).toBe('Best CRMs');
    expect(chatPreview('HubSpot is good. Zoho too.')).toBe('HubSpot is good.');
    expect(chatPreview('1. **HubSpot** – free. 2. Zoho')).toBe('HubSpot – free.');
    expect(chatPreview('> Quote here.\n')).toBe('Quote here.');
    expect(chatPreview('|---|---|\n| A | B |')).toBe('A – B');
    expect(chatPreview('日本語の文です。次の文。')).toBe('日本語の文です。');
  });

  it('is empty without words', () => {
    expect(chatPreview('')).toBe('');
    expect(chatPreview('---\n***\n')).toBe('');
  });
});
