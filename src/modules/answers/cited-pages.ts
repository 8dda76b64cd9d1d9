import type { Analysis, Citation } from '../../analysis/types.js';
import type { Tx } from '../../store/index.js';
import { decodeAnswerText, type AnswerBody } from './answer-body.js';

// JSON, not the fields joined with a separator: a title and URL holding it could join into another page's text
const keyOf = (c: { url: string; title: string; category: number; urlType: number | null }) => JSON.stringify([c.category, c.urlType, c.title, c.url]);

interface PageRow {
  id: number;
  url: string;
  title: string;
  category: number;
  url_type: number | null;
}

/**
 * The condition of a cited_pages row `p` being the wanted page `v` (u, t, c, ut), the one
 * both reads below use: a probe of cited_pages_key (the project and the digest of the
 * four, migration 0033), then the four compared, so a digest two pages shared never
 * answers one for the other.
 */
const PAGE_MATCH = `p.project_id = $1 and cited_page_key(p.url, p.title, p.category, p.url_type) = cited_page_key(v.u, v.t, v.c, v.ut)
                    and p.url = v.u and p.title = v.t and p.category = v.c and p.url_type is not distinct from v.ut`;

/**
 * The cited_pages ids of each analysis's citations (in its order), the pages not seen
 * before added to the project's dictionary. One statement per batch; a page another
 * transaction has just added (and this statement's snapshot cannot see) is read again.
 */
export async function citedIds(tx: Tx, projectId: string, analyses: Analysis[]): Promise<number[][]> {
  const pages = new Map<string, Citation>();
  for (const a of analyses) for (const c of a.citations) if (!pages.has(keyOf(c))) pages.set(keyOf(c), c);
  const ids = new Map<string, number>();
  const remember = (rows: PageRow[]) => {
    for (const r of rows) ids.set(keyOf({ url: r.url, title: r.title, category: r.category, urlType: r.url_type }), r.id);
  };
  if (pages.size > 0) {
    const list = [...pages.values()];
    const args = [projectId, list.map((c) => c.url), list.map((c) => c.domain), list.map((c) => c.title), list.map((c) => c.category), list.map((c) => c.urlType)];
    // Pages already there are looked up first and only the others inserted: an insert that
    // meets a conflict would still draw an id from the sequence, and a project cites the same
    // pages day after day (a year of the bench drew 371,000 ids for 106,000 pages).
    // The lookup is a lateral probe of cited_pages_key per wanted page (the limit keeps the
    // planner from turning it into a hash join over every page of the project, a cost that
    // grows with the project's history: docs/scaling.md). New pages are inserted in one
    // order (by their key), so that two batches adding the same pages at once wait for
    // each other instead of deadlocking.
    const { rows } = await tx.query<PageRow>(
      `with v as (select * from unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::int[]) as x(u, dm, t, c, ut)),
       m as (select v.*, p.id from v left join lateral (
               select p.id from cited_pages p where ${PAGE_MATCH} limit 1) p on true),
       added as (
         insert into cited_pages (project_id, url, domain, title, category, url_type)
         select $1, u, dm, t, c, ut from m where id is null order by u, t, c, ut
         on conflict do nothing
         returning id, url, title, category::int, url_type::int)
       select * from added
       union all
       select id, u, t, c, ut from m where id is not null`,
      args,
    );
    remember(rows);
    const missing = list.filter((c) => !ids.has(keyOf(c)));
    if (missing.length > 0) {
      const again = await tx.query<PageRow>(
        `select p.id, p.url, p.title, p.category::int, p.url_type::int
           from unnest($2::text[], $3::text[], $4::int[], $5::int[]) as v(u, t, c, ut)
           join cited_pages p on ${PAGE_MATCH}`,
        [projectId, missing.map((c) => c.url), missing.map((c) => c.title), missing.map((c) => c.category), missing.map((c) => c.urlType)],
      );
      remember(again.rows);
    }
  }
  return analyses.map((a) =>
    a.citations.map((c) => {
      const id = ids.get(keyOf(c));
      if (id === undefined) throw new Error(`cited page not stored: ${c.url}`);
      return id;
    }),
  );
}

/** A Postgres array literal (`{1,2,3}`), for a text[] parameter cast per row to int[] or uuid[]. */
export const pgArray = (values: ReadonlyArray<number | string>): string => `{${values.join(',')}}`;

/** A cited_pages row as the readers show it. */
export interface CitedPage {
  url: string;
  title: string;
  domain: string;
  category: number;
  url_type: number | null;
}

/**
 * cited_pages rows by id, per store (`cacheOwner`). A row never changes: its id names one
 * (url, title, category, type) until the row is deleted (a re-analysis deletes the pages no
 * answer cites any more), and an id is never given again. So each page is read once per
 * process rather than on every request (a year of a prompt's URLs cites about 2,500 pages,
 * whose lookups and text were half the cost of the answer). Bounded: past the maximum the
 * map starts over.
 */
const PAGE_CACHE_MAX = 100_000;
const pageCaches = new WeakMap<object, Map<number, CitedPage>>();

export async function citedPagesById(db: Pick<Tx, 'query'>, ids: Iterable<number>, cacheOwner: object = db): Promise<Map<number, CitedPage>> {
  let cache = pageCaches.get(cacheOwner);
  if (!cache) pageCaches.set(cacheOwner, (cache = new Map()));
  const wanted = [...new Set(ids)];
  const missing = wanted.filter((id) => !cache.has(id));
  if (missing.length > 0) {
    const { rows } = await db.query<CitedPage & { id: number }>(
      `select id, url, title, domain, category::int as category, url_type::int as url_type from cited_pages where id = any($1::int[])`,
      [missing],
    );
    if (cache.size + rows.length > PAGE_CACHE_MAX) cache.clear();
    for (const r of rows) cache.set(r.id, { url: r.url, title: r.title, domain: r.domain, category: r.category, url_type: r.url_type });
  }
  const out = new Map<number, CitedPage>();
  for (const id of wanted) {
    const page = cache.get(id);
    if (!page) throw new Error(`cited page ${id} not found`);
    out.set(id, page);
  }
  return out;
}

/** An answer's `cited` as pg returns it: an int array, or its text (`array_to_string(cited, ',')`). */
export type CitedColumn = number[] | string;
export const citedList = (cited: CitedColumn): number[] => (typeof cited === 'string' ? (cited ? cited.split(',').map(Number) : []) : cited);

/** The pages of one answer's `cited`, in its order, from pages read by citedPagesById. */
export const pagesOf = (cited: CitedColumn, pages: Map<number, CitedPage>): CitedPage[] => citedList(cited).map((id) => pages.get(id)!);

/**
 * The bodies of stored answers (their `body` and `cited` columns), their references' links
 * and titles read from cited_pages: one query for the pages of them all.
 */
export async function readAnswerBodies(
  db: Pick<Tx, 'query'>,
  rows: ReadonlyArray<{ body: Uint8Array; cited: CitedColumn }>,
  cacheOwner: object = db,
): Promise<Array<Pick<AnswerBody, 'text' | 'references'>>> {
  const pages = await citedPagesById(db, rows.flatMap((r) => citedList(r.cited)), cacheOwner);
  return rows.map((r) => decodeAnswerText(r.body, pagesOf(r.cited, pages)));
}
