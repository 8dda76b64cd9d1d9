import type { Tx } from '../../store/index.js';
import { domainEntriesText } from './codec.js';
import { ALL } from './sums-tables.js';
import { ALL_MARKETS } from './market-totals.js';

// The domain rollup (project_domain_daily): per project, provider and day, DOMAIN_FIELDS
// ints per domain cited, by domain number ascending, as decimal text (codec.ts; the numbers:
// the project's dictionary, project_domains). Two days' domains are added with the SQL function
// domain_sums_add (migration 0015), which keeps the lowest category and drops a domain
// whose citations fall to 0.

/** Citations, responses and unmentioned citations of one domain on one (provider, day). */
export type DomainCounts = [citations: number, responses: number, unmentioned: number];

/** A day's row to add: provider, day, and per domain its counts. */
export interface DomainDay {
  provider: string;
  day: string;
  market: string;
  domains: Map<string, DomainCounts>;
}

/** How many times a statement tries to number domains another transaction is numbering at once. */
const NUMBER_TRIES = 5;

/**
 * The number of each domain in the project's dictionary, the domains not seen before added
 * (numbered after the highest, in the order given). A number or domain another transaction
 * has just taken makes that insert wait for it, then do nothing: the domain is read, or
 * numbered, again by the next statement (whose snapshot sees the other's rows).
 */
export async function domainNumbers(tx: Tx, projectId: string, domains: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  let missing = domains;
  for (let attempt = 0; missing.length > 0; attempt++) {
    if (attempt === NUMBER_TRIES) throw new Error(`could not number the cited domains ${missing.join(', ')}`);
    const { rows } = await tx.query<{ no: number; domain: string }>(
      `with v as (select dm, o from unnest($2::text[]) with ordinality as u(dm, o)),
       added as (
         insert into project_domains (project_id, no, domain)
         select $1, coalesce((select max(no) from project_domains where project_id = $1), 0) + row_number() over (order by o), dm
           from v where not exists (select 1 from project_domains d where d.project_id = $1 and d.domain = v.dm)
         on conflict do nothing
         returning no, domain)
       select no, domain from added
       union all
       select d.no, d.domain from v join project_domains d on d.project_id = $1 and d.domain = v.dm`,
      [projectId, missing],
    );
    for (const r of rows) out.set(r.domain, r.no);
    missing = missing.filter((d) => !out.has(d));
  }
  return out;
}

/**
 * Adds a batch's domain counts to the project's day rows, one statement: `category` gives
 * each domain's lowest category in the batch (kept with least() over the row's).
 */
export async function addDomainDays(tx: Tx, projectId: string, days: DomainDay[], category: Map<string, number>): Promise<void> {
  if (days.length === 0) return;
  // in one order everywhere: two batches adding the same new domains never wait on each other crosswise
  const numbers = await domainNumbers(tx, projectId, [...category.keys()].sort());
  const texts = days.map((d) =>
    domainEntriesText(
      [...d.domains].map(([domain, [citations, responses, unmentioned]]) => ({ domainNo: numbers.get(domain)!, category: category.get(domain)!, citations, responses, unmentioned })),
    ),
  );
  await tx.query(
    `insert into project_domain_daily (project_id, provider, day, market, domains)
     select $1, v, d::date, m, x from unnest($2::text[], $3::text[], $4::text[], $5::text[]) as u(v, d, m, x)
     on conflict (project_id, provider, day, market) do update set domains = domain_sums_add(project_domain_daily.domains, excluded.domains)`,
    [projectId, days.map((d) => d.provider), days.map((d) => d.day), days.map((d) => d.market), texts],
  );
}

/**
 * Takes a prompt's citations out of the domain rollup (before the prompt and its answers
 * are deleted), counted as addDomainDays counted them, for the provider rows and '*', each
 * market's and the markets' total ('*': no row to match without market totals); a
 * domain left without citations leaves its day, a day left without any its row.
 * The category stays (the subtracted entries carry the highest smallint, so least() keeps
 * the row's).
 */
export async function removePromptDomains(tx: Tx, projectId: string, promptId: string): Promise<void> {
  await tx.query(
    `with per_provider as (
       select r.provider, r.day, r.market, p.domain, count(*)::int as n, count(distinct r.id)::int as r,
              (count(*) filter (where not r.mentioned))::int as u
         from responses r cross join unnest(r.cited) as k(id) join cited_pages p on p.id = k.id
        where r.prompt_id = $2 group by r.provider, r.day, r.market, p.domain),
     per_market as (
       select provider, day, market, domain, n, r, u from per_provider
       union all
       select $3::text, day, market, domain, sum(n)::int, sum(r)::int, sum(u)::int from per_provider group by day, market, domain),
     deltas as (
       select provider, day, market, domain, n, r, u from per_market
       union all
       select provider, day, $4::text, domain, sum(n)::int, sum(r)::int, sum(u)::int from per_market group by provider, day, domain),
     changes as (
       select x.provider, x.day, x.market, string_agg(f.v::text, ',' order by d.no, f.j) as domains
         from deltas x join project_domains d on d.project_id = $1 and d.domain = x.domain
              cross join lateral unnest(array[d.no, 32767, -x.n, -x.r, -x.u]) with ordinality as f(v, j)
        group by 1, 2, 3)
     update project_domain_daily d set domains = domain_sums_add(d.domains, a.domains)
       from changes a
      where d.project_id = $1 and d.provider = a.provider and d.day = a.day and d.market = a.market`,
    [projectId, promptId, ALL, ALL_MARKETS],
  );
  await tx.query(`delete from project_domain_daily where project_id = $1 and domains = ''`, [projectId]);
}
