import type { Tx } from '../../store/index.js';
import { touchAnalytics } from '../../store/analytics-version.js';
import { ALL } from './sums-tables.js';
import { ALL_MARKETS } from './market-totals.js';
import { removePromptDomains } from './domain-days.js';
import { rebuildProjectBuckets } from './project-buckets.js';
import { removePromptThemes } from './themes.js';
import { removePromptEngineModels } from './engine-models.js';

/**
 * Takes a prompt's answers out of the project-level rollups, in the caller's transaction,
 * before the prompt (and with it its answers and per-prompt rollups) is deleted: the
 * project's figures then never count answers of a prompt that no longer exists.
 */
export async function removePromptFromRollups(tx: Tx, projectId: string, promptId: string): Promise<void> {
  await touchAnalytics(tx, projectId); // the version row before any rollup row (read-cache.ts)
  await tx.query(
    `update project_daily d set responses = d.responses - p.responses, mentioned = d.mentioned - p.mentioned,
            position_sum = d.position_sum - p.position_sum, sentiment_sum = d.sentiment_sum - p.sentiment_sum,
            cites_own = d.cites_own - p.cites_own, citations = d.citations - p.citations,
            position_sq = d.position_sq - p.position_sq, sentiment_sq = d.sentiment_sq - p.sentiment_sq
       from prompt_daily p
      where p.prompt_id = $2 and d.project_id = $1 and d.provider = p.provider and d.day = p.day and d.market = p.market`,
    [projectId, promptId],
  );
  // (The prompt's rows of market '*', where the project keeps market totals, meet the
  // project's rows of market '*' above: its answers leave the totals with the same update.)
  // The prompt's brand sums of position and sentiment are not kept per prompt (only its
  // mentions and counts are): they come from its answers, by the brand numbers they name
  // (responses.brand_nos, the numbers addToRollups counted them under), for the provider rows and '*', each market's and the markets'
  // total ('*', which matches no row of a project without market totals), and are taken out
  // of the project rows' per-brand arrays (negated, added with brand_sums_add).
  await tx.query(
    `with per_provider as (
       select r.provider, r.day, r.market, b.no as brand_no, count(*)::int as mentions,
              sum(r.brand_stats[3 * b.i - 1])::int as times_named, sum(r.brand_stats[3 * b.i - 2])::int as position_sum,
              sum(r.brand_stats[3 * b.i])::int as sentiment_sum,
              sum(r.brand_stats[3 * b.i - 2] ^ 2)::int as position_sq, sum(r.brand_stats[3 * b.i] ^ 2)::int as sentiment_sq
         from responses r cross join unnest(r.brand_nos) with ordinality as b(no, i)
        where r.prompt_id = $2 group by 1, 2, 3, 4),
     per_market as (
       select * from per_provider
       union all
       select '${ALL}', day, market, brand_no, sum(mentions)::int, sum(times_named)::int, sum(position_sum)::int, sum(sentiment_sum)::int,
              sum(position_sq)::int, sum(sentiment_sq)::int
         from per_provider group by day, market, brand_no),
     deltas as (
       select * from per_market
       union all
       select provider, day, '${ALL_MARKETS}', brand_no, sum(mentions)::int, sum(times_named)::int, sum(position_sum)::int, sum(sentiment_sum)::int,
              sum(position_sq)::int, sum(sentiment_sq)::int
         from per_market group by provider, day, brand_no),
     arrays as (
       select k.provider, k.day, k.market,
              array_agg(-coalesce(x.mentions, 0) order by g) as mentions, array_agg(-coalesce(x.times_named, 0) order by g) as times_named,
              array_agg(-coalesce(x.position_sum, 0) order by g) as position_sums, array_agg(-coalesce(x.sentiment_sum, 0) order by g) as sentiment_sums,
              array_agg(-coalesce(x.position_sq, 0) order by g) as position_sq, array_agg(-coalesce(x.sentiment_sq, 0) order by g) as sentiment_sq
         from (select provider, day, market, max(brand_no) as top from deltas group by 1, 2, 3) k
              cross join lateral generate_series(0, k.top) as g
              left join deltas x on x.provider = k.provider and x.day = k.day and x.market = k.market and x.brand_no = g
        group by 1, 2, 3)
     update project_daily d set brand_mentions = brand_sums_add(d.brand_mentions, a.mentions), brand_counts = brand_sums_add(d.brand_counts, a.times_named),
            brand_position_sums = brand_sums_add(d.brand_position_sums, a.position_sums),
            brand_sentiment_sums = brand_sums_add(d.brand_sentiment_sums, a.sentiment_sums),
            brand_position_sq = brand_sums_add(d.brand_position_sq, a.position_sq), brand_sentiment_sq = brand_sums_add(d.brand_sentiment_sq, a.sentiment_sq)
       from arrays a
      where d.project_id = $1 and d.provider = a.provider and d.day = a.day and d.market = a.market`,
    [projectId, promptId],
  );
  await removePromptDomains(tx, projectId, promptId);
  await removePromptThemes(tx, projectId, promptId);
  await removePromptEngineModels(tx, projectId, promptId);
  await tx.query(`delete from project_daily where project_id = $1 and responses <= 0`, [projectId]);
  // the day bits of the weeks and months: a brand no longer named on a day loses its bit
  await rebuildProjectBuckets(tx, projectId);
}
