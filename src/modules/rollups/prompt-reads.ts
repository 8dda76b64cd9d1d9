import type { Tx } from '../../store/index.js';
import { addIntArrayText, addWeightedIntArrayTexts, parseInts, type Sums } from './codec.js';
import { ALL } from './sums-tables.js';
import { windowParams, windowRows } from './window-rows.js';
import { ALL_MARKETS, rollupMarketSql } from './market-totals.js';
import { DAY_MS, dayMs } from '../../lib/time.js';

// Reads of the prompt rollups (prompt_daily, prompt_weekly, prompt_monthly), returned as
// named sums (README.md beside this file).

const SUM_COLUMNS = ['responses', 'mentioned', 'position_sum', 'sentiment_sum', 'cites_own', 'position_sq', 'sentiment_sq'] as const;

/** A row with the sums of SUM_COLUMNS under their own names. */
type SumColumns = Record<(typeof SUM_COLUMNS)[number], number>;

/**
 * Per prompt of a project (or of the given ones): the sums of each window, in the order
 * given, from the prompt rollups (window-rows.ts) in one statement. A prompt without rows
 * in any window is absent.
 */
export async function promptSums(
  tx: Tx,
  projectId: string,
  providers: string[],
  windows: Array<{ from: string; to: string }>,
  promptIds?: string[],
  market: string | null = null,
): Promise<Map<string, Sums[]>> {
  // float8: the sums of squares of a long window can pass the int range (and node-postgres
  // would return a bigint as a string)
  const sums = windows.flatMap((_, j) => SUM_COLUMNS.map((c) => `sum(${c} * w${j + 1})::${c.endsWith('_sq') ? 'float8' : 'int'} as ${c}_${j}`));
  const { rows } = await tx.query<Record<string, number> & { prompt_id: string }>(
    `select prompt_id, ${sums.join(', ')}
       from (${windowRows(`prompt_id, ${SUM_COLUMNS.join(', ')}`, `project_id = $1 and provider = any($2::text[]) and ($3::uuid[] is null or prompt_id = any($3::uuid[])) and ${rollupMarketSql(market, 4)}`, 5, windows.length)}) x
      group by prompt_id`,
    [projectId, providers, promptIds ?? null, market, ...windowParams(windows)],
  );
  return new Map(
    rows.map((r) => [
      r.prompt_id,
      windows.map((_, j) => ({
        responses: r[`responses_${j}`],
        mentioned: r[`mentioned_${j}`],
        positionSum: r[`position_sum_${j}`],
        sentimentSum: r[`sentiment_sum_${j}`],
        citesOwn: r[`cites_own_${j}`],
        positionSq: r[`position_sq_${j}`],
        sentimentSq: r[`sentiment_sq_${j}`],
      })),
    ]),
  );
}

/**
 * Per prompt of a project, the sums of one window and the times each brand was named in it
 * (by brand number, from the per-brand arrays), in one read of the prompt rollups. PostgreSQL
 * sums the cover rows' columns per prompt and joins their per-brand arrays, each after its
 * weight ('1{3,0,2}-1{1,0,1}'), which Node adds up: a row per prompt comes back instead of
 * one per bucket (parsing the rows was most of the read's cost), and the arrays are never
 * unnested into rows, which costs PostgreSQL more than the adding costs Node. A prompt
 * without rows is absent.
 */
export async function promptSumsAndBrands(
  tx: Tx,
  projectId: string,
  providers: string[],
  window: { from: string; to: string },
  market: string | null = null,
): Promise<Map<string, { sums: Sums; brandCounts: number[] }>> {
  const sums = SUM_COLUMNS.map((c) => `sum(${c} * w1)::${c.endsWith('_sq') ? 'float8' : 'int'} as ${c}`);
  const { rows } = await tx.query<SumColumns & { prompt_id: string; brand_counts: string | null }>(
    `select prompt_id, ${sums.join(', ')}, string_agg(w1::text || brand_counts::text, '') filter (where w1 <> 0) as brand_counts
       from (${windowRows(`prompt_id, ${SUM_COLUMNS.join(', ')}, brand_counts`, `project_id = $1 and provider = any($2::text[]) and ${rollupMarketSql(market, 3)}`, 4, 1)}) x
      group by prompt_id`,
    [projectId, providers, market, ...windowParams([window])],
  );
  const out = new Map<string, { sums: Sums; brandCounts: number[] }>();
  for (const row of rows) {
    const sums: Sums = {
      responses: row.responses,
      mentioned: row.mentioned,
      positionSum: row.position_sum,
      sentimentSum: row.sentiment_sum,
      citesOwn: row.cites_own,
      positionSq: row.position_sq,
      sentimentSq: row.sentiment_sq,
    };
    out.set(row.prompt_id, { sums, brandCounts: row.brand_counts === null ? [] : addWeightedIntArrayTexts(row.brand_counts, []) });
  }
  return out;
}

/** A (prompt, day) of prompt_daily, the providers asked for summed. */
export interface PromptDay {
  prompt_id: string;
  day: string;
  responses: number;
  mentioned: number;
}

/**
 * Per prompt of the project and day of the window, the responses and the mentioning ones
 * over the providers asked for ('*' rows: all providers). A (prompt, day) without answers
 * has no row.
 */
export async function promptDays(tx: Tx, projectId: string, providers: string[], from: string, to: string, market: string | null = null): Promise<PromptDay[]> {
  const { rows } = await tx.query<PromptDay>(
    `select prompt_id, to_char(day, 'YYYY-MM-DD') as day, sum(responses)::int as responses, sum(mentioned)::int as mentioned
       from prompt_daily
      where project_id = $1 and provider = any($2::text[]) and day between $3::date and $4::date and ${rollupMarketSql(market, 5)}
      group by prompt_id, day`,
    [projectId, providers, from, to, market],
  );
  return rows;
}

/** The sums a chart point is computed from (every sum but citesOwn). */
export type ChartSums = Omit<Sums, 'citesOwn'>;

const CHART_COLUMNS = ['responses', 'mentioned', 'position_sum', 'sentiment_sum', 'position_sq', 'sentiment_sq'] as const;

/** One prompt's sums per day of a window and provider, as a grid. */
export interface PromptProviderDays {
  /** The providers asked for, in the order of their names as the store sorts them (a chart day's order). */
  providers: string[];
  /**
   * Per day of the window, oldest first, and provider, in the order of `providers`: the
   * sums of its answers (its markets summed), null where it has none. The cell of day `d`
   * (0 = `from`) and provider `p` is `d * providers.length + p`.
   */
  sums: Array<ChartSums | null>;
}

/**
 * One prompt's sums per day and provider over a window (promptAnalytics' charts), in one
 * row of text: node-postgres makes an object per row and a string per field, which over a
 * year (1,825 rows of 8 fields) was the largest part of the request's CPU, where V8's JSON
 * parser reads the same ints from one string in a fraction of it. The rows come as
 * they are stored, neither grouped nor sorted: each lands in its cell of the grid, and a
 * (day, provider) with rows in several markets sums them there.
 */
export async function promptProviderDays(
  tx: Tx,
  promptId: string,
  providers: string[],
  from: string,
  to: string,
  market: string | null = null,
): Promise<PromptProviderDays> {
  const { rows } = await tx.query<{ providers: string | null; sums: string | null }>(
    `select (select string_agg(p, ',' order by p) from unnest($2::text[]) as p) as providers,
            (select string_agg(concat_ws(',', array_position($2::text[], provider), day - $3::date, ${CHART_COLUMNS.join(', ')}), ',')
               from prompt_daily
              where prompt_id = $1 and provider = any($2::text[]) and day between $3::date and $4::date and ${rollupMarketSql(market, 5)}) as sums`,
    [promptId, providers, from, to, market],
  );
  const sorted = rows[0].providers?.split(',') ?? [];
  // a provider's place in `sorted`, by its place in `providers` (array_position's, from 1)
  const place = [-1, ...providers.map((p) => sorted.indexOf(p))];
  const width = sorted.length;
  const days = Math.round((dayMs(to) - dayMs(from)) / DAY_MS) + 1;
  const sums: Array<ChartSums | null> = new Array(Math.max(0, days * width)).fill(null);
  const ints = rows[0].sums === null ? [] : parseInts(rows[0].sums);
  const fields = 2 + CHART_COLUMNS.length;
  for (let at = 0; at < ints.length; at += fields) {
    const cell = ints[at + 1] * width + place[ints[at]];
    const s = (sums[cell] ??= { responses: 0, mentioned: 0, positionSum: 0, sentimentSum: 0, positionSq: 0, sentimentSq: 0 });
    s.responses += ints[at + 2];
    s.mentioned += ints[at + 3];
    s.positionSum += ints[at + 4];
    s.sentimentSum += ints[at + 5];
    s.positionSq += ints[at + 6];
    s.sentimentSq += ints[at + 7];
  }
  return { providers: sorted, sums };
}

/** One prompt's responses over a window, the providers asked for summed. */
export async function promptResponses(tx: Tx, promptId: string, providers: string[], from: string, to: string, market: string | null = null): Promise<number> {
  const { rows } = await tx.query<{ responses: number }>(
    `select coalesce(sum(responses), 0)::int as responses from prompt_daily
      where prompt_id = $1 and provider = any($2::text[]) and day between $3::date and $4::date and ${rollupMarketSql(market, 5)}`,
    [promptId, providers, from, to, market],
  );
  return rows[0].responses;
}

/** An export row: prompt_daily per day, real provider and prompt, with the responses naming each brand. */
export interface DailyPromptRow {
  day: string;
  provider: string;
  prompt_id: string;
  prompt: string;
  responses: number;
  mentioned: number;
  position_sum: number;
  sentiment_sum: number;
  cites_own: number;
  /** Responses naming each brand, by brand number (0: the own brand). */
  brandMentions: number[];
}

/**
 * The export's one read of the rollups: prompt_daily per day, real provider (not the '*'
 * sums) and prompt, with the per-brand mention arrays, by day, provider and prompt creation;
 * a prompt's markets summed (null), their totals read ('*', rollupMarket), or only the
 * market given.
 */
export async function dailyPromptRows(tx: Tx, projectId: string, from: string, to: string, market: string | null = null): Promise<DailyPromptRow[]> {
  const { rows } = await tx.query<Omit<DailyPromptRow, 'brandMentions'> & { brand_mentions: string }>(
    `select to_char(d.day, 'YYYY-MM-DD') as day, d.provider, d.prompt_id, min(p.content) as prompt, sum(d.responses)::int as responses,
            sum(d.mentioned)::int as mentioned, sum(d.position_sum)::int as position_sum, sum(d.sentiment_sum)::int as sentiment_sum,
            sum(d.cites_own)::int as cites_own, brand_sums_agg(d.brand_mentions)::text as brand_mentions
       from prompt_daily d join prompts p on p.id = d.prompt_id
      where d.project_id = $1 and d.provider <> '${ALL}' and d.day between $2::date and $3::date and ${rollupMarketSql(market, 4, 'd.market')}
      group by d.day, d.provider, d.prompt_id, p.created_at
      order by d.day, d.provider, p.created_at, d.prompt_id`,
    [projectId, from, to, market],
  );
  return rows.map(({ brand_mentions, ...row }) => ({ ...row, brandMentions: addIntArrayText(brand_mentions, []) }));
}

/** The project's active prompts with their responses and mentions over a window (all providers), by creation; a prompt without answers is absent. */
export async function activePromptTotals(tx: Tx, projectId: string, from: string, to: string): Promise<Array<{ id: string; content: string; responses: number; mentioned: number }>> {
  const { rows } = await tx.query<{ id: string; content: string; responses: number; mentioned: number }>(
    `select p.id, p.content, sum(d.responses)::int as responses, sum(d.mentioned)::int as mentioned
       from prompts p join prompt_daily d on d.prompt_id = p.id
      where p.project_id = $1 and p.prompt_type = 'active' and d.provider = '${ALL}' and d.day between $2::date and $3::date and d.market <> '${ALL_MARKETS}'
      group by p.id, p.content order by p.created_at, p.id`,
    [projectId, from, to],
  );
  return rows;
}

/** Per prompt of the project, the responses naming each competitor (brand number > 0) over a window, all providers. */
export async function promptCompetitorMentions(tx: Tx, projectId: string, from: string, to: string): Promise<Array<{ promptId: string; brandNo: number; mentions: number }>> {
  const { rows } = await tx.query<{ prompt_id: string; brand_no: number; mentions: number }>(
    `select prompt_id, (u.i - 1)::int as brand_no, sum(u.v)::int as mentions
       from prompt_daily d cross join lateral unnest(d.brand_mentions) with ordinality as u(v, i)
      where project_id = $1 and provider = '${ALL}' and day between $2::date and $3::date and market <> '${ALL_MARKETS}' and u.i > 1
      group by prompt_id, u.i`,
    [projectId, from, to],
  );
  return rows.map((r) => ({ promptId: r.prompt_id, brandNo: r.brand_no, mentions: r.mentions }));
}

/** The project's active prompts (their text), those where the brand was named least over the last `days` days first (no answers: last). */
export async function activePromptsByMentionRate(tx: Tx, projectId: string, days: number, limit: number): Promise<string[]> {
  const { rows } = await tx.query<{ content: string }>(
    `select p.content
       from prompts p
       left join (select prompt_id, sum(mentioned)::float / nullif(sum(responses), 0) as rate
                    from prompt_daily where project_id = $1 and day >= current_date - $2::int and market <> '${ALL_MARKETS}' group by prompt_id) d
         on d.prompt_id = p.id
      where p.project_id = $1 and p.prompt_type = 'active'
      order by d.rate asc nulls last, p.created_at, p.id
      limit $3`,
    [projectId, days, limit],
  );
  return rows.map((r) => r.content);
}

/**
 * Active competitors (their names) the engines named over the last `days` days on prompts
 * where the brand is missing from some answers, most mentioned first.
 */
export async function competitorsNamedWhereBrandMissing(tx: Tx, projectId: string, days: number, limit: number): Promise<string[]> {
  const { rows } = await tx.query<{ name: string }>(
    `with gaps as (
       select prompt_id from prompt_daily
        where project_id = $1 and provider <> '${ALL}' and day >= current_date - $2::int and market <> '${ALL_MARKETS}'
        group by prompt_id having sum(mentioned) < sum(responses))
     select c.name
       from prompt_daily d
       cross join lateral unnest(d.brand_mentions) with ordinality as u(v, i)
       join competitors c on c.project_id = d.project_id and c.brand_no = u.i - 1
      where d.project_id = $1 and d.provider <> '${ALL}' and d.day >= current_date - $2::int and d.market <> '${ALL_MARKETS}' and d.prompt_id in (select prompt_id from gaps)
        and u.i > 1 and u.v > 0 and c.state = 'active' and not c.is_own_brand
      group by c.id, c.name
      order by sum(u.v) desc, c.name
      limit $3`,
    [projectId, days, limit],
  );
  return rows.map((r) => r.name);
}

/**
 * SQL for prompt_domain_monthly's rows of one prompt (`$promptParam`), providers
 * (`$providersParam`) and months (`$monthsParam`), summed per domain: (domain, category
 * (the lowest), citations, responses, mentioned, brands (the bits of every row)), of one
 * market (`$marketParam`, `market` its value: '*' the market totals, rollupMarket) or null
 * every market's but the totals: to be added to counts from the answers (analytics' prompt
 * domains). A row per domain, not per domain, provider and month: a year of a prompt is a
 * few dozen domains but some two thousand rows, whose parsing cost more than the grouping.
 */
export function promptDomainMonthsSql(promptParam: number, providersParam: number, monthsParam: number, marketParam: number, market: string | null): string {
  return `select domain, min(category)::int as category, sum(citations)::int as citations, sum(responses)::int as responses,
                 sum(mentioned)::int as mentioned, bit_or(brands) as brands
            from prompt_domain_monthly
           where prompt_id = $${promptParam} and provider = any($${providersParam}::text[]) and month = any($${monthsParam}::date[])
             and ${rollupMarketSql(market, marketParam)}
           group by domain`;
}
