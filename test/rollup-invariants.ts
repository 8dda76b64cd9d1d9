import { expect } from 'vitest';
import type { Store } from '../src/store/index.js';

/**
 * The brands an answer names as (key, value) rows like jsonb_each over the jsonb object
 * responses.brands was before migration 0013: brand_nos and brand_stats read back, each
 * number named by its competitor's id (the own brand's all-zero id for 0).
 */
export const BRANDS_OF_R = `(select (case when n.no = 0 then '00000000-0000-0000-0000-000000000000'::uuid else c.id end)::text as key,
  jsonb_build_object('position', r.brand_stats[3 * n.i - 2], 'count', r.brand_stats[3 * n.i - 1], 'sentiment', r.brand_stats[3 * n.i]) as value
  from unnest(r.brand_nos) with ordinality as n(no, i)
       left join competitors c on c.project_id = r.project_id and c.brand_no = n.no and not c.is_own_brand and n.no > 0)`;

/** The citations, one row per URL an answer cites (responses.cited and cited_pages), for checks in tests. */
export const CITATIONS = `(select r.id as response_id, r.project_id, r.provider, r.day, r.market, p.url, p.domain, p.category, p.url_type, r.mentioned from responses r cross join unnest(r.cited) as k(id) join cited_pages p on p.id = k.id) c`;

/**
 * The rollups of a project agree with each other and with the answers stored: project
 * rows are the sums of prompt rows, '*' rows the sums of provider rows, domain rows the
 * counts of the citations table, and responses the count of stored answers.
 */
export async function expectConsistentRollups(store: Store, projectId: string): Promise<void> {
  const q = async (sql: string) => (await store.query<{ n: string }>(sql, [projectId])).rows.map((r) => JSON.stringify(r)).sort();
  // prompt_daily (per provider) == the answers stored
  expect(
    await q(`select provider, day::text, sum(responses)::int as r, sum(mentioned)::int as m, sum(cites_own)::int as c, sum(citations)::int as n,
                    sum(sentiment_sum)::int as s, sum(position_sq)::int as pq, sum(sentiment_sq)::int as sq
               from prompt_daily where project_id = $1 and provider <> '*' and market <> '*' group by 1, 2`),
  ).toEqual(
    await q(`select provider, day::text, count(*)::int as r, (count(*) filter (where mentioned))::int as m,
                    (count(*) filter (where cites_own))::int as c, sum(citation_count)::int as n,
                    coalesce(sum(sentiment) filter (where mentioned), 0)::int as s,
                    coalesce(sum(coalesce(position, 0) * coalesce(position, 0)) filter (where mentioned), 0)::int as pq,
                    coalesce(sum(sentiment * sentiment) filter (where mentioned), 0)::int as sq
               from responses where project_id = $1 group by 1, 2`),
  );
  // per market too: prompt_daily and project_daily (each provider and '*') == the answers stored in that market
  const perMarket = `select provider, day::text, market, count(*)::int as r, (count(*) filter (where mentioned))::int as m, sum(citation_count)::int as n
                       from responses where project_id = $1 group by 1, 2, 3
                     union all
                     select '*', day::text, market, count(*)::int, (count(*) filter (where mentioned))::int, sum(citation_count)::int
                       from responses where project_id = $1 group by 2, 3`;
  for (const table of ['prompt_daily', 'project_daily']) {
    expect(
      await q(`select provider, day::text, market, sum(responses)::int as r, sum(mentioned)::int as m, sum(citations)::int as n
                 from ${table} where project_id = $1 and responses > 0 and market <> '*' group by 1, 2, 3`),
      table,
    ).toEqual(await q(perMarket));
  }
  // engine_model_daily == the answers stored, by engine, day and model
  expect(await q(`select provider, day::text, model, answers as n from engine_model_daily where project_id = $1`)).toEqual(
    await q(`select provider, day::text, model, count(*)::int as n from responses where project_id = $1 group by 1, 2, 3`),
  );
  const main = 'responses, mentioned, position_sum, sentiment_sum, cites_own, citations, position_sq, sentiment_sq';
  const brand = 'mentions, mention_count, position_sum, sentiment_sum, position_sq, sentiment_sq';
  const sumsOf = (cols: string) => cols.split(', ').map((c) => `sum(${c})::int as ${c}`).join(', ');
  // The per-brand arrays of the prompt rows, as rows: (prompt, provider, bucket, brand id, mentions, times named).
  // The own brand is number 0; a number without a competitor record (deleted, until the re-analysis) is left out.
  const brandRows = (table: string, unit: string) =>
    `select d.prompt_id, d.provider, d.${unit} as bucket, d.market,
            case when u.i = 1 then '00000000-0000-0000-0000-000000000000'::uuid else c.id end as brand_id,
            u.mn, x.mc
       from ${table} d
            cross join lateral unnest(d.brand_mentions) with ordinality as u(mn, i)
            cross join lateral (select d.brand_counts[u.i] as mc) x
            left join competitors c on c.project_id = d.project_id and c.brand_no = u.i - 1 and not c.is_own_brand and u.i > 1
      where d.project_id = $1 and d.market <> '*' and (u.mn <> 0 or x.mc <> 0) and (u.i = 1 or c.id is not null)`;
  // the arrays are as long as the highest brand named, and every brand named has a number
  expect(
    await q(`select d.provider from prompt_daily d where d.project_id = $1
               and (cardinality(d.brand_mentions) <> cardinality(d.brand_counts)
                    or (cardinality(d.brand_mentions) > 0 and d.brand_mentions[cardinality(d.brand_mentions)] = 0))`),
  ).toEqual([]);
  // prompt rows' per-brand arrays (per provider) == the brands named in the answers stored
  expect(
    await q(`select prompt_id::text, provider, bucket::text, brand_id::text, sum(mn)::int as mn, sum(mc)::int as mc
               from (${brandRows('prompt_daily', 'day')}) b where provider <> '*' group by 1, 2, 3, 4`),
  ).toEqual(
    await q(`select r.prompt_id::text, r.provider, r.day::text as bucket, b.key as brand_id, count(*)::int as mn, sum((b.value->>'count')::int)::int as mc
               from responses r cross join lateral ${BRANDS_OF_R} as b
              where r.project_id = $1 and (b.key::uuid = '00000000-0000-0000-0000-000000000000'
                    or exists (select 1 from competitors c where c.id = b.key::uuid and not c.is_own_brand))
              group by 1, 2, 3, 4`),
  );
  // The per-brand arrays of the project rows, as rows: (provider, day, brand id, mentions, times named, position and
  // sentiment sums and squares), numbered as the prompt rows' arrays.
  const projectBrandRows = `select d.project_id, d.provider, d.day, d.market, case when u.i = 1 then '00000000-0000-0000-0000-000000000000'::uuid else c.id end as brand_id,
            u.mn as mentions, d.brand_counts[u.i] as mention_count, d.brand_position_sums[u.i] as position_sum,
            d.brand_sentiment_sums[u.i] as sentiment_sum, d.brand_position_sq[u.i] as position_sq, d.brand_sentiment_sq[u.i] as sentiment_sq
       from project_daily d
            cross join lateral unnest(d.brand_mentions) with ordinality as u(mn, i)
            left join competitors c on c.project_id = d.project_id and c.brand_no = u.i - 1 and not c.is_own_brand and u.i > 1
      where d.project_id = $1 and d.market <> '*' and (u.i = 1 or c.id is not null)
        and (u.mn, d.brand_counts[u.i], d.brand_position_sums[u.i], d.brand_sentiment_sums[u.i], d.brand_position_sq[u.i], d.brand_sentiment_sq[u.i])
            is distinct from (0, 0, 0, 0, 0, 0)`;
  // the six arrays of a project row are equally long
  expect(
    await q(`select provider, day::text from project_daily where project_id = $1
               and cardinality(brand_mentions) <> any(array[cardinality(brand_counts), cardinality(brand_position_sums),
                   cardinality(brand_sentiment_sums), cardinality(brand_position_sq), cardinality(brand_sentiment_sq)])`),
  ).toEqual([]);
  // project rows' per-brand arrays (per provider) == the brands named in the answers stored, sums of position and sentiment included
  expect(
    await q(`select provider, day::text, brand_id::text, ${sumsOf(brand)} from (${projectBrandRows}) b where provider <> '*' group by 1, 2, 3`),
  ).toEqual(
    await q(`select r.provider, r.day::text, b.key as brand_id, count(*)::int as mentions, sum((b.value->>'count')::int)::int as mention_count,
                    sum((b.value->>'position')::int)::int as position_sum, sum((b.value->>'sentiment')::int)::int as sentiment_sum,
                    sum(((b.value->>'position')::int) ^ 2)::int as position_sq, sum(((b.value->>'sentiment')::int) ^ 2)::int as sentiment_sq
               from responses r cross join lateral ${BRANDS_OF_R} as b
              where r.project_id = $1 and (b.key::uuid = '00000000-0000-0000-0000-000000000000'
                    or exists (select 1 from competitors c where c.id = b.key::uuid and not c.is_own_brand))
              group by 1, 2, 3`),
  );
  // project rows == sums of prompt rows, for every provider and '*'
  expect(await q(`select provider, day::text, ${sumsOf(main)} from project_daily where project_id = $1 and market <> '*' group by 1, 2`)).toEqual(
    await q(`select provider, day::text, ${sumsOf(main)} from prompt_daily where project_id = $1 and market <> '*' group by 1, 2`),
  );
  // the mentions of the numbered brands in the project rows == those of the prompt rows' arrays
  expect(await q(`select provider, day::text, market, brand_id::text, mentions as mn, mention_count as mc from (${projectBrandRows}) b`)).toEqual(
    await q(`select provider, bucket::text as day, market, brand_id::text, sum(mn)::int as mn, sum(mc)::int as mc
               from (${brandRows('prompt_daily', 'day')}) b group by 1, 2, 3, 4`),
  );
  for (const [table, unit] of [['weekly', 'week'], ['monthly', 'month']] as const) {
    // weekly and monthly rows == the daily rows summed per week (Monday) and month (UTC), per-brand arrays included
    expect(await q(`select prompt_id::text, provider, ${unit}::text, ${sumsOf(main)} from prompt_${table} where project_id = $1 and market <> '*' group by 1, 2, 3`)).toEqual(
      await q(`select prompt_id::text, provider, date_trunc('${unit}', day::timestamp)::date::text as ${unit}, ${sumsOf(main)} from prompt_daily where project_id = $1 and market <> '*' group by 1, 2, 3`),
    );
    expect(
      await q(`select prompt_id::text, provider, bucket::text, brand_id::text, sum(mn)::int as mn, sum(mc)::int as mc
                 from (${brandRows(`prompt_${table}`, unit)}) b group by 1, 2, 3, 4`),
    ).toEqual(
      await q(`select prompt_id::text, provider, date_trunc('${unit}', bucket::timestamp)::date::text as bucket, brand_id::text, sum(mn)::int as mn, sum(mc)::int as mc
                 from (${brandRows('prompt_daily', 'day')}) b group by 1, 2, 3, 4`),
    );
  }
  // project_weekly and project_monthly == project_daily summed per week (Monday) and month (UTC), per-brand arrays included
  const arraysOf = 'brand_mentions, brand_counts, brand_position_sums, brand_sentiment_sums, brand_position_sq, brand_sentiment_sq'.split(', ');
  for (const unit of ['week', 'month'] as const) {
    const bucket = `date_trunc('${unit}', day::timestamp)::date`;
    expect(await q(`select provider, ${unit}::text as b, market, ${main}, ${arraysOf.map((c) => `${c}::text`).join(', ')} from project_${unit}ly where project_id = $1`)).toEqual(
      await q(`select provider, ${bucket}::text as b, market, ${sumsOf(main)}, ${arraysOf.map((c) => `brand_sums_agg(${c})::text as ${c}`).join(', ')}
                 from project_daily where project_id = $1 group by 1, 2, 3`),
    );
    // and each brand's day bits == the days project_daily has it named (mentions > 0), per provider and '*'
    expect(
      await q(`select x.provider, x.market, (x.${unit} + k.bit)::text as day, u.i - 1 as no
                 from project_${unit}ly x cross join lateral unnest(x.brand_days) with ordinality as u(m, i) cross join generate_series(0, 30) as k(bit)
                where x.project_id = $1 and (u.m >> k.bit) & 1 = 1`),
    ).toEqual(
      await q(`select d.provider, d.market, d.day::text as day, u.i - 1 as no
                 from project_daily d cross join lateral unnest(d.brand_mentions) with ordinality as u(mn, i) where d.project_id = $1 and u.mn > 0`),
    );
    expect(await q(`select provider from project_${unit}ly where project_id = $1 and cardinality(brand_days) <> cardinality(brand_mentions)`)).toEqual([]);
  }
  // '*' rows == sums of the provider rows
  for (const [table, key, cols] of [["(select * from prompt_daily where market <> '*') d", 'prompt_id::text, ', main], ["(select * from project_daily where market <> '*') d", '', main], [`(${projectBrandRows}) b`, 'brand_id::text, ', brand]] as const) {
    const n = key ? 2 : 1;
    expect(await q(`select ${key}day::text, ${sumsOf(cols)} from ${table} where project_id = $1 and provider = '*' group by ${n === 2 ? '1, 2' : '1'}`)).toEqual(
      await q(`select ${key}day::text, ${sumsOf(cols)} from ${table} where project_id = $1 and provider <> '*' group by ${n === 2 ? '1, 2' : '1'}`),
    );
  }
  expect(
    await q(`select prompt_id::text, bucket::text, brand_id::text, sum(mn)::int as mn, sum(mc)::int as mc from (${brandRows('prompt_daily', 'day')}) b where provider = '*' group by 1, 2, 3`),
  ).toEqual(
    await q(`select prompt_id::text, bucket::text, brand_id::text, sum(mn)::int as mn, sum(mc)::int as mc from (${brandRows('prompt_daily', 'day')}) b where provider <> '*' group by 1, 2, 3`),
  );
  // market totals (rollups/market-totals.ts): with projects.market_totals, each row of market '*' == the sums,
  // per-brand arrays and day bits (OR'd) of its markets' rows, row for row, in every rollup that keeps them;
  // without it, no such row
  const [{ market_totals: totals }] = (await store.query<{ market_totals: boolean }>(`select market_totals from projects where id = $1`, [projectId])).rows;
  const projectArrays = 'brand_mentions, brand_counts, brand_position_sums, brand_sentiment_sums, brand_position_sq, brand_sentiment_sq'.split(', ');
  for (const [table, key, arrays, bits] of [
    ['prompt_daily', 'prompt_id::text, provider, day', ['brand_mentions', 'brand_counts'], false],
    ['prompt_weekly', 'prompt_id::text, provider, week', ['brand_mentions', 'brand_counts'], false],
    ['prompt_monthly', 'prompt_id::text, provider, month', ['brand_mentions', 'brand_counts'], false],
    ['project_daily', 'provider, day', projectArrays, false],
    ['project_weekly', 'provider, week', projectArrays, true],
    ['project_monthly', 'provider, month', projectArrays, true],
  ] as const) {
    const n = key.split(', ').length;
    const rows = (where: string) =>
      q(`select ${key.replace(/(day|week|month)$/, '$1::text')}, ${sumsOf(main)}, ${arrays.map((c) => `brand_sums_agg(${c})::text as ${c}`).join(', ')}
                ${bits ? ', brand_bits_agg(brand_days)::text as brand_days' : ''}
           from ${table} where project_id = $1 and ${where} group by ${Array.from({ length: n }, (_, i) => i + 1).join(', ')}`);
    expect(await rows(`market = '*'`), `${table}: market totals`).toEqual(totals ? await rows(`market <> '*'`) : []);
  }
  // domain rows (their arrays as rows: provider, day, domain, category, counts) == the citations stored
  const domainRows = `select d.provider, d.day, d.market, n.domain, x[i + 1] as category, x[i + 2] as n, x[i + 3] as r, x[i + 4] as u, x[i] as no,
                             (i = 1 or x[i] > x[i - 5]) as ascending
                        from project_domain_daily d cross join lateral (select string_to_array(d.domains, ',')::int[] as x) a
                             cross join lateral generate_series(1, cardinality(x), 5) as i
                             left join project_domains n on n.project_id = d.project_id and n.no = x[i]
                       where d.project_id = $1 and d.market <> '*'`;
  expect(
    await q(`select provider, day::text, market, domain, n, r, u from (${domainRows}) x where provider <> '*'`),
  ).toEqual(
    await q(`select provider, day::text, market, domain, count(*)::int as n, count(distinct response_id)::int as r,
                    (count(*) filter (where not mentioned))::int as u
               from ${CITATIONS} where project_id = $1 group by 1, 2, 3, 4`),
  );
  expect(await q(`select day::text, market, domain, n, r, u from (${domainRows}) x where provider = '*'`)).toEqual(
    await q(`select day::text, market, domain, sum(n)::int as n, sum(r)::int as r, sum(u)::int as u from (${domainRows}) x where provider <> '*' group by 1, 2, 3`),
  );
  // market totals: each domain of a day row of market '*' == its markets' rows summed, and the totals' rows as
  // well formed as the markets'. The category is the lowest ever added (a prompt's removal leaves it, as it
  // leaves a row's): never above the markets' lowest.
  const domainTotals = domainRows.replace(`d.market <> '*'`, `d.market = '*'`);
  const marketsSummed = `select provider, day, domain, min(category) as category, sum(n)::int as n, sum(r)::int as r, sum(u)::int as u from (${domainRows}) x group by 1, 2, 3`;
  expect(await q(`select provider, day::text, domain, n, r, u from (${domainTotals}) x`), 'project_domain_daily: market totals').toEqual(
    totals ? await q(`select provider, day::text, domain, n, r, u from (${marketsSummed}) x`) : [],
  );
  expect(
    await q(`select t.provider, t.day::text, t.domain from (${domainTotals}) t join (${marketsSummed}) m using (provider, day, domain) where t.category > m.category`),
  ).toEqual([]);
  expect(await q(`select provider, day::text, no from (${domainTotals}) x where domain is null or n <= 0 or not ascending`)).toEqual([]);
  // every number named, each day's domains sorted by number (so each once), no empty day row
  expect(await q(`select provider, day::text, no from (${domainRows}) x where domain is null or n <= 0 or not ascending`)).toEqual([]);
  expect(
    await q(`select provider from project_domain_daily where project_id = $1 and (domains = '' or cardinality(string_to_array(domains, ',')) % 5 <> 0)`),
  ).toEqual([]);
  // prompt_domain_monthly == the citations of the answers stored, per prompt, provider, month and domain: a
  // brands bit per brand number (own brand 0) the citing answers name (a deleted competitor's bit, which no
  // read shows, until the re-analysis rebuilds the rows, left out)
  expect(
    await q(`select prompt_id::text, provider, month::text, market, domain, category, citations as n, responses as r, mentioned as m,
                    brands & (select 1 | coalesce(bit_or(1 << brand_no), 0) from competitors where project_id = $1 and not is_own_brand and brand_no < 31) as b
               from prompt_domain_monthly where project_id = $1 and market <> '*'`),
  ).toEqual(
    await q(`select r.prompt_id::text, r.provider, date_trunc('month', r.day::timestamp)::date::text as month, r.market, p.domain, min(p.category) as category,
                    count(*)::int as n, count(distinct r.id)::int as r, (count(distinct r.id) filter (where r.mentioned))::int as m,
                    coalesce(bit_or((select bit_or(1 << u.no) from unnest(r.brand_nos) as u(no)
                      where u.no < 31 and (u.no = 0 or exists (select 1 from competitors c
                                                                where c.project_id = r.project_id and c.brand_no = u.no and not c.is_own_brand)))), 0) as b
               from responses r cross join unnest(r.cited) as k(id) join cited_pages p on p.id = k.id
              where r.project_id = $1 group by 1, 2, 3, 4, 5`),
  );
  // and its market totals, row for row
  const promptDomainRows = (where: string) =>
    q(`select prompt_id::text, provider, month::text, domain, min(category) as category, sum(citations)::int as n, sum(responses)::int as r,
              sum(mentioned)::int as m, bit_or(brands) as b
         from prompt_domain_monthly where project_id = $1 and ${where} group by 1, 2, 3, 4`);
  expect(await promptDomainRows(`market = '*'`), 'prompt_domain_monthly: market totals').toEqual(totals ? await promptDomainRows(`market <> '*'`) : []);
}
