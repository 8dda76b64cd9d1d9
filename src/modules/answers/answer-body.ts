import { packJson, packJsonBatch, unpackJson } from '../../lib/packed-json.js';
import type { Reference } from '../../ports/providers/types.js';

/** What responses.body holds: everything of a stored answer that only a reader of the whole answer needs. */
export interface AnswerBody {
  text: string;
  references: Reference[];
  raw: unknown;
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

const bodyValue = (b: AnswerBody) => [b.text, b.references.map(jsonbOrder), b.raw ?? null];

/** A stored answer's body as responses.body bytes. */
export function encodeAnswerBody(text: string, references: Reference[], raw: unknown): Buffer {
  return packJson(bodyValue({ text, references, raw }));
}

/** encodeAnswerBody of each body, the same bytes, a large batch compressed on a worker thread (packJsonBatch). */
export function encodeAnswerBodies(bodies: AnswerBody[]): Promise<Buffer[]> {
  return packJsonBatch(bodies.map(bodyValue));
}

/** The one reader of responses.body (PLAIN or BROTLI, lib/packed-json.ts). */
export function decodeAnswerBody(body: Uint8Array): AnswerBody {
  const [text, references, raw] = unpackJson(body) as [string, Reference[] | null, unknown];
  return { text, references: references ?? [], raw };
}
