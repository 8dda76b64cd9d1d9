import DOMPurify from 'dompurify';
import { Marked } from 'marked';

// An AI answer is untrusted text that happens to be markdown. It is parsed by marked with
// raw HTML turned into visible text (an answer's `<script>` reads as "<script>"), then the
// HTML marked wrote goes through DOMPurify with a short list of formatting tags: no images
// (a page never requests another origin), no forms, no styles, no event attributes. Links
// keep only http(s) addresses and open in a new tab as nofollow noopener noreferrer; any
// other address (javascript:, data:, relative) leaves the link text without a link.

export interface TrackedBrand {
  name: string;
  own: boolean;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const markdown = new Marked({ gfm: true, breaks: false, async: false });
markdown.use({
  renderer: {
    html: (token) => escapeHtml(token.text),
    image: (token) => escapeHtml(token.text || token.href),
  },
});

const ALLOWED_TAGS = ['p', 'br', 'strong', 'b', 'em', 'i', 'del', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td'];
const ALLOWED_ATTR = ['href', 'title', 'start'];

let hooked = false;
function purifier() {
  if (hooked) return DOMPurify;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName !== 'A') return;
    const href = node.getAttribute('href') ?? '';
    if (/^https?:\/\//i.test(href)) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'nofollow noopener noreferrer');
    } else {
      node.removeAttribute('href');
    }
  });
  return DOMPurify;
}

/** The answer as sanitized formatting markup (a string fit for innerHTML), brands not yet marked. */
export function answerHtml(text: string): string {
  const html = markdown.parse(text) as string;
  return purifier().sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ADD_ATTR: ['target', 'rel'], ALLOW_DATA_ATTR: false }) as string;
}

/**
 * Wraps every tracked brand's name in the text nodes of `root` (never inside a link's
 * address or a tag) in <mark class="own"> or <mark class="rival">, longest names first so
 * "Acme Cloud" wins over "Acme". The marks are built with the DOM, the names set as text.
 */
export function markBrands(root: Element, brands: readonly TrackedBrand[]): void {
  const names = brands.filter((trackedBrand) => trackedBrand.name.trim().length > 1).sort((a, b) => b.name.length - a.name.length);
  if (!names.length) return;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(${names.map((trackedBrand) => trackedBrand.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) if (!node.parentElement?.closest('mark, code, pre')) nodes.push(node as Text);
  for (const node of nodes) {
    const parts = (node.nodeValue ?? '').split(pattern);
    if (parts.length === 1) continue;
    const frag = root.ownerDocument.createDocumentFragment();
    for (const [i, part] of parts.entries()) {
      if (!part) continue;
      const brand = i % 2 === 1 ? names.find((trackedBrand) => trackedBrand.name.toLowerCase() === part.toLowerCase()) : undefined;
      if (!brand) {
        frag.append(part);
        continue;
      }
      const mark = root.ownerDocument.createElement('mark');
      mark.className = brand.own ? 'own' : 'rival';
      mark.textContent = part;
      frag.append(mark);
    }
    node.replaceWith(frag);
  }
}
