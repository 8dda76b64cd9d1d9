import { packText, packTexts, unpackBytes } from '../../lib/packed-json.js';
import { searchQueriesOf } from '../../ports/providers/search-queries.js';
import type { ProviderName, Reference } from '../../ports/providers/types.js';

/** What responses.body holds: everything of a stored answer that only a reader of the whole answer needs. */
export interface AnswerBody {
  text: string;
  references: Reference[];
  /** The searches the engine ran (searchQueriesOf its raw body), kept apart so a reader need not parse `raw`. */
  searchQueries: string[];
  raw: unknown;
}

/** An answer as it is shown (a chat): its body without the provider's raw response. */
export type ShownAnswer = Omit<AnswerBody, 'raw'>;

// The body's text (lib/packed-json.ts, brotli) is three lines of JSON:
//   the search queries
//   [text, references as stored]
//   the provider's raw body
// JSON.stringify never writes a line break outside a string's escapes, so a reader parses the
// lines it needs and no more: a chat is shown without parsing the raw body (a provider's
// response is often several times the answer: its text again, search results, annotations),
// and a prompt's searches are read from the first line alone. A body stored before this
// layout is one JSON array, [text, references, raw], with no line break: its searches are
// read from the raw body, as they were.
const LINE_BREAK = 0x0a;

/**
 * A page of the answer's `responses.cited`, in that array's order: what a stored reference
 * whose link is that page's URL names instead of repeating its link and title.
 */
export interface PageText {
  url: string;
  title: string;
}

/** `a` comes after `b` in jsonb's key order: longer, or as long and greater by code unit. */
const jsonbKeyAfter = (a: string, b: string) => a.length > b.length || (a.length === b.length && a > b);

/**
 * An object with its keys in jsonb's order (shorter keys first, then by bytes): the
 * references were kept as jsonb before migration 0013, and every reader since has seen
 * their keys in that order, so new answers keep it.
 */
function jsonbOrder<T extends object>(o: T): T {
  const keys = Object.keys(o);
  // an insertion sort in place: a reference has a handful of keys, and Array.prototype.sort
  // copies its array on every call (a page of chats sorts the keys of every reference)
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i];
    let j = i - 1;
    for (; j >= 0 && jsonbKeyAfter(keys[j], key); j--) keys[j + 1] = keys[j];
    keys[j + 1] = key;
  }
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
 * dropped) is kept whole. A reference whose `reference_index` is its place in the list (the
 * `at`-th, counted from 1, as engines number them) leaves it out.
 */
function storedReference(ref: Reference, at: number, pageAt: Map<string, number>, pages: readonly PageText[]): object {
  const { reference_index, ...kept } = ref;
  const numbered = reference_index === at ? kept : ref;
  const k = pageAt.get(ref.link);
  if (k === undefined) return jsonbOrder(numbered);
  const { link: _link, title, ...rest } = numbered;
  return jsonbOrder(title === pages[k].title ? { ...rest, c: k } : { ...rest, title, c: k });
}

function bodyText(b: AnswerBody, pages: readonly PageText[]): string {
  const pageAt = new Map<string, number>();
  for (const [k, p] of pages.entries()) if (!pageAt.has(p.url)) pageAt.set(p.url, k);
  const shown = [b.text, b.references.map((ref, i) => storedReference(ref, i + 1, pageAt, pages))];
  return `${JSON.stringify(b.searchQueries)}\n${JSON.stringify(shown)}\n${JSON.stringify(b.raw ?? null)}`;
}

/**
 * A stored answer's body as responses.body bytes; `pages`: the answer's cited pages in the
 * order of its `cited` (its analysis's citations), [] where it stores none.
 */
export function encodeAnswerBody(body: AnswerBody, pages: readonly PageText[] = []): Buffer {
  return packText(bodyText(body, pages));
}

/** encodeAnswerBody of each body, the same bytes, a large batch compressed on a worker thread (packTexts). */
export function encodeAnswerBodies(bodies: Array<AnswerBody & { pages: readonly PageText[] }>): Promise<Buffer[]> {
  return packTexts(bodies.map((b) => bodyText(b, b.pages)));
}

/** The body of a provider's answer as stored: its searches read from its raw body once, here. */
export function answerBody(provider: string, answer: { text: string; references: Reference[]; raw: unknown }): AnswerBody {
  return { text: answer.text, references: answer.references, searchQueries: searchQueriesOf(provider as ProviderName, answer.raw), raw: answer.raw };
}

type StoredReference = Partial<Reference> & { c?: number };

/** A body's parts as stored; `raw` parsed only when asked (the older layout has it parsed with the rest). */
interface StoredParts {
  text: string;
  stored: StoredReference[] | null;
  /** null in the older layout: read from `raw`. */
  searchQueries: string[] | null;
  raw?: unknown;
}

/** The body's lines, as far as `upTo` (1: the searches, 2: the shown answer, 3: the raw body). */
function storedParts(body: Uint8Array, upTo: 1 | 2 | 3): StoredParts {
  const bytes = unpackBytes(body); // a view, valid until the next unpack: read here, at once
  const first = bytes.indexOf(LINE_BREAK);
  if (first === -1) {
    const [text, stored, raw] = JSON.parse(bytes.toString('utf8')) as [string, StoredReference[] | null, unknown];
    return { text, stored, searchQueries: null, raw };
  }
  const searchQueries = JSON.parse(bytes.toString('utf8', 0, first)) as string[];
  if (upTo === 1) return { text: '', stored: null, searchQueries };
  const second = bytes.indexOf(LINE_BREAK, first + 1);
  const [text, stored] = JSON.parse(bytes.toString('utf8', first + 1, second)) as [string, StoredReference[] | null];
  if (upTo === 2) return { text, stored, searchQueries };
  return { text, stored, searchQueries, raw: JSON.parse(bytes.toString('utf8', second + 1)) };
}

function references(parts: StoredParts, pages: readonly PageText[]): Reference[] {
  // the layout before the searches were kept apart numbers every reference
  const older = parts.searchQueries === null;
  return (parts.stored ?? []).map((stored, i): Reference => {
    // a reference without its reference_index is the (i + 1)-th of the list (storedReference)
    const ref = older || stored.reference_index !== undefined ? stored : jsonbOrder({ ...stored, reference_index: i + 1 });
    if (typeof ref.c !== 'number' || ref.link !== undefined) return ref as Reference;
    const page = pages[ref.c];
    if (!page) throw new Error(`a stored answer's reference names cited page ${ref.c} of ${pages.length}`);
    const { c: _c, ...rest } = ref;
    return jsonbOrder({ ...rest, link: page.url, title: ref.title ?? page.title } as Reference);
  });
}

/**
 * The one reader of responses.body (PLAIN or BROTLI, lib/packed-json.ts); `pages`: the
 * answer's cited pages in the order of its `cited` (answers/cited-pages.ts reads them);
 * `provider`: the answer's, whose raw body a body of the older layout reads its searches from.
 * A reference naming a page it is not given is an error, never a reference without its link.
 */
export function decodeAnswerBody(body: Uint8Array, pages: readonly PageText[], provider: string): AnswerBody {
  const parts = storedParts(body, 3);
  return { text: parts.text, references: references(parts, pages), searchQueries: searchesOf(parts, provider), raw: parts.raw };
}

/** An answer's text and references alone (the raw body not parsed where the layout allows). */
export function decodeAnswerText(body: Uint8Array, pages: readonly PageText[]): Pick<AnswerBody, 'text' | 'references'> {
  const parts = storedParts(body, 2);
  return { text: parts.text, references: references(parts, pages) };
}

/** decodeAnswerBody without the raw body, which is not parsed: a chat as shown. */
export function decodeShownAnswer(body: Uint8Array, pages: readonly PageText[], provider: string): ShownAnswer {
  const parts = storedParts(body, 2);
  return { text: parts.text, references: references(parts, pages), searchQueries: searchesOf(parts, provider) };
}

/** The searches the engine ran for a stored answer alone (its first line; needs no cited pages). */
export function decodeSearchQueries(body: Uint8Array, provider: string): string[] {
  return searchesOf(storedParts(body, 1), provider);
}

/** The stored searches, or, in the older layout, those of the raw body (parsed with the rest there). */
function searchesOf(parts: StoredParts, provider: string): string[] {
  return parts.searchQueries ?? searchQueriesOf(provider as ProviderName, parts.raw);
}
