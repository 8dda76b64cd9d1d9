import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Invalid } from '../lib/errors.js';
import { findBadText, firstInvalidUtf8 } from '../lib/text.js';

// Every string a request carries meets one rule (src/lib/text.ts): valid Unicode, no NUL.
// Three doors lead text in, each checked here:
// - a JSON body: its bytes must be UTF-8 (decoding would otherwise turn a bad byte into
//   U+FFFD in silence), and JSON escapes must not make a lone surrogate or a NUL;
// - a query string: its percent-escapes must decode as UTF-8 (the stock parser keeps an
//   undecodable value as the raw `%ED%A0%80`, a value the client never meant);
// - path parameters: the router already refuses bad escapes (a 400 from frameworkErrors).

/** Query parameters whose percent-encoding did not decode, kept out of sight of the schemas. */
const UNDECODABLE = Symbol('undecodable query parameters');

/** A null-prototype record: a parameter named `__proto__` is a parameter like any other. */
function QueryRecord(): void {}
QueryRecord.prototype = Object.create(null);

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * The query parser (the router's own rules: `+` is a space, a repeated name gives an array,
 * a name without `=` has the value ''), plus a note of the parameters whose escapes do not
 * decode as UTF-8. Their value is kept as sent, the way the stock parser keeps it.
 */
export function parseQuery(query: string): Record<string, unknown> {
  const parsed = new (QueryRecord as unknown as new () => Record<string, string | string[]>)();
  const bad: string[] = [];
  for (const part of query.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    const name = decode(rawName);
    const value = decode(rawValue);
    if (name === null || value === null) bad.push(name ?? rawName);
    const key = name ?? rawName;
    const v = value ?? rawValue;
    const prev = parsed[key];
    if (prev === undefined) parsed[key] = v;
    else if (Array.isArray(prev)) prev.push(v);
    else parsed[key] = [prev, v];
  }
  if (bad.length) Object.defineProperty(parsed, UNDECODABLE, { value: bad, enumerable: false });
  return parsed;
}

function undecodable(query: unknown): string | undefined {
  return (query as { [UNDECODABLE]?: string[] } | null)?.[UNDECODABLE]?.[0];
}

/** Objects and arrays a JSON body may nest: no route's schema needs more than a handful. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether a parsed JSON value nests objects and arrays more than `limit` deep, walked with
 * an explicit stack (no recursion), stopping at the first level past the limit. JSON.parse
 * itself takes any depth, but every recursive walk after it (validation, the text rule,
 * JSON.stringify into the store) would overflow the stack: a 500 instead of a 400. The
 * walk visits objects and arrays only, so a body of long strings costs next to nothing
 * (cheaper than scanning the text's characters).
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[object, number]> = value !== null && typeof value === 'object' ? [[value, 1]] : [];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, depth] = next;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The JSON body parser: Fastify's own (proto-poisoning checks, its errors), on bytes checked to be UTF-8 and not nested too deep. */
function registerJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) {
      done(new Invalid(`Request body is not valid UTF-8 text (invalid byte at offset ${firstInvalidUtf8(bytes)})`), undefined);
      return;
    }
    parseJson(req, bytes.toString('utf8'), (err, parsed) => {
      if (!err && nestedDeeperThan(parsed, MAX_JSON_DEPTH)) {
        done(new Invalid(`Request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels of objects and arrays)`), undefined);
        return;
      }
      done(err, parsed);
    });
  });
}

/** Throws the 400 for the first string of the request that breaks the rule. */
export function checkRequestText(req: FastifyRequest): void {
  const name = undecodable(req.query);
  if (name !== undefined) throw new Invalid(`query parameter ${name} is not valid percent-encoded UTF-8`);
  for (const [value, label] of [
    [req.body, ''],
    [req.query, 'query parameter '],
    [req.params, 'path parameter '],
  ] as const) {
    const bad = findBadText(value);
    if (bad) throw new Invalid(`${bad.at ? `${label}${bad.at}` : 'Request body'} ${bad.problem}`);
  }
}

export function registerRequestText(app: FastifyInstance): void {
  registerJsonParser(app);
  // Before schema validation: the values are checked as the client sent them, before any
  // transform, and no schema message echoes text that cannot be shown.
  // A route that answers bad text in its own words (MCP: a tool error) says so in its config.
  app.addHook('preValidation', async (req) => {
    if (!req.routeOptions.config?.ownTextRule) checkRequestText(req);
  });
}
