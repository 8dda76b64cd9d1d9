import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

// What Sightline reads from a page: a site's identity (bootstrap and the writer infer the
// market from it) and an article's main text, paragraph by paragraph (edit suggestions
// quote the page's own sentences). linkedom is pinned to 0.18.14: 0.18.15 is broken.

export interface SiteInfo {
  title: string | null;
  /** meta description, else og:description */
  description: string | null;
  /** h1 to h3 in page order, whitespace collapsed, deduplicated, at most 30 */
  headings: string[];
  siteName: string | null;
  /** the page's declared language (html lang), as written */
  language: string | null;
  /** main text (Readability), blocks on their own lines, at most ~20,000 characters */
  text: string;
}

export interface ArticleInfo {
  title: string | null;
  text: string;
  /** the main content's paragraphs and list items, in page order, whitespace collapsed */
  paragraphs: string[];
}

const MAX_HEADINGS = 30;
const MAX_HEADING_CHARS = 200;
const MAX_SITE_TEXT = 20_000;

// Loose DOM types: linkedom's own typings do not line up with lib.dom.
// biome-ignore lint/suspicious/noExplicitAny: linkedom's typings do not line up with lib.dom; elements are read defensively.
type El = any;

const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer',
  'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section',
  'table', 'td', 'th', 'tr', 'ul',
]);
const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe']);
const PARAGRAPH_SELECTOR = 'p, li, blockquote, pre, dd, dt, figcaption, td, th';

export function collapse(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

function orNull(text: string | null | undefined): string | null {
  const t = collapse(text);
  return t.length > 0 ? t : null;
}

function parse(html: string, url: string): El {
  // linkedom builds no <html>/<body> around a fragment (its body getter then throws).
  const source = /<html[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`;
  // `location` gives the document a base URI, so Readability resolves relative links.
  return parseHTML(source, { location: { href: url } } as never).document;
}

function meta(doc: El, ...keys: string[]): string | null {
  for (const key of keys) {
    const el = doc.querySelector(`meta[name="${key}" i], meta[property="${key}" i]`);
    const value = orNull(el?.getAttribute('content'));
    if (value) return value;
  }
  return null;
}

/** Text of a subtree with one line per block element (textContent runs blocks together). */
export function blockText(root: El): string {
  const out: string[] = [];
  const walk = (node: El) => {
    if (node.nodeType === 3) {
      out.push(node.data ?? node.textContent ?? '');
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
    const tag = String(node.localName ?? node.tagName ?? '').toLowerCase();
    if (SKIP_TAGS.has(tag)) return;
    const block = BLOCK_TAGS.has(tag);
    if (block) out.push('\n');
    for (const child of node.childNodes ?? []) walk(child);
    if (block) out.push('\n');
  };
  walk(root);
  return out
    .join('')
    .split('\n')
    .map((line) => collapse(line))
    .filter((line) => line.length > 0)
    .join('\n');
}

/** The innermost paragraph-like elements of a subtree, in order (li > p gives the p only). */
function paragraphsOf(root: El): string[] {
  const found: string[] = [];
  for (const el of root.querySelectorAll(PARAGRAPH_SELECTOR)) {
    if (el.querySelector(PARAGRAPH_SELECTOR)) continue;
    const text = collapse(blockText(el).replace(/\n/g, ' '));
    if (text) found.push(text);
  }
  return found;
}

function mainContent(doc: El): { title: string | null; content: El | null; siteName: string | null } {
  try {
    const article = new Readability<El>(doc, { serializer: (node: El) => node }).parse();
    return { title: orNull(article?.title), content: article?.content ?? null, siteName: orNull(article?.siteName) };
  } catch {
    return { title: null, content: null, siteName: null };
  }
}

function bodyText(html: string, url: string): string {
  const doc = parse(html, url);
  for (const el of doc.querySelectorAll('nav, footer, header, aside')) el.remove();
  return doc.body ? blockText(doc.body) : '';
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const end = Math.max(cut.lastIndexOf('\n'), cut.lastIndexOf('. '));
  return end > max * 0.8 ? cut.slice(0, end + 1).trim() : cut.trim();
}

/** A site's identity and main text, from its home page (or any page). */
export function readSite(html: string, url: string): SiteInfo {
  const doc = parse(html, url);
  const headings: string[] = [];
  const seen = new Set<string>();
  for (const el of doc.querySelectorAll('h1, h2, h3')) {
    const text = collapse(el.textContent).slice(0, MAX_HEADING_CHARS);
    if (!text || seen.has(text.toLowerCase())) continue;
    seen.add(text.toLowerCase());
    headings.push(text);
    if (headings.length === MAX_HEADINGS) break;
  }
  const info = {
    title: orNull(doc.querySelector('title')?.textContent) ?? meta(doc, 'og:title', 'twitter:title'),
    description: meta(doc, 'description', 'og:description', 'twitter:description'),
    headings,
    siteName: meta(doc, 'og:site_name', 'application-name'),
    language:
      orNull(doc.documentElement?.getAttribute('lang')) ??
      orNull(doc.querySelector('meta[http-equiv="content-language" i]')?.getAttribute('content')),
  };
  // Readability changes the document it reads, so it runs after the metadata is taken.
  const main = mainContent(doc);
  const text = (main.content && blockText(main.content)) || bodyText(html, url);
  return { ...info, siteName: info.siteName ?? main.siteName, text: clip(text, MAX_SITE_TEXT) };
}

/** An article's title, main text and paragraphs (Readability's main content). */
export function readArticle(html: string, url: string): ArticleInfo {
  const doc = parse(html, url);
  const fallbackTitle = orNull(doc.querySelector('title')?.textContent) ?? orNull(doc.querySelector('h1')?.textContent);
  const main = mainContent(doc);
  if (!main.content) {
    const fallback = parse(html, url);
    const root = fallback.querySelector('article, main') ?? fallback.body;
    return { title: main.title ?? fallbackTitle, text: root ? blockText(root) : '', paragraphs: root ? paragraphsOf(root) : [] };
  }
  return { title: main.title ?? fallbackTitle, text: blockText(main.content), paragraphs: paragraphsOf(main.content) };
}
