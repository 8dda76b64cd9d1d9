// Migration 0033 keys cited_pages on the project and a digest of (url, title, category,
// url_type) instead of the four whole. This turns a seeded store back into the 0032 key and
// starts again: the same pages under the same ids, the same bodies read, and the lookups of
// the write path find a page by its digest and tell apart pages a plain concatenation of
// their fields would confuse.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Analysis, Citation } from '../src/analysis/types.js';
import { seedProject } from '../src/collection/seed.js';
import { citedIds } from '../src/modules/answers/cited-pages.js';
import { PROVIDERS } from '../src/ports/providers/types.js';
import type { Store } from '../src/store/index.js';
import { client, startRestartableTestApp, type TestApp } from './helpers.js';
import { bodiesOf, undoThrough } from './undo-migrations.js';

let t: TestApp;
beforeAll(async () => {
  t = await startRestartableTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

async function pages(store: Store, projectId: string): Promise<string[]> {
  const { rows } = await store.query<{ line: string }>(
    `select concat_ws(' | ', id, url, title, category, url_type) as line from cited_pages where project_id = $1 order by id`,
    [projectId],
  );
  return rows.map((r) => r.line);
}

const keyDefinition = async (store: Store) =>
  (await store.query<{ def: string }>(`select indexdef as def from pg_indexes where indexname = 'cited_pages_key'`)).rows[0].def;

const citation = (url: string, title: string, category = 0, urlType: number | null = null): Citation => ({
  url,
  domain: new URL(url).hostname,
  title,
  snippet: '',
  category,
  urlType,
  referenceIndex: 1,
  isOwn: false,
  brandIds: [],
});
const cited = (...citations: Citation[]) => ({ citations }) as unknown as Analysis;

it('a store keyed on the whole URL and title migrates: the same pages, the same reads, lookups by digest', async () => {
  const seeded = await seedProject(t.runtime.ctx, { prompts: 2, providers: [...PROVIDERS], days: 20, competitors: 3 });
  const store = t.runtime.ctx.store;
  const prompt = (await store.query<{ id: string }>(`select id from prompts where project_id = $1 order by id limit 1`, [seeded.projectId])).rows[0].id;
  const api = client(t.app, seeded.apiKey);
  const window = 'duration_days=30';
  const paths = [`/projects/${seeded.projectId}/prompts/${prompt}/urls?${window}`, `/projects/${seeded.projectId}/prompts/${prompt}/chats?${window}&page_size=100`];
  const before = await bodiesOf(api, paths);
  const written = await pages(store, seeded.projectId);
  expect(written.length).toBeGreaterThan(10);

  await undoThrough(store, '0033_cited_pages_digest_key');
  expect(await keyDefinition(store)).toContain('(project_id, url, title, category, url_type)');
  await t.restart();
  const migrated = t.runtime.ctx.store;
  expect(await keyDefinition(migrated)).toContain('cited_page_key');
  expect(await pages(migrated, seeded.projectId)).toEqual(written);
  expect(await bodiesOf(client(t.app, seeded.apiKey), paths)).toEqual(before);

  // an existing page is found under its id; pages that differ in one field, or whose title
  // and URL would join into the same text, are each a page of their own
  const { rows } = await migrated.query<{ id: number; url: string; title: string; category: number; url_type: number | null }>(
    `select id, url, title, category::int, url_type::int from cited_pages where project_id = $1 order by id limit 1`,
    [seeded.projectId],
  );
  const { id, url, title, category, url_type: urlType } = rows[0];
  const wanted = [
    citation(url, title, category, urlType),
    citation(url, `${title} (2)`, category, urlType),
    citation(url, title, category, urlType === 3 ? 4 : 3),
    citation('https://example.com/b|https://example.com/c', 'a'),
    citation('https://example.com/c', 'a|https://example.com/b'),
  ];
  const first = await migrated.tx((tx) => citedIds(tx, seeded.projectId, [cited(...wanted)]));
  expect(first[0][0]).toBe(id);
  expect(new Set(first[0]).size).toBe(wanted.length);
  expect(await pages(migrated, seeded.projectId)).toHaveLength(written.length + wanted.length - 1);
  // asked again (another answer citing them): the same ids, nothing added
  const again = await migrated.tx((tx) => citedIds(tx, seeded.projectId, [cited(...wanted.slice().reverse())]));
  expect(again[0]).toEqual(first[0].slice().reverse());
  expect(await pages(migrated, seeded.projectId)).toHaveLength(written.length + wanted.length - 1);
});
