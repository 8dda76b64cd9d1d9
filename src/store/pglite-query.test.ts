import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from './pglite.js';
import type { Store } from './types.js';

// The embedded store reads its queries' answers from their bytes (OneTripQueries, rowsOf),
// not through PGlite's parser: the rows must be the ones PGlite's own query gives, and what
// only PGlite's parser reads (errors, notifications) must still come through.
describe('the embedded store reading answers from their bytes', () => {
  let store: Store;
  let pglite: { query: <T>(text: string, values?: unknown[]) => Promise<{ rows: T[]; affectedRows?: number }> };

  beforeAll(async () => {
    store = await openPglite({});
    // PGlite's own query, for comparison: the client behind the store's queries
    pglite = (store as unknown as { db: { $client: typeof pglite } }).db.$client;
    await store.query(`create table things (id int primary key, label text not null unique, tags text[], doc jsonb, at timestamptz, day date, n numeric, f float8, big bigint, ok boolean, raw bytea, uid uuid)`);
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  it('gives the rows and values PGlite gives, for every kind of value and for nulls', async () => {
    const values = [
      [1, 'plain', ['a', 'b'], { k: [1, 'x'] }, '2026-01-02T03:04:05.678Z', '2026-01-02', '12.50', 0.1, '9007199254740993', true, Buffer.from([0, 1, 255]), '3f1c1b8e-6a5f-4a8e-9a0b-1c2d3e4f5a6b'],
      [2, 'ünïcødé — 東京 🚀', ['q"uo,te', null], [], '1999-12-31T23:59:59.000Z', '1999-12-31', '-0.001', -1e300, '-1', false, Buffer.alloc(0), '00000000-0000-0000-0000-000000000000'],
      [3, 'nulls', null, null, null, null, null, null, null, null, null, null],
    ];
    for (const v of values) {
      const { rowCount } = await store.query(`insert into things values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, v);
      expect(rowCount).toBe(1);
    }
    const text = `select *, 'x' || label as derived, null::int as nothing, array[1, 2]::int[] as ints, count(*) over () as total from things where id >= $1 order by id`;
    const ours = await store.query(text, [1]);
    const theirs = await pglite.query(text, [1]);
    expect(ours.rows).toHaveLength(3);
    expect(ours.rows).toEqual(theirs.rows);
    // the values are parsed by type, not left as text
    expect(ours.rows[0]).toMatchObject({ id: 1, doc: { k: [1, 'x'] }, ok: true, ints: [1, 2], tags: ['a', 'b'], nothing: null });
    expect(ours.rows[1]).toMatchObject({ label: 'ünïcødé — 東京 🚀', tags: ['q"uo,te', null] });
    expect((ours.rows[0] as { at: unknown }).at).toBeInstanceOf(Date);
    // the columns in the statement's order, as PGlite gives them
    expect(Object.keys(ours.rows[0] as object)).toEqual(Object.keys(theirs.rows[0] as object));
  });

  it('counts the rows a change affected, and no rows as none', async () => {
    expect((await store.query(`update things set label = label || '!' where id <= $1`, [2])).rowCount).toBe(2);
    expect((await store.query(`delete from things where id = $1`, [99])).rowCount).toBe(0);
    const none = await store.query(`select * from things where id = $1`, [99]);
    expect(none).toEqual({ rows: [], rowCount: 0 });
  });

  it("throws PostgreSQL's error with its code and constraint, and goes on answering", async () => {
    const err = await store.query(`insert into things (id, label) values ($1, $2)`, [10, 'plain!']).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: '23505', constraint: 'things_label_key', query: expect.stringContaining('insert into things') });
    const inTx = await store
      .tx(async (tx) => {
        await tx.query(`select 1 / $1::int`, [0]);
      })
      .catch((e: unknown) => e);
    expect(inTx).toMatchObject({ code: '22012' });
    expect((await store.query<{ n: number }>(`select count(*)::int as n from things where id > $1`, [0])).rows).toEqual([{ n: 3 }]);
  });

  it("delivers a NOTIFY once, whether a query of ours or a transaction's COMMIT brings it back", async () => {
    const got: string[] = [];
    const listening = await store.listen('Things_Changed', (payload) => got.push(payload), () => {});
    await store.query(`select pg_notify('things_changed', $1)`, ['outside']);
    await store.tx(async (tx) => {
      await tx.query(`select pg_notify('things_changed', $1)`, ['inside']);
    });
    await store.query(`select pg_notify('other_channel', $1)`, ['elsewhere']);
    await new Promise((r) => setTimeout(r, 50));
    expect(got.sort()).toEqual(['inside', 'outside']);
    await listening.close();
    await store.query(`select pg_notify('things_changed', $1)`, ['after']);
    await new Promise((r) => setTimeout(r, 50));
    expect(got).toHaveLength(2);
  });
});
