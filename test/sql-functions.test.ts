// The store's SQL functions that the rollup upserts call, against their definition in
// JavaScript, on whichever store the suite runs on: brand_sums_add adds two per-brand arrays
// element-wise, the shorter one read as 0 past its end (migrations 0012, 0017).
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
