import crypto from 'node:crypto';
import type { RouteEntry } from '../src/server.js';

// Valid sample requests for any route of app.routeTable, derived from its zod schemas, so
// the tests that walk every route (auth matrix, fuzz) cover routes added later without a
// hand-written table. zod 4 has no example generator: each leaf is filled from a list of
// plausible candidates, keeping the first one its schema accepts, and the whole body is
// checked with the route's own schema at the end.

interface ZodLike {
  _zod: { def: Record<string, any> };
  safeParse(v: unknown): { success: boolean };
}

const isZod = (s: unknown): s is ZodLike => !!s && typeof s === 'object' && '_zod' in s && 'safeParse' in s;

export const uuid = (): string => crypto.randomUUID();
const today = () => new Date().toISOString().slice(0, 10);
const future = () => new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString();

/** Candidate strings for a field, the likeliest meaning first (by the field's name). */
function stringCandidates(hint: string): string[] {
  const h = hint.toLowerCase();
  const byName: string[] = [];
  if (/webhook_id/.test(h)) byName.push(`wh_${crypto.randomBytes(12).toString('hex')}`);
  if (/url|website|domain|link/.test(h)) byName.push('https://example-brand.com/page', 'example-brand.com');
  if (/email/.test(h)) byName.push(`sample-${crypto.randomBytes(4).toString('hex')}@example.com`);
  if (/(^|_)id$|id$|ids?$/.test(h)) byName.push(uuid());
  if (/date_from|date_to|(^|_)date$/.test(h)) byName.push(today());
  if (/_at$|time/.test(h)) byName.push(future());
  if (/country|location/.test(h)) byName.push('US');
  if (/language|lang/.test(h)) byName.push('en');
  if (/event/.test(h)) byName.push('action.completed');
  if (/provider/.test(h)) byName.push('chatgpt', 'chatgpt,perplexity');
  return [
    ...byName,
    `Sample ${h || 'text'} ${crypto.randomBytes(3).toString('hex')}`,
    uuid(),
    'https://example-brand.com/page',
    'example-brand.com',
    'US',
    'en',
    today(),
    future(),
    `wh_${crypto.randomBytes(12).toString('hex')}`,
    'action.completed',
    'a',
  ];
}

/** A value the schema accepts, or undefined when none of the candidates fits. */
export function sampleOf(schema: unknown, hint = ''): unknown {
  if (!isZod(schema)) return undefined;
  const def = schema._zod.def;
  const ok = (v: unknown) => schema.safeParse(v).success;
  const first = (cands: unknown[]) => cands.find((c) => c !== undefined && ok(c));
  switch (def.type) {
    case 'string':
    case 'template_literal':
      return first(stringCandidates(hint));
    case 'number':
    case 'int':
      return first([1, 7, 50, 0, 0.5, 100, -1]);
    case 'bigint':
      return undefined;
    case 'boolean':
      return first([true, false]);
    case 'null':
      return null;
    case 'literal':
      return first([...(def.values ?? [])]);
    case 'enum':
      return first(Object.values(def.entries ?? {}));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return first([sampleOf(def.innerType, hint)]);
    case 'pipe':
      return first([sampleOf(def.in, hint)]);
    case 'lazy':
      return first([sampleOf(def.getter(), hint)]);
    case 'union':
      return first((def.options ?? []).map((o: unknown) => sampleOf(o, hint)));
    case 'array': {
      const el = sampleOf(def.element, hint.replace(/s$/, ''));
      return el === undefined ? first([[]]) : first([[el], [el, sampleOf(def.element, hint)], []]);
    }
    case 'tuple':
      return first([(def.items ?? []).map((i: unknown) => sampleOf(i, hint))]);
    case 'record':
      return first([{}]);
    case 'object':
      return sampleObject(schema);
    case 'any':
    case 'unknown':
      return first(['sample', 1, {}]);
    default:
      return undefined;
  }
}

function isOptional(s: unknown): boolean {
  return isZod(s) && (s as any).safeParse(undefined).success;
}

function sampleObject(schema: ZodLike, minimal = false): unknown {
  const shape: Record<string, unknown> = schema._zod.def.shape ?? {};
  const required: Record<string, unknown> = {};
  const optional: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(shape)) {
    const v = sampleOf(s, k);
    if (isOptional(s)) {
      if (v !== undefined) optional[k] = v;
    } else {
      if (v === undefined) return undefined;
      required[k] = v;
    }
  }
  // Every field first (an update with all-optional fields must not be empty); then one
  // optional field at a time (bodies that take exactly one of several); then required only.
  const singles = Object.entries(optional).map(([k, v]) => ({ ...required, [k]: v }));
  const tries = minimal ? [required, ...singles, { ...required, ...optional }] : [{ ...required, ...optional }, ...singles, required];
  return tries.find((b) => schema.safeParse(b).success);
}

/** Field names of an object schema (unwrapping optional / pipe), for fuzzing "right keys, wrong values". */
export function objectKeys(schema: unknown): string[] {
  if (!isZod(schema)) return [];
  const def = schema._zod.def;
  if (def.type === 'object') return Object.keys(def.shape ?? {});
  if (def.innerType) return objectKeys(def.innerType);
  if (def.type === 'pipe') return objectKeys(def.in);
  return [];
}

export const paramNames = (url: string): string[] => [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);

/** Path params: the given overrides, else a valid sample from the params schema, else a UUID. */
export function sampleParams(route: RouteEntry, overrides: Record<string, string> = {}): Record<string, string> {
  const shape: Record<string, unknown> = (route.schema?.params as any)?._zod?.def?.shape ?? {};
  const out: Record<string, string> = {};
  for (const name of paramNames(route.url)) {
    if (overrides[name] !== undefined) out[name] = overrides[name];
    else {
      const v = sampleOf(shape[name], name);
      out[name] = typeof v === 'string' ? v : name === 'webhook_id' ? `wh_${crypto.randomBytes(12).toString('hex')}` : uuid();
    }
  }
  return out;
}

export function fillPath(url: string, params: Record<string, string>): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? uuid()));
}

export function sampleUrl(route: RouteEntry, overrides: Record<string, string> = {}): string {
  return fillPath(route.url, sampleParams(route, overrides));
}

/**
 * A valid body for the route: `null` when the route takes no body, `undefined` when one
 * is needed but could not be generated (the caller skips and reports the route).
 */
export function sampleBody(route: RouteEntry): Record<string, unknown> | null | undefined {
  const schema = route.schema?.body;
  if (!schema) return null;
  const v = sampleOf(schema);
  return v === undefined ? undefined : (v as Record<string, unknown>);
}

/**
 * Every distinct valid body the generator can offer, fullest first, `null` (no body) last
 * when the route takes none or an optional one. A service may still refuse a schema-valid
 * body for a reason between fields (or with the path), so callers can try each in turn.
 */
export function sampleBodies(route: RouteEntry): Array<Record<string, unknown> | null> {
  const schema = route.schema?.body;
  if (!schema) return [null];
  if (!isZod(schema)) return [];
  const out: Array<Record<string, unknown> | null> = [];
  const add = (v: unknown) => {
    if (v === undefined || !schema.safeParse(v).success) return;
    if (!out.some((o) => JSON.stringify(o) === JSON.stringify(v))) out.push(v as Record<string, unknown>);
  };
  add(sampleOf(schema));
  const obj = unwrapObject(schema);
  if (obj) {
    add(sampleObject(obj));
    add(sampleObject(obj, true));
    for (const k of objectKeys(obj)) {
      const v = sampleOf((obj._zod.def.shape as Record<string, unknown>)[k], k);
      if (v !== undefined) add({ ...((sampleObject(obj, true) as object) ?? {}), [k]: v });
    }
    add({});
  }
  if (schema.safeParse(undefined).success || schema.safeParse(null).success) out.push(null);
  return out;
}

function unwrapObject(s: unknown): ZodLike | null {
  if (!isZod(s)) return null;
  const def = s._zod.def;
  if (def.type === 'object') return s;
  if (def.innerType) return unwrapObject(def.innerType);
  if (def.type === 'pipe') return unwrapObject(def.in);
  return null;
}

/** A query string with the route's required query parameters (empty when it has none). */
export function sampleQuery(route: RouteEntry): string {
  const q = route.schema?.querystring;
  if (!q) return '';
  // Only what is required: optional filters keep their defaults.
  const v = (isZod(q) && q._zod.def.type === 'object' ? sampleObject(q, true) : sampleOf(q)) as Record<string, unknown> | undefined;
  if (!v || typeof v !== 'object') return '';
  const entries = Object.entries(v).filter(([, x]) => x !== undefined && x !== null);
  return entries.length ? `?${new URLSearchParams(entries.map(([k, x]) => [k, String(x)])).toString()}` : '';
}

export const isWrite = (method: string) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method);
export const routeName = (r: RouteEntry) => `${r.method} ${r.url}`;
