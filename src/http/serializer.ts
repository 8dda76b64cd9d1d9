import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler } from 'fastify-type-provider-zod';

/**
 * The 200 answers serialized with JSON.stringify alone, without zod's encode pass (which
 * copies the whole body to check it: about half the CPU of a year of daily series). Only
 * routes whose handlers build their answer field by field in the schema's order and shape
 * belong here; src/modules/analytics/analytics.test.ts holds each one to zod's
 * serialization of the same answers, byte for byte (src/modules/projects/project-cache.test.ts
 * the project's answer in each of its states), so the contract check moves from every
 * request to the tests. On a small body (GET /projects/{id}, the path a client polls) zod's
 * pass costs more than the rest of the handler.
 */
export const PLAIN_JSON_ROUTES = new Set([
  '/v1/projects/:project_id',
  '/v1/projects/:project_id/overview',
  '/v1/projects/:project_id/visibility',
  '/v1/projects/:project_id/sources/analytics',
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

const plain = (payload: unknown): string => {
  const data = (payload as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null || !Object.isFrozen(data) || !isEnvelopeA(payload)) return JSON.stringify(payload);
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

/** Zod's serializer (fastify-type-provider-zod), except for the 200 answers of PLAIN_JSON_ROUTES. */
export const routeSerializerCompiler: FastifySerializerCompiler<unknown> = (route) =>
  route.httpStatus === '200' && PLAIN_JSON_ROUTES.has(route.url ?? '') ? plain : (serializerCompiler as FastifySerializerCompiler<unknown>)(route);
