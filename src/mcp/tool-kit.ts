import { z } from 'zod';
import type { RequestContext } from '../context.js';
import { Forbidden, Invalid } from '../lib/errors.js';
import { findBadText } from '../lib/text.js';
import { READ_ONLY_DETAIL } from '../http/auth.js';
import { zodIssuesDetail } from '../http/error-handler.js';

/** What a tool does to the world, said truthfully to the client (MCP tool annotations). */
export interface Hints {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

type Part = z.ZodType | undefined;
type Out<T extends Part> = T extends z.ZodType ? z.output<T> : Record<string, never>;
export type Args<P extends Part, Q extends Part, B extends Part> = { params: Out<P>; query: Out<Q>; body: Out<B> };

/**
 * One MCP tool over one REST route: the route's own zod schemas (params, query, body and
 * its 200 response), the service call the route makes, and a sentence a person can read.
 * `scope: 'admin'` is the route's `config.scope`: a viewer key neither sees nor runs it.
 */
export interface ToolSpec<P extends Part, Q extends Part, B extends Part, O extends z.ZodType> {
  name: string;
  title: string;
  description: string;
  scope: 'read' | 'admin';
  hints: Hints;
  params?: P;
  query?: Q;
  body?: B;
  output: O;
  run(ctx: RequestContext, args: Args<P, Q, B>): Promise<z.input<O>>;
  summary(out: z.output<O>, ctx: RequestContext, args: Args<P, Q, B>): string | Promise<string>;
}

/** A tool with its types erased, ready to list and call. */
export interface Tool {
  spec: ToolSpec<Part, Part, Part, z.ZodType>;
  /** The JSON Schemas of tools/list, made once. */
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  /** Argument name → the REST field it stands for, where the two differ (`topic_id` → `topicId`). */
  restNames: Map<string, string>;
}

/**
 * Tool arguments are snake_case, every one of them: the REST contract names a few body
 * fields in camelCase (`topicId`, `promptType`), and an agent should not have to guess
 * which convention each tool follows. The tool takes `topic_id` and hands REST `topicId`.
 */
export const argumentName = (restName: string): string => restName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A part's object schema (an optional body is unwrapped: MCP arguments are one object). */
function objectOf(schema: Part): z.ZodObject | undefined {
  if (!schema) return undefined;
  let inner: z.ZodType = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType;
  if (!(inner instanceof z.ZodObject)) throw new Error('an MCP tool part must be an object schema');
  return inner;
}

/**
 * The JSON Schema an MCP client reads, in JSON Schema 2020-12, the dialect MCP names for
 * tool schemas (a tuple is `prefixItems`, not draft-07's array form of `items`). No
 * `$schema`: 2020-12 is MCP's default, and clients on a draft-07 validator still read it.
 */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, unknown>;
  // A schema registered with an id comes back as a $ref to itself; MCP wants the object at
  // the root (type: object), so the definition is lifted there (and kept for inner refs).
  const ref = typeof rest.$ref === 'string' ? rest.$ref.replace('#/$defs/', '') : null;
  const defs = rest.$defs as Record<string, Record<string, unknown>> | undefined;
  if (ref && defs?.[ref]) return { ...defs[ref], $defs: defs };
  return rest;
}

export function tool<P extends Part = undefined, Q extends Part = undefined, B extends Part = undefined, O extends z.ZodType = z.ZodType>(
  spec: ToolSpec<P, Q, B, O>,
): Tool {
  const shape = { ...objectOf(spec.params)?.shape, ...objectOf(spec.query)?.shape, ...objectOf(spec.body)?.shape };
  const restNames = new Map(Object.keys(shape).filter((k) => argumentName(k) !== k).map((k) => [argumentName(k), k]));
  const argShape = Object.fromEntries(Object.entries(shape).map(([k, v]) => [argumentName(k), v]));
  return {
    spec: spec as unknown as Tool['spec'],
    inputSchema: jsonSchemaOf(z.strictObject(argShape), 'input'),
    outputSchema: jsonSchemaOf(spec.output, 'output'),
    restNames,
  };
}

/** A REST message about a renamed field, in the tool's words (`topicId is required` → `topic_id is required`). */
function inArgumentNames(t: Tool, detail: string): string {
  let out = detail;
  for (const [arg, restName] of t.restNames) out = out.replace(new RegExp(`\\b${restName}\\b`, 'g'), arg);
  return out;
}

function parsePart(t: Tool, schema: Part, value: Record<string, unknown>, part: 'params' | 'querystring' | 'body'): unknown {
  if (!schema) return {};
  const r = schema.safeParse(value);
  if (!r.success) throw new Invalid(inArgumentNames(t, zodIssuesDetail(r.error.issues, part)));
  return r.data;
}

/**
 * The arguments split the way REST receives them (path, query, body) and checked in
 * REST's order, with REST's texts: the text rule, the key's scope, then params, body,
 * query. An argument no part knows goes to the body (or the query), whose strict
 * schema names it, as REST does.
 */
export function parseArgs(t: Tool, ctx: RequestContext, raw: Record<string, unknown>): Args<Part, Part, Part> {
  const bad = findBadText(raw);
  if (bad) throw new Invalid(`${bad.at || 'Arguments'} ${bad.problem}`);
  const { spec } = t;
  if (spec.scope === 'admin' && ctx.auth.scope !== 'admin') throw new Forbidden(READ_ONLY_DETAIL, 'read_only_key');
  const paramKeys = new Set(Object.keys(objectOf(spec.params)?.shape ?? {}));
  const queryKeys = new Set(Object.keys(objectOf(spec.query)?.shape ?? {}));
  const params: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  const restNameOf = new Set(t.restNames.values());
  for (const [arg, v] of Object.entries(raw)) {
    // The REST spelling of a renamed argument is not an alias: one name per argument.
    if (restNameOf.has(arg)) throw new Invalid(`Unknown field: ${arg} (this tool calls it ${argumentName(arg)})`);
    const k = t.restNames.get(arg) ?? arg;
    if (paramKeys.has(k)) params[k] = v;
    else if (queryKeys.has(k) || (!spec.body && spec.query)) query[k] = v;
    else body[k] = v;
  }
  if (!spec.body && !spec.query && Object.keys(body).length) {
    const keys = Object.keys(body);
    throw new Invalid(`Unknown field${keys.length > 1 ? 's' : ''}: ${keys.join(', ')}`);
  }
  return {
    params: parsePart(t, spec.params, params, 'params') as never,
    body: parsePart(t, spec.body, body, 'body') as never,
    query: parsePart(t, spec.query, query, 'querystring') as never,
  };
}

/** Figures in summaries: one decimal, as a person reads them. */
export const pct = (v: number | null | undefined): string => (v === null || v === undefined ? 'n/a' : `${v.toFixed(1)}%`);
export const ci = (c: [number, number] | null | undefined): string => (c ? ` (95% CI ${c[0].toFixed(1)}–${c[1].toFixed(1)})` : '');
export const plural = (n: number, word: string, many = `${word}s`): string => `${n} ${n === 1 ? word : many}`;
