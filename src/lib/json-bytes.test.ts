import { describe, expect, it, vi } from 'vitest';
import { jsonBytes, jsonPayload } from './json-bytes.js';
import { mulberry32 } from './random.js';

const STRINGS = ['', 'plain', 'quote " and \\ backslash', 'line\nbreak\ttab', 'é — “typographic” ✓', '\u{1F600} emoji', 'lone \ud800 surrogate', '</script>', '\u0000\u001f'];
/** JSON.rawJSON (Node.js 21 and later; not in TypeScript's lib yet). */
const rawJson = (JSON as unknown as { rawJSON: (text: string) => object }).rawJSON;

const KEYS = ['id', 'name', '__proto__', '10', '2', 'a b', 'ключ', 'toString', 'constructor', ''];

/** A random JSON-ish value: nested objects and arrays, with what JSON.stringify drops or converts. */
function randomValue(next: () => number, depth: number): unknown {
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const roll = next();
  if (depth > 5 || roll < 0.35) {
    return pick<unknown>([0, -1.5, 1e21, Number.NaN, Number.POSITIVE_INFINITY, true, false, null, undefined, pick(STRINGS), () => 1, Symbol('s'), new Date(Date.UTC(2026, 10, 27))]);
  }
  if (roll < 0.65) return Array.from({ length: Math.floor(next() * 12) }, () => randomValue(next, depth + 1));
  const out: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 8); i > 0; i--) Object.defineProperty(out, pick(KEYS) + (next() < 0.5 ? '' : String(i)), { value: randomValue(next, depth + 1), enumerable: true, writable: true, configurable: true });
  return out;
}

describe('jsonBytes', () => {
  it('gives the bytes of JSON.stringify for random nested values', () => {
    const next = mulberry32(20261127);
    for (let i = 0; i < 2000; i++) {
      const value = { success: true, data: randomValue(next, 0) };
      expect(jsonBytes(value).toString('utf8')).toBe(JSON.stringify(value));
    }
  });

  it('honours toJSON, raw JSON, members JSON leaves out, and arrays and objects at every depth', () => {
    const cases: object[] = [
      {},
      [],
      { a: undefined, b: () => 1, c: Symbol('x') },
      { data: { items: [{ a: undefined }, { b: () => 2 }, {}] } },
      { data: { chart: { '2026-01-01': [{ n: 1 }], '2026-01-02': undefined, '3': [] } } },
      [[[[[1, [2, { x: [3] }]]]]]],
      { at: new Date(0), custom: { toJSON: () => ({ replaced: true }) }, nested: { deep: { deeper: { toJSON: () => 'text' } } } },
      { raw: rawJson('12345678901234567890'), data: { list: [rawJson('1e400')] } },
      Object.assign(Object.create(null) as object, { data: { nulls: Object.assign(Object.create(null) as object, { k: 1 }) } }),
      { boxed: { data: [new Number(3), new String('s'), new Boolean(false)] } },
      { map: new Map([[1, 2]]), set: { data: [new Set([1])] } },
    ];
    for (const value of cases) expect(jsonBytes(value).toString('utf8')).toBe(JSON.stringify(value));
  });

  it('jsonPayload: a short text as the string JSON.stringify gives, a long one as its bytes', () => {
    const short = { success: true, data: { items: Array.from({ length: 100 }, (_, i) => ({ id: i, name: `item ${i}` })) } };
    expect(jsonPayload(short)).toBe(JSON.stringify(short));
    const long = { success: true, data: { items: Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `item ${i} ${'x'.repeat(40)}` })) } };
    const payload = jsonPayload(long);
    expect(Buffer.isBuffer(payload)).toBe(true);
    expect((payload as Buffer).toString('utf8')).toBe(JSON.stringify(long));
  });

  it('writes arrays of numbers byte by byte, each number as JSON.stringify writes it', () => {
    const next = mulberry32(20261129);
    const special = [0, -0, 0.5, 1, 9.99, 10, 99.99, 100, 100.01, 1000.1, -0.01, -12.34, 0.1 + 0.2, 1 / 3, 2 ** 31, -(2 ** 31) - 0.25, 1e13 - 0.01, 1e13, 1e15, 1e21, 5e-7, Number.MAX_VALUE, Number.MIN_VALUE, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, null];
    const number = () => {
      const roll = next();
      if (roll < 0.15) return special[Math.floor(next() * special.length)];
      if (roll < 0.6) return Math.round((next() - 0.3) * 1e6) / 100; // two decimals, as the figures
      if (roll < 0.8) return Math.round(next() * 200) - 50;
      return (next() - 0.5) * 10 ** Math.floor(next() * 30 - 10);
    };
    for (let i = 0; i < 300; i++) {
      const length = Math.floor(next() * 40);
      const flat = Array.from({ length }, number);
      const intervals = Array.from({ length }, () => (next() < 0.2 ? null : next() < 0.1 ? number() : [number(), number()]));
      // a series object below the depth stringified whole, as the visibility answer's
      const value = { success: true, data: { series: [{ name: 'x', flat, intervals, nested: { deeper: flat } }] } };
      expect(jsonBytes(value).toString('utf8')).toBe(JSON.stringify(value));
      expect(jsonBytes(flat).toString('utf8')).toBe(JSON.stringify(flat));
    }
    // every two-decimal value of the percentage scale and its negative
    const percents = Array.from({ length: 20001 }, (_, i) => (i - 10000) / 100);
    expect(jsonBytes(percents).toString('utf8')).toBe(JSON.stringify(percents));
    // across several of the buffers written into, and arrays that are not all numbers
    const long = { data: Array.from({ length: 12 }, (_, i) => Array.from({ length: 30000 }, (_, j) => (j === 29999 && i === 5 ? 'text' : j % 13 === 0 ? null : (i * 30000 + j) / 100))) };
    expect(jsonBytes(long).toString('utf8')).toBe(JSON.stringify(long));
  });

  it('writes a body of megabytes in parts none of which is a large string', () => {
    const chats = Array.from({ length: 400 }, (_, i) => ({ id: `chat-${i}`, full_content: `Answer ${i} ${'text of the answer '.repeat(200)}`, references: [{ link: `https://example.com/${i}` }] }));
    const chart = Object.fromEntries(Array.from({ length: 3650 }, (_, d) => [`day-${d}`, [{ provider: 'chatgpt', value: d / 3650, n: 5 }]]));
    const series = Array.from({ length: 40000 }, (_, i) => i / 7);
    const value = { success: true, data: { items: chats, chart, series } };
    const whole = JSON.stringify(value);
    expect(whole.length).toBeGreaterThan(2_000_000);
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const bytes = jsonBytes(value);
      const longest = Math.max(...stringify.mock.results.map((r) => (typeof r.value === 'string' ? r.value.length : 0)));
      // a string of 128 KB is a large object to V8; every part stays well under it
      expect(longest).toBeLessThan(64 * 1024);
      expect(bytes.equals(Buffer.from(whole, 'utf8'))).toBe(true);
    } finally {
      stringify.mockRestore();
    }
  });
});
