import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { jsonPayload } from '../lib/json-bytes.js';

/**
 * The 200 answers to GET serialized with JSON.stringify alone, without zod's encode pass (which
 * copies the whole body to check it: about half the CPU of a year of daily series). Only
 * routes whose handlers build their answer field by field in the schema's order and shape
 * belong here; src/modules/analytics/analytics.test.ts holds each one to zod's
 * serialization of the same answers, byte for byte (src/modules/projects/project-cache.test.ts
 * the project's answer in each of its states), so the contract check moves from every
 * request to the tests. On a small body (GET /projects/{id}, the path a client polls) zod's
 * pass costs more than the rest of the handler. Their text goes out as bytes written a part at
 * a time (lib/json-bytes.ts): an answer of hundreds of kilobytes never becomes one string, which
 * V8 would keep as a large object whose freeing lengthens the collection a request meets.
 */
export const PLAIN_JSON_ROUTES = new Set([
  '/v1/projects/:project_id',
  '/v1/projects/:project_id/overview',
  '/v1/projects/:project_id/visibility',
  '/v1/projects/:project_id/sources/analytics',
  '/v1/projects/:project_id/prompts',
  '/v1/projects/:project_id/prompts/:prompt_id',
  '/v1/projects/:project_id/prompts/:prompt_id/analytics',
  '/v1/projects/:project_id/prompts/:prompt_id/chats',
  '/v1/projects/:project_id/prompts/:prompt_id/domains',
  '/v1/projects/:project_id/prompts/:prompt_id/urls',
]);

/**
 * Envelope A around a frozen answer (one a cache hands to every caller for a while, as
 * GET /projects/{id}'s): serialized once per answer, kept as long as the answer is.
 */
const serializedEnvelopes = new WeakMap<object, string>();

const plain = (payload: unknown): string | Buffer => {
  const data = (payload as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null || !Object.isFrozen(data) || !isEnvelopeA(payload)) {
    return typeof payload === 'object' && payload !== null ? jsonPayload(payload) : JSON.stringify(payload);
  }
  let text = serializedEnvelopes.get(data);
  if (text === undefined) serializedEnvelopes.set(data, (text = JSON.stringify(payload)));
  return text;
};

/** `{success: true, data}` and nothing else: the only shape whose text follows from its data alone. */
function isEnvelopeA(payload: unknown): boolean {
  const p = payload as Record<string, unknown>;
  if (p.success !== true) return false;
  let keys = 0;
  for (const _ in p) keys++;
  return keys === 2;
}

// Fastify's type says a serializer returns a string; what it returns goes to the onSend hooks
// and out as it is, and a Buffer is a payload they take (a string's bytes, sent the same).
const plainSerializer = plain as (payload: unknown) => string;

/**
 * Zod's serializer (fastify-type-provider-zod), except for the 200 answers of GET on
 * PLAIN_JSON_ROUTES: a change on the same path (PATCH or DELETE of a project) answers with
 * zod's check, as its body is not the one the tests hold to zod's serialization.
 */
export const routeSerializerCompiler: FastifySerializerCompiler<unknown> = (route) =>
  route.method === 'GET' && route.httpStatus === '200' && PLAIN_JSON_ROUTES.has(route.url ?? '')
    ? plainSerializer
    : (serializerCompiler as FastifySerializerCompiler<unknown>)(route);
