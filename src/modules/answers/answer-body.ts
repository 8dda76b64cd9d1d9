import { packJson, packJsonBatch, unpackJson } from '../../lib/packed-json.js';
import type { Reference } from '../../ports/providers/types.js';

/** What responses.body holds: everything of a stored answer that only a reader of the whole answer needs. */
export interface AnswerBody {
  text: string;
  references: Reference[];
  raw: unknown;
}

/**
 * A page of the answer's `responses.cited`, in that array's order: what a stored reference
 * whose link is that page's URL names instead of repeating its link and title.
 */
export interface PageText {
  url: string;
  title: string;
}

/**
 * An object with its keys in jsonb's order (shorter keys first, then by bytes): the
 * references were kept as jsonb before migration 0013, and every reader since has seen
 * their keys in that order, so new answers keep it.
 */
function jsonbOrder<T extends object>(o: T): T {
  const keys = Object.keys(o).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = (o as Record<string, unknown>)[k];
  return out as T;
}

/**
 * A reference as stored. One whose link is, exactly, the URL of one of the answer's cited
 * pages keeps `c`, that page's place in `cited`, instead of its link, and its title only
 * where it differs from the page's (the page keeps the best title of the URL's references):
 * the link and title are then stored once per project in cited_pages, not in every answer
 * citing them (docs/analytics.md, "How answers are stored"). Any other reference (a link the analysis normalised, or
 * dropped) is kept whole.
 */
function storedReference(ref: Reference, pageAt: Map<string, number>, pages: readonly PageText[]): object {
  const k = pageAt.get(ref.link);
  if (k === undefined) return jsonbOrder(ref);
  const { link: _link, title, ...rest } = ref;
  return jsonbOrder(title === pages[k].title ? { ...rest, c: k } : { ...rest, title, c: k });
}

function bodyValue(b: AnswerBody, pages: readonly PageText[]) {
  const pageAt = new Map<string, number>();
  for (const [k, p] of pages.entries()) if (!pageAt.has(p.url)) pageAt.set(p.url, k);
  return [b.text, b.references.map((ref) => storedReference(ref, pageAt, pages)), b.raw ?? null];
}

/**
 * A stored answer's body as responses.body bytes; `pages`: the answer's cited pages in the
 * order of its `cited` (its analysis's citations), [] where it stores none.
 */
export function encodeAnswerBody(text: string, references: Reference[], raw: unknown, pages: readonly PageText[] = []): Buffer {
  return packJson(bodyValue({ text, references, raw }, pages));
}

/** encodeAnswerBody of each body, the same bytes, a large batch compressed on a worker thread (packJsonBatch). */
export function encodeAnswerBodies(bodies: Array<AnswerBody & { pages: readonly PageText[] }>): Promise<Buffer[]> {
  return packJsonBatch(bodies.map((b) => bodyValue(b, b.pages)));
}

type StoredReference = Partial<Reference> & { c?: number };

/**
 * The one reader of responses.body (PLAIN or BROTLI, lib/packed-json.ts); `pages`: the
 * answer's cited pages in the order of its `cited` (answers/cited-pages.ts reads them). A
 * reference naming a page it is not given is an error, never a reference without its link.
 */
export function decodeAnswerBody(body: Uint8Array, pages: readonly PageText[] = []): AnswerBody {
  const [text, stored, raw] = unpackJson(body) as [string, StoredReference[] | null, unknown];
  const references = (stored ?? []).map((ref): Reference => {
    if (typeof ref.c !== 'number' || ref.link !== undefined) return ref as Reference;
    const page = pages[ref.c];
    if (!page) throw new Error(`a stored answer's reference names cited page ${ref.c} of ${pages.length}`);
    const { c: _c, ...rest } = ref;
    return jsonbOrder({ ...rest, link: page.url, title: ref.title ?? page.title } as Reference);
  });
  return { text, references, raw };
}

/** The raw provider body of a stored answer alone (its references need no cited pages). */
export function decodeAnswerRaw(body: Uint8Array): unknown {
  return (unpackJson(body) as [string, unknown, unknown])[2];
}
