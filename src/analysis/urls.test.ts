import { describe, expect, it } from 'vitest';
import { findUrls, normalizeUrl } from './urls.js';

const raws = (text: string) => findUrls(text).map((u) => u.raw);

describe('findUrls', () => {
  it('finds scheme, www. and bare host-with-path URLs, trimming trailing punctuation', () => {
    expect(raws('See https://a.com/x. Or (http://b.org/y), www.c.net! and d.io/docs; e.com alone.')).toEqual([
      'https://a.com/x', 'http://b.org/y', 'www.c.net', 'd.io/docs',
    ]);
  });

  it('keeps balanced parentheses and drops a markdown link closer', () => {
    expect(raws('[W](https://en.wikipedia.org/wiki/Foo_(bar)) and [X](https://x.com/a)')).toEqual([
      'https://en.wikipedia.org/wiki/Foo_(bar)', 'https://x.com/a',
    ]);
  });

  it('reads the link text of markdown links', () => {
    const [u] = findUrls('Read [the **guide**](https://a.com/guide "title").');
    expect(u).toMatchObject({ raw: 'https://a.com/guide', linkText: 'the **guide**' });
    expect(findUrls('plain https://a.com/')[0].linkText).toBeNull();
  });

  it('ends a URL at a dash, an ellipsis or a link\'s "](", and marks a URL that is a link\'s text', () => {
    expect(raws('hubspot.com/pricing—and more; pipedrive.com/pricing… or close.com/pricing – plans')).toEqual([
      'hubspot.com/pricing', 'pipedrive.com/pricing', 'close.com/pricing',
    ]);
    const [text, target] = findUrls('see [academy.hubspot.com/courses/sales](https://academy.hubspot.com/courses/sales?utm_source=openai).');
    expect(text).toMatchObject({ raw: 'academy.hubspot.com/courses/sales', display: true });
    expect(target).toMatchObject({ raw: 'https://academy.hubspot.com/courses/sales?utm_source=openai', display: false });
  });

  it('blanks a citation chip whole, with its brackets, so its host is no mention', () => {
    const text = 'Pipedrive is simple. ([hubspot.com](https://www.hubspot.com/pricing?utm_source=openai)) Next.';
    const [u] = findUrls(text);
    expect(text.slice(u.blankStart, u.blankEnd)).toBe('([hubspot.com](https://www.hubspot.com/pricing?utm_source=openai))');
    const [plain] = findUrls('Read [the guide](https://a.com/guide).');
    expect([plain.blankStart, plain.blankEnd]).toEqual([plain.start, plain.end]);
  });

  it('ignores e-mail addresses, file names and unknown suffixes', () => {
    expect(raws('mail jane@acme.com/x, use Node.js/Deno, and/or 1.5/month')).toEqual([]);
  });

  it('stops at quotes, angle brackets and CJK punctuation', () => {
    expect(raws('<https://a.com/x> “https://b.com/y” 見る https://c.com/z。次')).toEqual(['https://a.com/x', 'https://b.com/y', 'https://c.com/z']);
  });

  it('reports offsets into the text', () => {
    const text = 'go to https://a.com/x now';
    const [u] = findUrls(text);
    expect(text.slice(u.start, u.end)).toBe('https://a.com/x');
  });
});

describe('normalizeUrl', () => {
  const norm = (u: string) => normalizeUrl(u)?.url ?? null;

  it('lower-cases scheme and host, drops fragment and default port', () => {
    expect(norm('HTTPS://WWW.Example.ORG:443/Path/To#frag')).toBe('https://www.example.org/Path/To');
  });

  it('drops the trailing slash except for the root', () => {
    expect(norm('https://a.com/x/')).toBe('https://a.com/x');
    expect(norm('https://a.com')).toBe('https://a.com/');
    expect(norm('https://a.com/x/?q=1')).toBe('https://a.com/x?q=1');
  });

  it('drops tracking parameters and keeps the others in order', () => {
    expect(norm('https://a.com/x?b=2&utm_source=chatgpt.com&a=1&gclid=z&UTM_Medium=q')).toBe('https://a.com/x?b=2&a=1');
    expect(norm('https://a.com/x?utm_source=y')).toBe('https://a.com/x');
    expect(norm('https://shop.com/products/p?variant=4177&_gsid=kL9W')).toBe('https://shop.com/products/p?variant=4177');
    expect(norm('https://shop.com/p?srsltid=AfmB&variant=2')).toBe('https://shop.com/p?variant=2');
  });

  it('adds https to scheme-less URLs and refuses other schemes', () => {
    expect(norm('www.a.com/x')).toBe('https://www.a.com/x');
    expect(norm('a.com/x')).toBe('https://a.com/x');
    expect(norm('mailto:jane@a.com')).toBeNull();
    expect(norm('ftp://a.com/x')).toBeNull();
    expect(norm('https://')).toBeNull();
    expect(norm('')).toBeNull();
  });

  it('gives the host and the lower-case path with query for the page-type rules', () => {
    expect(normalizeUrl('https://A.com/Blog/Post?X=1')).toEqual({ url: 'https://a.com/Blog/Post?X=1', host: 'a.com', path: '/blog/post?x=1' });
  });
});
