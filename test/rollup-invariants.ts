import { expect } from 'vitest';
import type { Store } from '../src/store/index.js';

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
               from prompt_daily where project_id = $1 and provider <> '*' group by 1, 2`),
  ).toEqual(
    await q(`select provider, day::text, count(*)::int as r, (count(*) filter (where mentioned))::int as m,
                    (count(*) filter (where cites_own))::int as c, sum(citation_count)::int as n,
                    coalesce(sum(sentiment) filter (where mentioned), 0)::int as s,
                    coalesce(sum(coalesce(position, 0) * coalesce(position, 0)) filter (where mentioned), 0)::int as pq,
                    coalesce(sum(sentiment * sentiment) filter (where mentioned), 0)::int as sq
               from responses where project_id = $1 group by 1, 2`),
  );
  for (const [level, key, cols] of [
    ['daily', '', 'responses, mentioned, position_sum, sentiment_sum, cites_own, citations, position_sq, sentiment_sq'],
    ['brand_daily', ', brand_id', 'mentions, mention_count, position_sum, sentiment_sum, position_sq, sentiment_sq'],
  ] as const) {
    const sums = cols.split(', ').map((c) => `sum(${c})::int as ${c}`).join(', ');
    // project rows == sums of prompt rows, for every provider and '*'
    expect(await q(`select provider, day::text${key}, ${sums} from project_${level} where project_id = $1 group by 1, 2${key ? ', 3' : ''}`)).toEqual(
      await q(`select provider, day::text${key}, ${sums} from prompt_${level} where project_id = $1 group by 1, 2${key ? ', 3' : ''}`),
    );
    // weekly and monthly rows == the daily rows summed per week (Monday) and month (UTC)
    const key2 = key.replace('brand_id', 'brand_id::text');
    for (const [table, unit] of [['weekly', 'week'], ['monthly', 'month']] as const) {
      expect(
        await q(`select prompt_id::text, provider, ${unit}::text${key2}, ${sums} from prompt_${level.replace('daily', table)} where project_id = $1 group by 1, 2, 3${key ? ', 4' : ''}`),
      ).toEqual(
        await q(`select prompt_id::text, provider, date_trunc('${unit}', day::timestamp)::date::text as ${unit}${key2}, ${sums} from prompt_${level} where project_id = $1 group by 1, 2, 3${key ? ', 4' : ''}`),
      );
    }
    // '*' rows == sums of the provider rows
    expect(await q(`select day::text${key}, ${sums} from project_${level} where project_id = $1 and provider = '*' group by 1${key ? ', 2' : ''}`)).toEqual(
      await q(`select day::text${key}, ${sums} from project_${level} where project_id = $1 and provider <> '*' group by 1${key ? ', 2' : ''}`),
    );
  }
  expect(
    await q(`select provider, day::text, domain, citations as n, responses as r, citations_unmentioned as u
               from project_domain_daily where project_id = $1 and provider <> '*'`),
  ).toEqual(
    await q(`select provider, day::text, domain, count(*)::int as n, count(distinct response_id)::int as r,
                    (count(*) filter (where not mentioned))::int as u
               from citations where project_id = $1 group by 1, 2, 3`),
  );
}
