import zlib from 'node:zlib';
import { expect, it, vi } from 'vitest';
import { BROTLI, PLAIN, packJson, packJsonBatch, packText, unpackBytes, unpackJson } from './packed-json.js';

const values = Array.from({ length: 40 }, (_, i) => [
  `Answer ${i}: ${'the best CRM for a small team is one that fits its pipeline. '.repeat(1 + (i % 7))}`,
  [{ url: `https://example.com/${i}`, title: `Page ${i} — “quoted” ✓` }],
  i % 3 ? { id: `resp_${i}`, nested: { n: i, list: [1, 2, 3] } } : null,
]);

it('packs a large batch on the worker thread into the same bytes as packJson', async () => {
  const packed = await packJsonBatch(values);
  expect(packed).toHaveLength(values.length);
  for (let i = 0; i < values.length; i++) {
    expect(packed[i][0]).toBe(BROTLI);
    expect(packed[i].equals(packJson(values[i]))).toBe(true);
    expect(unpackJson(packed[i])).toEqual(values[i]);
  }
});

it('packs a small batch in place, and batches sent at once come back each to its caller', async () => {
  const [small, ...large] = await Promise.all([packJsonBatch(values.slice(0, 3)), packJsonBatch(values.slice(0, 20)), packJsonBatch(values.slice(20))]);
  expect(small.map((b) => unpackJson(b))).toEqual(values.slice(0, 3));
  expect(large.flat().map((b) => unpackJson(b))).toEqual(values);
});

it('rejects a value that is not JSON', async () => {
  await expect(async () => packJsonBatch([...values, { n: 1n }])).rejects.toThrow(/BigInt/);
});

it('unpacks a text many times its packed size (more than one output chunk) whole', () => {
  const long = ['x'.repeat(300_000), [{ title: '—'.repeat(5000) }], { n: 1 }];
  const packed = packJson(long);
  expect(packed.length * 4).toBeLessThan(JSON.stringify(long).length / 10);
  expect(unpackJson(packed)).toEqual(long);
  expect(unpackJson(Buffer.concat([Buffer.from([0]), Buffer.from(JSON.stringify(long))]))).toEqual(long);
});

it('unpacks body after body with one decoder, the same text as zlib, without zlib\'s per-call path', () => {
  const packed = values.map((v) => packJson(v));
  const perCall = vi.spyOn(zlib, 'brotliDecompressSync');
  try {
    for (let round = 0; round < 3; round++) for (let i = 0; i < values.length; i++) expect(unpackJson(packed[i])).toEqual(values[i]);
    // a body past the kept output buffer (1 MB) grows it, and the next small one is still whole
    const huge = ['y'.repeat(3_000_000), [], null];
    expect(unpackJson(packJson(huge))).toEqual(huge);
    expect(unpackJson(packed[1])).toEqual(values[1]);
    expect(perCall).not.toHaveBeenCalled();
  } finally {
    perCall.mockRestore();
  }
});

it('a damaged body throws zlib\'s error, and the bodies after it unpack', () => {
  const good = packJson(values[5]);
  const truncated = good.subarray(0, Math.floor(good.length / 2));
  const flipped = Buffer.from(good);
  flipped.fill(0xff, 2, 12);
  for (const bad of [truncated, flipped]) {
    let zlibError = '';
    try {
      zlib.brotliDecompressSync(bad.subarray(1));
    } catch (e) {
      zlibError = (e as Error).message;
    }
    expect(zlibError).not.toBe('');
    expect(() => unpackJson(bad)).toThrow(zlibError);
    expect(unpackJson(good)).toEqual(values[5]);
  }
});

it('unpacks any text as bytes, a view read before the next unpack', () => {
  const text = 'first line\n["second", 2]\n{"third": "ünï 😀"}';
  expect(unpackBytes(packText(text)).toString('utf8')).toBe(text);
  expect(unpackBytes(Buffer.concat([Buffer.from([PLAIN]), Buffer.from(text)])).toString('utf8')).toBe(text);
});
