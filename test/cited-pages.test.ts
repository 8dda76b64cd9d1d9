// The project's dictionary of cited pages (cited_pages): a page is stored once and keeps its
// id; an answer citing pages already there draws no new id (the ids are an int4 sequence
// shared by every project, so drawing one per citation would run it out).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fixtureProject, storeSpecs, type Cite } from './analytics-fixture.js';
import { startTestApp, type TestApp } from './helpers.js';
import { expectConsistentRollups } from './rollup-invariants.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

const page = (n: number, category = 2): Cite => ({ url: `https://pages.example/p${n}`, domain: 'pages.example', category, urlType: 1, title: `Page ${n}` });

it('pages cited again keep their ids and draw none; only a new page takes the next id', async () => {
  const f = await fixtureProject(t, { brand: 'Pageco', url: 'https://pageco.io', prompts: ['Which page?'] });
  const store = t.runtime.ctx.store;
  const ids = async () =>
    Object.fromEntries(
      (await store.query<{ url: string; category: number; id: number }>(`select url, category, id from cited_pages where project_id = $1`, [f.projectId])).rows.map((r) => [
        `${r.url}|${r.category}`,
        r.id,
      ]),
    );
  const cited = async (day: string) =>
    (await store.query<{ cited: number[] }>(`select cited from responses where project_id = $1 and day = $2`, [f.projectId, day])).rows[0].cited;

  await storeSpecs(t, f.projectId, [{ prompt: f.promptIds[0], provider: 'chatgpt', day: '2025-06-01', cites: [page(1), page(2), page(3)] }], 'pageco.io');
  const first = await ids();
  expect(Object.keys(first)).toHaveLength(3);
  const top = Math.max(...Object.values(first));

  // the same three pages again (in another order), a new one, and page 1 under another category: a page of its own
  const again = [page(3), page(1), page(4), page(2), page(1, 5)];
  await storeSpecs(t, f.projectId, [{ prompt: f.promptIds[0], provider: 'chatgpt', day: '2025-06-02', cites: again }], 'pageco.io');
  const second = await ids();
  expect(second).toMatchObject(first);
  // the two new pages take the next two ids (inserted in the order of their keys, so that
  // concurrent batches adding the same pages never deadlock): none drawn for the others
  expect([second[`${page(4).url}|2`], second[`${page(1).url}|5`]].sort((a, b) => a - b)).toEqual([top + 1, top + 2]);
  expect(await cited('2025-06-02')).toEqual(again.map((c) => second[`${c.url}|${c.category}`]));
  expect(await cited('2025-06-01')).toEqual([1, 2, 3].map((n) => first[`${page(n).url}|2`]));
  await expectConsistentRollups(store, f.projectId);
});
