import fc from 'fast-check';
import type { RouteEntry } from '../src/server.js';
import { objectKeys, paramNames, sampleBody, sampleOf } from './route-samples.js';

// The generated requests of test/fuzz.test.ts: for one route of app.routeTable, bodies,
// query strings, path parameters and headers that are random, almost right (the route's
// own keys with wrong values, a valid body with one field broken), or hostile (lone
// surrogates, NUL, invalid UTF-8 bytes, deep nesting, huge strings).

export const LONE_SURROGATES = ['\ud800', 'a\udc00b', '\udbff\udbff', 'ok\udfff', '\ud83d'];

export const weirdStrings = fc.constantFrom(
  '',
  ' ',
  '0',
  '-1',
  'null',
  'true',
  '[]',
  '{}',
  "' or 1=1 --",
  '"; drop table teams; --',
  '../../etc/passwd',
  '%00',
  '\u0000',
  '\uFEFF',
  '𝕊𝕚𝕘𝕙𝕥',
  'ünïcödé',
  '<script>alert(1)</script>',
  'https://',
  'https://exa mple.com',
  'http://[::1]/',
  'https://localhost/',
  'https://0x7f000001/',
  '1e309',
  'NaN',
  '2026-02-30',
  '2026-01-01T25:61:00Z',
  'wh_',
  `wh_${'a'.repeat(64)}`,
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  ...LONE_SURROGATES,
);
const hugeString = fc.constantFrom('x'.repeat(10_000), 'y'.repeat(200_000), '\u00e9'.repeat(300_000));
/** Any UTF-16 code units at all, lone surrogates included. */
const codeUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)), maxLength: 12 });
export const anyString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 3, arbitrary: weirdStrings },
  { weight: 2, arbitrary: codeUnits },
  { weight: 1, arbitrary: hugeString },
);
export const anyNumber = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -0, 1e308, -1, 2 ** 53 + 1));
const leaf = fc.oneof(anyString, anyNumber, fc.boolean(), fc.constant(null), fc.uuid());
const anyKey = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...LONE_SURROGATES, '__proto__', 'constructor', '\u0000'));
export const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(tie('v'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(anyKey, tie('v'), { maxKeys: 4 }) },
  ),
})).v;

/** Nested arrays/objects far deeper than any schema. */
const deep = fc.integer({ min: 50, max: 5_000 }).chain((n) =>
  fc.constantFrom(`${'['.repeat(n)}${']'.repeat(n)}`, `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
);

/** Bytes that are not UTF-8, as a careless client sends them (decoders turn them into U+FFFD). */
const badUtf8 = fc.constantFrom([0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xff, 0xfe], [0xf4, 0x90, 0x80, 0x80]);

/** A body for the route: JSON text, or raw bytes with invalid UTF-8 spliced into a valid body. */
export function bodyArb(route: RouteEntry): fc.Arbitrary<string | Buffer | undefined> {
  const keys = objectKeys(route.schema?.body);
  const valid = sampleBody(route);
  const options: fc.Arbitrary<string | Buffer | undefined>[] = [
    fc.constant(undefined),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.anything({ maxDepth: 3 }).map((v) => {
      try {
        return JSON.stringify(v) ?? 'null';
      } catch {
        return '{}';
      }
    }),
    deep,
    fc.string({ maxLength: 30 }), // mostly malformed JSON
  ];
  if (keys.length) {
    const rec = Object.fromEntries(keys.map((k) => [k, value]));
    options.push(fc.record(rec, { requiredKeys: [] }).map((o) => JSON.stringify(o)));
    options.push(
      fc.tuple(fc.record(rec, { requiredKeys: [] }), fc.dictionary(anyKey, value, { maxKeys: 2 })).map(([a, b]) => JSON.stringify({ ...a, ...b })),
    );
  }
  if (valid && typeof valid === 'object') {
    const text = JSON.stringify(valid);
    options.push(fc.constant(text));
    const vkeys = Object.keys(valid);
    if (vkeys.length) {
      options.push(
        fc.tuple(fc.constantFrom(...vkeys), value).map(([k, v]) => JSON.stringify({ ...valid, [k]: v })),
        fc.tuple(fc.constantFrom(...vkeys), fc.constantFrom(...LONE_SURROGATES)).map(([k, s]) => JSON.stringify({ ...valid, [k]: s })),
        fc.constantFrom(...vkeys).map((k) => JSON.stringify({ ...valid, [k]: undefined })),
      );
    }
    // Inside the first string value, where a decoder would quietly replace them.
    const at = text.indexOf('":"') + 3;
    if (at > 2) options.push(badUtf8.map((b) => Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(b), Buffer.from(text.slice(at))])));
  }
  return fc.oneof(...options);
}

/** Percent-encoding that never throws: a lone surrogate becomes its 3 CESU-8 bytes, as a careless encoder writes it. */
export function encodeLoose(s: string): string {
  return s.replace(/[\ud800-\udbff][\udc00-\udfff]|[\s\S]/g, (ch) => {
    const unit = ch.charCodeAt(0);
    if (ch.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    }
    return encodeURIComponent(ch);
  });
}

export function paramArb(route: RouteEntry, name: string, projectId: string): fc.Arbitrary<string> {
  const shape = (route.schema?.params as any)?._zod?.def?.shape ?? {};
  const valid = sampleOf(shape[name], name);
  const options: fc.Arbitrary<string>[] = [fc.uuid(), fc.string({ maxLength: 30 }), weirdStrings, fc.string({ unit: 'grapheme', maxLength: 12 }), codeUnits];
  if (typeof valid === 'string') options.push(fc.constant(valid));
  if (name === 'project_id') options.push(fc.constant(projectId), fc.constant(projectId), fc.constant(projectId.toUpperCase()));
  if (name === 'webhook_id') options.push(fc.stringMatching(/^wh_[0-9A-Za-z]{1,64}$/));
  // Path segments as sent (already encoded), badly encoded ones included. At most 200
  // characters (the router's maxParamLength): longer ones get the router's 414, tested in
  // http-basics.
  const encoded = fc.oneof(...options).map(encodeLoose);
  const malformed = fc.constantFrom('%E0%A4%A', '%zz', 'abc%', '%', '%C0%AF', '%ED%A0%80', '%FF%FE');
  return fc.oneof({ weight: 9, arbitrary: encoded }, { weight: 1, arbitrary: malformed }).filter((x) => x.length <= 200);
}

const QUERY_KEYS = ['duration_days', 'date_from', 'date_to', 'providers', 'page', 'page_size', 'prompt_type', 'status', 'group', 'limit', 'offset'];
export function queryArb(route: RouteEntry): fc.Arbitrary<string> {
  const keys = [...new Set([...objectKeys(route.schema?.querystring), ...QUERY_KEYS])];
  const pairs = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 8 })), fc.oneof(anyString, anyNumber.map(String))), {
    maxLength: 5,
  });
  return fc.oneof(
    fc.constant(''),
    pairs.map((p) => (p.length ? `?${p.map(([k, v]) => `${encodeLoose(k)}=${encodeLoose(String(v))}`).join('&')}` : '')),
    fc.webQueryParameters().map((q) => `?${q}`),
    fc.constantFrom('?', '?&&&', '?a', '?=x', '?duration_days=1&duration_days=2', '?page=%zz', '?providers=%E0%A4%A', '?date_from=%00', '?group=%ED%A0%80', '?%ff=1'),
  );
}

/** Header values a client may send (printable ASCII: Node refuses the rest before the app). */
const headerText = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((n) => String.fromCharCode(n)), maxLength: 60 }),
  fc.constantFrom('', ' ', 'tk_live_', `tk_live_${'A'.repeat(32)}`, 'Bearer', 'null', 'x'.repeat(4000)),
);
export const headersArb = fc.record(
  {
    'x-request-id': fc.oneof(headerText, fc.constantFrom('ok-id.1:2', 'has space', 'x'.repeat(129))),
    accept: fc.oneof(headerText, fc.constantFrom('application/json', 'text/html', '*/*')),
    'accept-encoding': fc.constantFrom('gzip', 'br', 'identity', '*', 'x'),
    'x-forwarded-for': headerText,
    'x-api-key-extra': headerText,
    'if-none-match': headerText,
  },
  { requiredKeys: [] },
);

export type KeyChoice = 'admin' | 'viewer' | 'none' | 'garbage' | 'weird';
export interface Case {
  params: Record<string, string>;
  query: string;
  body: string | Buffer | undefined;
  contentType: string | undefined;
  key: KeyChoice;
  weirdKey: string;
  headers: Record<string, string>;
  ip: string;
}

export function caseArb(route: RouteEntry, projectId: string): fc.Arbitrary<Case> {
  const names = paramNames(route.url);
  return fc.record({
    params: fc.record(Object.fromEntries(names.map((n) => [n, paramArb(route, n, projectId)]))) as fc.Arbitrary<Record<string, string>>,
    query: queryArb(route),
    body: route.method === 'GET' ? fc.constant(undefined) : bodyArb(route),
    contentType: fc.oneof(
      { weight: 8, arbitrary: fc.constant('application/json') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(undefined, 'text/plain', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'application/x-www-form-urlencoded', 'application/jsonx', 'multipart/form-data'),
      },
    ),
    key: fc.oneof(
      { weight: 8, arbitrary: fc.constant<KeyChoice>('admin') },
      { weight: 1, arbitrary: fc.constantFrom<KeyChoice>('viewer', 'none', 'garbage', 'weird') },
    ),
    weirdKey: headerText,
    headers: fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: headersArb }) as fc.Arbitrary<Record<string, string>>,
    ip: fc.ipV4(),
  });
}

/** Every string inside a sample value, as a path of keys, for the invalid-text sweep. */
export function stringPaths(v: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof v === 'string') return [path];
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, c]) => stringPaths(c, [...path, Array.isArray(v) ? Number(k) : k]));
  return [];
}

export function withValueAt(v: unknown, path: (string | number)[], f: (s: string) => string): unknown {
  if (!path.length) return f(v as string);
  const copy: any = Array.isArray(v) ? [...v] : { ...(v as object) };
  copy[path[0]] = withValueAt(copy[path[0]], path.slice(1), f);
  return copy;
}
