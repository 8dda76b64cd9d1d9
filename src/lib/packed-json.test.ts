import zlib from 'node:zlib';
import { expect, it, vi } from 'vitest';
import { BROTLI, PLAIN, packText, packTexts, unpackBytes } from './packed-json.js';

const texts = Array.from({ length: 40 }, (_, i) =>
  [
    JSON.stringify([`search ${i}`]),
    JSON.stringify([`Answer ${i}: ${'the best CRM for a small team is one that fits its pipeline. '.repeat(1 + (i % 7))}`, [{ url: `https://example.com/${i}`, title: `Page ${i} — “quoted” ✓` }]]),
    JSON.stringify(i % 3 ? { id: `resp_${i}`, nested: { n: i, list: [1, 2, 3] } } : null),
  ].join('\n'),
);
/** The text of packed bytes. */
const unpacked = (bytes: Uint8Array) => unpackBytes(bytes).toString('utf8');

it('packs a large batch on the worker thread into the same bytes as packText', async () => {
  const packed = await packTexts(texts);
  expect(packed).toHaveLength(texts.length);
  for (let i = 0; i < texts.length; i++) {
    expect(packed[i][0]).toBe(BROTLI);
    expect(packed[i].equals(packText(texts[i]))).toBe(true);
    expect(unpacked(packed[i])).toBe(texts[i]);
  }
});

it('packs a small batch in place, and batches sent at once come back each to its caller', async () => {
  const [small, ...large] = await Promise.all([packTexts(texts.slice(0, 3)), packTexts(texts.slice(0, 20)), packTexts(texts.slice(20))]);
  expect(small.map(unpacked)).toEqual(texts.slice(0, 3));
  expect(large.flat().map(unpacked)).toEqual(texts);
});

it('rejects a batch the worker cannot pack, and packs the next one', async () => {
  await expect(async () => packTexts([...texts, 5 as unknown as string])).rejects.toThrow(/string/);
  expect((await packTexts(texts)).map(unpacked)).toEqual(texts);
});

it('unpacks a text many times its packed size (more than one output chunk) whole', () => {
  const long = `${'x'.repeat(300_000)}\n${'—'.repeat(5000)}`;
  const packed = packText(long);
  expect(packed.length * 4).toBeLessThan(long.length / 10);
  expect(unpacked(packed)).toBe(long);
  expect(unpacked(Buffer.concat([Buffer.from([PLAIN]), Buffer.from(long)]))).toBe(long);
});

it('unpacks body after body with one decoder, the same text as zlib, without zlib\'s per-call path', () => {
  const packed = texts.map(packText);
  const perCall = vi.spyOn(zlib, 'brotliDecompressSync');
  try {
    for (let round = 0; round < 3; round++) for (let i = 0; i < texts.length; i++) expect(unpacked(packed[i])).toBe(texts[i]);
    // a body past the kept output buffer (1 MB) grows it, and the next small one is still whole
    const huge = 'y'.repeat(3_000_000);
    expect(unpacked(packText(huge))).toBe(huge);
    expect(unpacked(packed[1])).toBe(texts[1]);
    expect(perCall).not.toHaveBeenCalled();
  } finally {
    perCall.mockRestore();
  }
});

it('a damaged body throws zlib\'s error, and the bodies after it unpack', () => {
  const good = packText(texts[5]);
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
    expect(() => unpackBytes(bad)).toThrow(zlibError);
    expect(unpacked(good)).toBe(texts[5]);
  }
});

it('unpacks any text as bytes, a view read before the next unpack', () => {
  const text = 'first line\n["second", 2]\n{"third": "ünï 😀"}';
  expect(unpackBytes(packText(text)).toString('utf8')).toBe(text);
  expect(unpackBytes(Buffer.concat([Buffer.from([PLAIN]), Buffer.from(text)])).toString('utf8')).toBe(text);
});
