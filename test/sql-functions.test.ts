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

/** A domain list (migration 0015): entries of five numbers, domain number, category, citations, responses, unmentioned. */
type DomainEntries = number[][];

/** domain_sums_add in JavaScript: each domain's entries summed (the lowest category kept), those left without citations dropped, by domain number. */
function addDomainLists(a: DomainEntries, b: DomainEntries): DomainEntries {
  const byDomain = new Map<number, number[]>();
  for (const [domain, category, citations, responses, unmentioned] of [...a, ...b]) {
    const sum = byDomain.get(domain);
    if (sum) {
      sum[1] = Math.min(sum[1], category);
      sum[2] += citations;
      sum[3] += responses;
      sum[4] += unmentioned;
    } else byDomain.set(domain, [domain, category, citations, responses, unmentioned]);
  }
  return [...byDomain.values()].filter((e) => e[2] > 0).sort((x, y) => x[0] - y[0]);
}

it('domain_sums_add merges domain lists, sorted or not, and domain_sums_agg folds them over rows', async () => {
  let seed = 13;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const text = (entries: DomainEntries) => entries.map((e) => e.join(',')).join(',');
  const entry = (domain: number, removal = false): number[] =>
    removal ? [domain, 32767, -(1 + rand(3)), -1, -rand(2)] : [domain, rand(12), 1 + rand(20), 1 + rand(10), rand(5)];
  /** A list as the application writes it: each domain once, by number. */
  const sorted = (size: number, removal = false) =>
    [...new Set(Array.from({ length: size }, () => 1 + rand(150)))].sort((x, y) => x - y).map((d) => entry(d, removal));
  const cases: Array<[DomainEntries, DomainEntries]> = [
    [[], []],
    [sorted(3), []],
    [[], sorted(4)],
    [[[7, 3, 2, 1, 0]], [[7, 1, 1, 1, 1]]],
    // a removal that takes a domain's last citations drops it
    [[[4, 2, 2, 1, 0], [9, 1, 1, 1, 0]], [[4, 32767, -2, -1, 0]]],
  ];
  for (let k = 0; k < 150; k++) cases.push([sorted(rand(120)), sorted(rand(8), rand(4) === 0)]);
  // lists out of order, or naming a domain twice: summed all the same
  for (let k = 0; k < 40; k++) {
    const shuffled = sorted(2 + rand(10)).sort(() => rand(3) - 1);
    cases.push(rand(2) ? [shuffled, sorted(rand(6))] : [sorted(rand(6)), [...shuffled, entry(shuffled[0][0])]]);
  }
  const store = t.runtime.ctx.store;
  const { rows } = await store.query<{ r: string }>(
    `select domain_sums_add(a, b) as r from unnest($1::text[], $2::text[]) with ordinality as u(a, b, o) order by o`,
    [cases.map(([a]) => text(a)), cases.map(([, b]) => text(b))],
  );
  expect(rows.map((r) => r.r)).toEqual(cases.map(([a, b]) => text(addDomainLists(a, b))));
  const lists = cases.slice(0, 60).flat();
  const { rows: folded } = await store.query<{ r: string }>(`select domain_sums_agg(d order by o) as r from unnest($1::text[]) with ordinality as u(d, o)`, [
    lists.map(text),
  ]);
  expect(folded[0].r).toBe(text(lists.reduce(addDomainLists, [])));
});
