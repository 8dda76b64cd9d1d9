// Migration 0015 replaces the domain rollup's rows (one per project, provider, day and
// domain) with one row per project, provider and day holding five ints per domain (as
// decimal text) by a per-project domain number (project_domains). This stores answers in two
// batches (so one domain has a different category on different days, as the write path
// keeps the lowest category of each batch), checks that the new rows hold what the old
// write path wrote, reads the sources endpoints, then rebuilds the old rows as the old
// write path filled them, empties the new ones and the dictionary, runs the migration's
// backfill for this project and reads every endpoint again: each body byte for byte the same.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { touchAnalytics } from '../src/store/analytics-version.js';
import { MIGRATIONS_FOLDER } from '../src/store/migrations.js';
import { analysisOf, fixtureProject, OWN, storeSpecs, type AnswerSpec, type Cite } from './analytics-fixture.js';
import { bodiesOf } from './undo-migrations.js';
import { startTestApp, type TestApp } from './helpers.js';
import { expectConsistentRollups } from './rollup-invariants.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: 'api' });
});
afterAll(async () => t?.stop());

/** The two backfill statements of 0015 (the dictionary, then the day rows), limited to one project. */
function backfill(): string[] {
  const all = readFileSync(path.join(MIGRATIONS_FOLDER, '0015_domain_day_arrays.sql'), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.replace(/^\s*(--[^\n]*\n)*/, '').trim());
  const [names, days] = [all.filter((s) => s.startsWith('INSERT INTO "project_domains"')), all.filter((s) => s.startsWith('INSERT INTO "project_domain_daily"'))];
  expect([names.length, days.length]).toEqual([1, 1]);
  expect(names[0]).toMatch(/\n {4}FROM "project_domain_rows" GROUP BY/);
  expect(days[0]).toMatch(/\n {3}GROUP BY o\./);
  return [
    names[0].replace(/\n {4}FROM "project_domain_rows" GROUP BY/, '\n    FROM "project_domain_rows" WHERE "project_id" = $1 GROUP BY'),
    days[0].replace(/\n {3}GROUP BY o\./, '\n   WHERE o."project_id" = $1\n   GROUP BY o.'),
  ];
}

interface OldRow {
  provider: string;
  day: string;
  domain: string;
  category: number;
  citations: number;
  responses: number;
  citations_unmentioned: number;
}

/**
 * The rows the write path before 0015 kept for these batches (one transaction each): per
 * provider and '*', day and domain, the citations, the responses citing the domain, the
 * citations in answers not naming the own brand, and the category: the batch's lowest for
 * the domain, kept with least() over the row's.
 */
function oldRows(batches: AnswerSpec[][], ownDomain: string): OldRow[] {
  const rows = new Map<string, OldRow>();
  for (const batch of batches) {
    const lowest = new Map<string, number>();
    const added = new Map<string, OldRow>();
    for (const s of batch) {
      const a = analysisOf(s, ownDomain);
      const seen = new Set<string>();
      for (const c of a.citations) {
        lowest.set(c.domain, Math.min(lowest.get(c.domain) ?? c.category, c.category));
        for (const provider of [s.provider, '*']) {
          const k = `${provider}|${s.day}|${c.domain}`;
          const r = added.get(k) ?? { provider, day: s.day, domain: c.domain, category: 0, citations: 0, responses: 0, citations_unmentioned: 0 };
          r.citations += 1;
          if (!seen.has(c.domain)) r.responses += 1;
          if (!a.mentioned) r.citations_unmentioned += 1;
          added.set(k, r);
        }
        seen.add(c.domain);
      }
    }
    for (const [k, r] of added) {
      const category = lowest.get(r.domain)!;
      const had = rows.get(k);
      if (!had) rows.set(k, { ...r, category });
      else {
        had.citations += r.citations;
        had.responses += r.responses;
        had.citations_unmentioned += r.citations_unmentioned;
        had.category = Math.min(had.category, category);
      }
    }
  }
  return [...rows.values()];
}

const cite = (domain: string, page: string, category: number): Cite => ({ url: `https://${domain}/${page}`, domain, category, urlType: 1 });

it('the backfill of 0015 gives the day rows and the figures the write path gives', async () => {
  const f = await fixtureProject(t, { brand: 'Oldco', url: 'https://oldco.io', prompts: ['Old question one?', 'Old question two?'] });
  const [P1, P2] = f.promptIds;
  const store = t.runtime.ctx.store;
  const mentioned = { [OWN]: [1, 1, 60] as [number, number, number] };
  // alpha.io is reference (3) in the first batch and corporate (0) from the second on
  const first: AnswerSpec[] = [
    { prompt: P1, provider: 'chatgpt', day: '2025-03-01', named: mentioned, cites: [cite('alpha.io', 'a', 3), cite('alpha.io', 'b', 3), cite('beta.org', 'x', 1)] },
    { prompt: P1, provider: 'perplexity', day: '2025-03-01', cites: [cite('alpha.io', 'a', 3), cite('gamma.net', 'g1', 2), cite('gamma.net', 'g2', 2)] },
    { prompt: P2, provider: 'claude', day: '2025-03-02', cites: [cite('beta.org', 'y', 1), cite('oldco.io', 'home', 0), cite('oldco.io', 'p', 0), cite('oldco.io', 'q', 0)] },
    { prompt: P2, provider: 'chatgpt', day: '2025-03-03', cites: [cite('gamma.net', 'g3', 2), cite('zeta.dev', 'z', 4)] },
  ];
  const second: AnswerSpec[] = [
    { prompt: P1, provider: 'chatgpt', day: '2025-03-03', named: mentioned, cites: [cite('alpha.io', 'docs', 0), cite('delta.com', 'd', 5)] },
    { prompt: P2, provider: 'perplexity', day: '2025-03-04', cites: [cite('alpha.io', 'c', 3), cite('gamma.net', 'g4', 2), cite('eta.io', 'e', 1)] },
    { prompt: P1, provider: 'claude', day: '2025-03-04', named: mentioned, cites: [cite('beta.org', 'z', 1)] },
  ];
  await storeSpecs(t, f.projectId, first, 'oldco.io');
  await storeSpecs(t, f.projectId, second, 'oldco.io');
  const old = oldRows([first, second], 'oldco.io');
  // the window's category of alpha.io depends on the days in it
  expect(old.filter((r) => r.domain === 'alpha.io' && r.provider === '*').map((r) => [r.day, r.category])).toEqual([
    ['2025-03-01', 3],
    ['2025-03-03', 0],
    ['2025-03-04', 0],
  ]);

  /** The project's domain rows as the old table's rows (any numbering). */
  const snapshot = async () => {
    const { rows } = await store.query<OldRow>(
      `select d.provider, d.day::text as day, n.domain, x[i + 1] as category, x[i + 2] as citations, x[i + 3] as responses,
              x[i + 4] as citations_unmentioned
         from project_domain_daily d cross join lateral (select string_to_array(d.domains, ',')::int[] as x) a
              cross join lateral generate_series(1, cardinality(x), 5) as i
              join project_domains n on n.project_id = d.project_id and n.no = x[i]
        where d.project_id = $1`,
      [f.projectId],
    );
    return rows.map((r) => JSON.stringify(r)).sort();
  };
  const written = await snapshot();
  expect(written).toEqual(old.map((r) => JSON.stringify(r)).sort());

  const windows = ['date_from=2025-03-01&date_to=2025-03-02', 'date_from=2025-03-01&date_to=2025-03-04', 'date_from=2025-03-02&date_to=2025-03-10&providers=perplexity,claude'];
  const figures = () =>
    bodiesOf(
      f.api,
      windows.flatMap((w) => ['sources/analytics', 'sources', 'sources?page=2&page_size=2'].map((p) => `/projects/${f.projectId}/${p}${p.includes('?') ? '&' : '?'}${w}`)),
    );
  const shown = await figures();
  const wide = JSON.parse(shown[`/projects/${f.projectId}/sources/analytics?${windows[1]}`]).data;
  expect(wide.stats).toEqual({ total_sources: 7, total_citations: 18 });
  expect(wide.opportunities.map((o: { domain: string; citation_count: number; category: number }) => [o.domain, o.citation_count, o.category])).toEqual([
    ['gamma.net', 4, 2],
  ]);
  const narrow = JSON.parse(shown[`/projects/${f.projectId}/sources/analytics?${windows[0]}`]).data;
  expect(narrow.top_domains.find((d: { domain: string }) => d.domain === 'alpha.io').category).toBe(3);
  expect(wide.top_domains.find((d: { domain: string }) => d.domain === 'alpha.io').category).toBe(0);

  const [names, days] = backfill();
  await store.tx(async (tx) => {
    await tx.query(`create temp table project_domain_rows (project_id uuid, provider text, day date, domain text, category smallint,
                      citations int, responses int, citations_unmentioned int) on commit drop`);
    await tx.query(
      `insert into project_domain_rows
       select $1, * from unnest($2::text[], $3::date[], $4::text[], $5::smallint[], $6::int[], $7::int[], $8::int[])`,
      [f.projectId, ...(['provider', 'day', 'domain', 'category', 'citations', 'responses', 'citations_unmentioned'] as const).map((k) => old.map((r) => r[k]))],
    );
    // a store as migrated before the backfill: no day rows, no numbers
    await tx.query(`delete from project_domain_daily where project_id = $1`, [f.projectId]);
    await tx.query(`delete from project_domains where project_id = $1`, [f.projectId]);
    // 0015's statements write no market (migration 0027 added it): this project's, as 0027 gives such rows
    await tx.query(`alter table project_domain_daily alter column market set default 'US-en'`);
    for (const s of [names, days]) await tx.query(s, [f.projectId]);
    await tx.query(`alter table project_domain_daily alter column market drop default`);
    await touchAnalytics(tx, f.projectId); // the read cache is in memory: a migrated store starts without it
  });
  expect(await snapshot()).toEqual(written);
  expect(await figures()).toEqual(shown);
  await expectConsistentRollups(store, f.projectId);
  // numbered by the first day cited, then by name
  const numbers = await store.query<{ no: number; domain: string }>(`select no, domain from project_domains where project_id = $1 order by no`, [f.projectId]);
  expect(numbers.rows.map((r) => r.domain)).toEqual(['alpha.io', 'beta.org', 'gamma.net', 'oldco.io', 'delta.com', 'zeta.dev', 'eta.io']);

  // the write path goes on from the migrated rows: a new domain takes the next number
  await storeSpecs(t, f.projectId, [{ prompt: P2, provider: 'chatgpt', day: '2025-03-04', cites: [cite('theta.org', 't', 2), cite('alpha.io', 'n', 4)] }], 'oldco.io');
  const theta = await store.query<{ no: number }>(`select no from project_domains where project_id = $1 and domain = 'theta.org'`, [f.projectId]);
  expect(theta.rows[0].no).toBe(8);
  await expectConsistentRollups(store, f.projectId);
  // and a prompt's deletion takes its citations out of the migrated rows
  const del = await f.api.delete(`/projects/${f.projectId}/prompts/${P2}`);
  expect(del.statusCode).toBe(200);
  await expectConsistentRollups(store, f.projectId);
  const after = (await f.api.get(`/projects/${f.projectId}/sources/analytics?${windows[1]}`)).json().data;
  expect(after.stats).toEqual({ total_sources: 4, total_citations: 9 });
});
