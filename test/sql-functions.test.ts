// The store's SQL functions that the rollup upserts call, against their definition in
// JavaScript, on whichever store the suite runs on: brand_sums_add adds two per-brand arrays
// element-wise, the shorter one read as 0 past its end (migrations 0012, 0017); brand_bits_or
// ORs two per-brand day masks the same way, and brand_sums_agg and brand_bits_agg fold
// them over rows (migration 0018).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

function addArrays(a: number[], b: number[]): number[] {
  return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => (a[i] ?? 0) + (b[i] ?? 0));
}

it('brand_sums_add adds arrays of any lengths element-wise', async () => {
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const cases: Array<[number[], number[]]> = [
    [[], []],
    [[1, 2], []],
    [[], [0, 5, -1]],
    [[1, 2], [3]],
    [[-4, 0, 9], [4, 0, -9]],
  ];
  for (let k = 0; k < 200; k++) {
    const a = Array.from({ length: rand(14) }, () => rand(2001) - 1000);
    const b = Array.from({ length: rand(14) }, () => rand(2001) - 1000);
    cases.push([a, b]);
  }
  const { rows } = await t.runtime.ctx.store.query<{ r: string }>(
    `select brand_sums_add(a::int[], b::int[])::text as r from unnest($1::text[], $2::text[]) with ordinality as u(a, b, o) order by o`,
    [cases.map(([a]) => `{${a.join(',')}}`), cases.map(([, b]) => `{${b.join(',')}}`)],
  );
  expect(rows.map((r) => r.r)).toEqual(cases.map(([a, b]) => `{${addArrays(a, b).join(',')}}`));
});

it('brand_bits_or ORs masks of any lengths element-wise (bit 30, a month\'s 31st day, included); the aggregates fold rows', async () => {
  let seed = 11;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const mask = () => (rand(3) === 0 ? 0 : rand(2 ** 31));
  const cases: Array<[number[], number[]]> = [
    [[], []],
    [[1, 2], []],
    [[], [0, 2 ** 30, 64]],
    [[3], [5, 1]],
  ];
  for (let k = 0; k < 200; k++) cases.push([Array.from({ length: rand(14) }, mask), Array.from({ length: rand(14) }, mask)]);
  const or = (a: number[], b: number[]) => Array.from({ length: Math.max(a.length, b.length) }, (_, i) => (a[i] ?? 0) | (b[i] ?? 0));
  const text = (a: number[]) => `{${a.join(',')}}`;
  const store = t.runtime.ctx.store;
  const { rows } = await store.query<{ r: string }>(
    `select brand_bits_or(a::int[], b::int[])::text as r from unnest($1::text[], $2::text[]) with ordinality as u(a, b, o) order by o`,
    [cases.map(([a]) => text(a)), cases.map(([, b]) => text(b))],
  );
  expect(rows.map((r) => r.r)).toEqual(cases.map(([a, b]) => text(or(a, b))));
  const all = cases.flat();
  const small = all.map((a) => a.map((v) => v >>> 16)); // summed over 400 rows within an int
  const { rows: agg } = await store.query<{ s: string; b: string; e: string }>(
    `select brand_sums_agg(s::int[])::text as s, brand_bits_agg(b::int[])::text as b,
            (select brand_bits_agg(x)::text from (select '{}'::int[] as x where false) n) as e
       from unnest($1::text[], $2::text[]) as u(s, b)`,
    [small.map(text), all.map(text)],
  );
  // no row at all: the empty array
  expect(agg[0]).toEqual({ s: text(small.reduce(addArrays, [])), b: text(all.reduce(or, [])), e: '{}' });
});
