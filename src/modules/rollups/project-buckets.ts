import type { Tx } from '../../store/index.js';
import { PROJECT_BRAND_ARRAYS, PROJECT_BUCKETS, PROJECT_DAILY, type SumsTable } from './sums-tables.js';

// project_weekly and project_monthly: project_daily summed per calendar bucket, with per brand
// number the days of the bucket it was named on (brand_days, a bit per day). Answers stored are
// added to them as to project_daily (addToRollups); a change that takes answers out of
// project_daily (a prompt deleted) rebuilds them from it, since a day bit cannot be
// subtracted. Migration 0018 fills them with the same statements.

/** SQL: the bucket rows of `table` from project_daily's rows matching `where` (alias d). */
function fromDailySql(table: SumsTable, where: string): string {
  const unit = table.keys[1][0]; // week or month
  const bucket = `date_trunc('${unit}', d.day::timestamp)::date`;
  const cols = [...PROJECT_DAILY.sums, ...PROJECT_BRAND_ARRAYS];
  return `insert into ${table.name} (project_id, provider, ${unit}, market, ${cols.join(', ')}, brand_days)
    select d.project_id, d.provider, ${bucket}, d.market, ${PROJECT_DAILY.sums.map((c) => `sum(d.${c})::int`).join(', ')},
           ${PROJECT_BRAND_ARRAYS.map((c) => `brand_sums_agg(d.${c})`).join(', ')}, brand_bits_agg(b.days)
      from project_daily d
           cross join lateral (select coalesce(array_agg(case when u.mentions > 0 then 1 << (d.day - ${bucket}) else 0 end order by u.i), '{}') as days
                                 from unnest(d.brand_mentions) with ordinality as u(mentions, i)) b
     where ${where}
     group by 1, 2, 3, 4`;
}

/** A project's bucket rows made again from its project_daily rows, in the caller's transaction. */
export async function rebuildProjectBuckets(tx: Tx, projectId: string): Promise<void> {
  for (const table of PROJECT_BUCKETS) {
    await tx.query(`delete from ${table.name} where project_id = $1`, [projectId]);
    await tx.query(fromDailySql(table, 'd.project_id = $1'), [projectId]);
  }
}
