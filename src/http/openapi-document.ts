import { STATUS_CODES } from 'node:http';
import type { SwaggerTransformObject } from '@fastify/swagger';
import { jsonSchemaTransformObject } from 'fastify-type-provider-zod';

// The OpenAPI document: what the per-route schemas cannot say (shared response headers,
// the error responses, the components every $ref points to).

type JsonObject = Record<string, unknown>;
type DocResponse = { description?: string; headers?: JsonObject; content?: JsonObject } | { $ref: string };
interface DocOperation {
  operationId?: string;
  requestBody?: unknown;
  responses?: Record<string, DocResponse>;
}
interface Doc {
  paths?: Record<string, Record<string, DocOperation>>;
  components?: { schemas?: Record<string, unknown> } & JsonObject;
}

/** Response headers, described once in components.headers and referenced by every response. */
export const RESPONSE_HEADERS = {
  'X-Request-Id': {
    description: "This request's id: the client's X-Request-Id when well-formed, generated otherwise; errors repeat it as `request_id`",
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description: "Requests allowed per sliding rate-limit window (60 s by default): per key by its team's tier, per client address without a valid key",
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', required: true, schema: { type: 'integer', minimum: 0 } },
  'X-Credit-Available': {
    description: "Credits left this month for the key's team; 0 when no team is known",
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': { description: 'Seconds to wait before retrying (a 429 with code rate_limited, a 503)', schema: { type: 'integer', minimum: 0 } },
  'X-Retained-From': {
    description:
      'Extension, on the reads of raw answers (chats, a prompt\'s domains, URLs and searches) whose window starts before the first day whose answers are kept under RETENTION_MONTHS: that day (YYYY-MM-DD). The figures of the same window (rollups) stay whole.',
    schema: { type: 'string', format: 'date' },
  },
} as const;

/** The operations that read raw answers, whose 200 may carry X-Retained-From (src/http/retained-from.ts). */
const RETENTION_OPERATIONS = new Set(['listChats', 'listProjectChats', 'listPromptDomains', 'listPromptUrls', 'listPromptSearchQueries']);

const headerRefs = (status: string) =>
  Object.fromEntries(
    ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-Credit-Available', ...(['429', '503'].includes(status) ? ['Retry-After'] : [])].map(
      (h) => [h, { $ref: `#/components/headers/${h}` }],
    ),
  );

/** What an error status means in this API; each is one reusable response of the Error schema. */
const ERROR_MEANINGS: Record<string, string> = {
  '400': 'Invalid request: malformed JSON, a field or parameter that fails validation, an unknown field, or an operation the state does not allow',
  '401': 'Missing, invalid, inactive or expired API key (operator routes: missing or wrong bearer token)',
  '403': "Another team's project, a read-only key asking for a write, or the plan's project limit",
  '404': 'No such record',
  '409': 'Conflicts with an existing record or a run in progress',
  '413': 'The request body is over 1 MiB',
  '414': 'A path segment is over 200 characters',
  '415': 'The request body is not application/json',
  '422': 'The target page could not be fetched',
  '429': 'Rate limit exceeded (code rate_limited, with Retry-After), or a plan quota reached (waiting does not help)',
  '500': 'Internal error',
  '502': 'The writer model failed',
  '503': 'The store is unreachable; retry after Retry-After',
};
const ERROR_SCHEMA = '#/components/schemas/Error';
const responseName = (status: string) => (STATUS_CODES[status] ?? `Status${status}`).replace(/[^A-Za-z]/g, '');
const ERROR_RESPONSES = Object.fromEntries(
  Object.entries(ERROR_MEANINGS).map(([status, description]) => [
    responseName(status),
    { description, headers: headerRefs(status), content: { 'application/json': { schema: { $ref: ERROR_SCHEMA } } } },
  ]),
);

/**
 * Statuses any operation can send whatever its route says, so routes added later document
 * them too: 414 (an over-long path segment, refused by the router before routing, whatever
 * the path), 429 (the limiter runs before every route), 503 (the store is unreachable),
 * and 413 and 415 where it takes a body.
 */
const GENERIC_STATUSES = (op: DocOperation): string[] => ['414', '429', '503', ...(op.requestBody ? ['413', '415'] : [])];

/**
 * transformObject: the library's jsonSchemaTransformObject, which writes each schema of the
 * zod registry with an id as two components (`X` as responses are serialized, `XInput` as
 * requests are parsed), then what the route schemas leave out:
 * - only the components an operation reaches: routes use the registered schemas as
 *   responses only, so each unused `XInput` twin would be an orphan copy;
 * - the answers any route can give besides its own (GENERIC_STATUSES). They are
 *   documented here, not in the routes' response maps, which also choose the serializer;
 * - a description and the headers of every response; error statuses as shared responses.
 */
export const completeDocument: SwaggerTransformObject = (input) => {
  const doc = jsonSchemaTransformObject(input) as Doc;
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      const generic = GENERIC_STATUSES(op);
      const responses: Record<string, DocResponse> = { ...Object.fromEntries(generic.map((s) => [s, {}])), ...op.responses };
      op.responses = Object.fromEntries(
        Object.keys(responses)
          .sort()
          .map((status) => [status, completeResponse(status, responses[status], RETENTION_OPERATIONS.has(op.operationId ?? ''))]),
      );
    }
  }
  doc.components = { ...doc.components, responses: ERROR_RESPONSES };
  doc.components.schemas = reachableSchemas(doc);
  return doc as ReturnType<SwaggerTransformObject>;
};

function completeResponse(status: string, res: DocResponse, readsAnswers = false): DocResponse {
  if ('$ref' in res) return res;
  const schema = (res.content?.['application/json'] as { schema?: { $ref?: string } } | undefined)?.schema;
  const plainError = !res.content || (schema?.$ref === ERROR_SCHEMA && Object.keys(schema).length === 1);
  if (status in ERROR_MEANINGS && plainError) return { $ref: `#/components/responses/${responseName(status)}` };
  const description = res.description && res.description !== 'Default Response' ? res.description : (STATUS_CODES[status] ?? status);
  const retention = readsAnswers && status === '200' ? { 'X-Retained-From': { $ref: '#/components/headers/X-Retained-From' } } : {};
  return { ...res, description, headers: { ...headerRefs(status), ...retention, ...res.headers } };
}

/** components.schemas less those no operation reaches, directly or through another schema; sorted by id. */
function reachableSchemas(doc: Doc): Record<string, unknown> {
  const all = doc.components?.schemas ?? {};
  const refs = (value: unknown) => [...JSON.stringify(value).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
  const reached = new Set<string>();
  const queue = refs({ ...doc, components: { ...doc.components, schemas: {} } });
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (reached.has(id) || !(id in all)) continue;
    reached.add(id);
    queue.push(...refs(all[id]));
  }
  return Object.fromEntries(
    Object.keys(all)
      .filter((id) => reached.has(id))
      .sort()
      .map((id) => [id, all[id]]),
  );
}
