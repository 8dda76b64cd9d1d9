import type { Tx } from '../../store/index.js';
import { wholeBuckets } from './buckets.js';
import { ALL } from './sums-tables.js';
import { addBrandArrayTexts, countBits, emptyBrandArrays, namedOnDayBits, PROJECT_BRAND_COLUMNS_AS_TEXT, type BrandArrays, type BrandArrayTexts, type Sums } from './codec.js';
import { rollupMarketSql } from './market-totals.js';

// Reads of the project rollups (project_daily and its calendar buckets project_weekly and
// project_monthly), returned as named per-brand structures (README.md beside this file).

/** One brand's sums over a window: what the per-brand arrays hold, added up, and the days it was named on. */
export interface BrandSums {
  /** Responses naming the brand. */
  mentions: number;
  /** Times it was named, over all responses. */
  timesNamed: number;
  positionSum: number;
  sentimentSum: number;
  positionSquares: number;
  sentimentSquares: number;
  /** Days of the window on which some response named it. */
  daysNamed: number;
}

/** The window's responses, and per brand number the brand's sums (a brand never named is absent). */
export interface ProjectBrandWindow {
  responses: number;
  brands: Map<number, BrandSums>;
}

/**
 * One brand's sums over a window as the metrics take them (Sums), over the window's
 * `responses`: a brand never named has none (0), as the metrics define it. Citations of the
 * own site are not kept per brand (citesOwn 0).
 */
export function brandAsSums(responses: number, brand: BrandSums | undefined): Sums {
  return {
    responses,
    mentioned: brand?.mentions ?? 0,
    positionSum: brand?.positionSum ?? 0,
    sentimentSum: brand?.sentimentSum ?? 0,
    citesOwn: 0,
    positionSq: brand?.positionSquares ?? 0,
    sentimentSq: brand?.sentimentSquares ?? 0,
  };
}

/** A day of project_daily, providers summed: its responses and per-brand sums. */
export interface ProjectDay {
  responses: number;
  brands: BrandArrays;
}

/**
 * The window's days from project_daily, the providers given summed: per day (as an offset
 * from `from`) the responses and the per-brand sums. A day without answers is absent.
 * `market`: one market's rows, '*' the market totals (rollupMarket), null every market's
 * rows but the totals, summed.
 */
export async function projectDays(
  tx: Tx,
  projectId: string,
  providers: string[],
  from: string,
  to: string,
  market: string | null = null,
): Promise<Map<number, ProjectDay>> {
  const { rows } = await tx.query<BrandArrayTexts & { day_offset: number; responses: number }>(
    `select day - $3::date as day_offset, responses, ${PROJECT_BRAND_COLUMNS_AS_TEXT}
       from project_daily
      where project_id = $1 and provider = any($2::text[]) and day between $3::date and $4::date and ${rollupMarketSql(market, 5)}`,
    [projectId, providers, from, to, market],
  );
  const days = new Map<number, ProjectDay>();
  for (const row of rows) {
    let day = days.get(row.day_offset);
    if (!day) {
      day = { responses: 0, brands: emptyBrandArrays() };
      days.set(row.day_offset, day);
    }
    day.responses += row.responses;
    addBrandArrayTexts(row, day.brands);
  }
  return days;
}

/**
 * Per brand number, the window's sums and the days it was named on, and the window's
 * responses: the window's whole months and weeks from project_monthly and project_weekly,
 * the days around them from project_daily (wholeBuckets: nothing subtracted, as day bits
 * cannot be). A brand's days are, per bucket, the bits of its day masks OR'd over the
 * providers read (a day named by two providers counts once), a day row's bit being
 * whether it was named; the sums simply add up. Providers null: the '*' rows (all providers);
 * market '*': the market totals (rollupMarket), whose day bits are the markets' OR'd; market
 * null: every market's rows but the totals (OR'd and added as the providers' are).
 */
export async function brandSums(
  tx: Tx,
  projectId: string,
  window: { from: string; to: string; providers: readonly string[] | null; market?: string | null },
): Promise<ProjectBrandWindow> {
  const whole = wholeBuckets(window.from, window.to);
  const market = window.market ?? null;
  const { rows } = await tx.query<BrandArrayTexts & { bucket: string; responses: number; brand_days: string | null }>(
    `select 'm' || month as bucket, responses, ${PROJECT_BRAND_COLUMNS_AS_TEXT}, brand_days::text as brand_days
       from project_monthly where project_id = $1 and provider = any($2::text[]) and month = any($3::date[]) and ${rollupMarketSql(market, 6)}
     union all
     select 'w' || week, responses, ${PROJECT_BRAND_COLUMNS_AS_TEXT}, brand_days::text
       from project_weekly where project_id = $1 and provider = any($2::text[]) and week = any($4::date[]) and ${rollupMarketSql(market, 6)}
     union all
     select 'd' || day, responses, ${PROJECT_BRAND_COLUMNS_AS_TEXT}, null
       from project_daily where project_id = $1 and provider = any($2::text[]) and day = any($5::date[]) and ${rollupMarketSql(market, 6)}`,
    [projectId, window.providers ?? [ALL], whole.months, whole.weeks, whole.days, market],
  );
  let responses = 0;
  const sums = emptyBrandArrays();
  // per bucket, per brand number: the days named, OR'd over the providers' rows
  const bucketDays = new Map<string, number[]>();
  for (const row of rows) {
    responses += row.responses;
    addBrandArrayTexts(row, sums);
    let bucket = bucketDays.get(row.bucket);
    if (!bucket) bucketDays.set(row.bucket, (bucket = []));
    const bits = namedOnDayBits(row.brand_days, row.brand_mentions);
    for (let no = 0; no < bits.length; no++) bucket[no] = (bucket[no] ?? 0) | (bits[no] ?? 0);
  }
  const daysNamed: number[] = [];
  for (const bucket of bucketDays.values()) for (let no = 0; no < bucket.length; no++) daysNamed[no] = (daysNamed[no] ?? 0) + countBits(bucket[no] ?? 0);
  const brands = new Map<number, BrandSums>();
  for (let no = 0; no < daysNamed.length; no++) {
    // never named in the window: no sums to show
    if (!(daysNamed[no] > 0)) continue;
    brands.set(no, {
      mentions: sums.mentions[no] ?? 0,
      timesNamed: sums.timesNamed[no] ?? 0,
      positionSum: sums.positionSums[no] ?? 0,
      sentimentSum: sums.sentimentSums[no] ?? 0,
      positionSquares: sums.positionSquares[no] ?? 0,
      sentimentSquares: sums.sentimentSquares[no] ?? 0,
      daysNamed: daysNamed[no],
    });
  }
  return { responses, brands };
}

/**
 * The project's totals over a window from the '*' rows of project_daily: responses, those
 * naming the brand, those citing its site. `market` as projectDays takes it.
 */
export async function projectTotals(
  tx: Tx,
  projectId: string,
  from: string,
  to: string,
  market: string | null = null,
): Promise<{ responses: number; mentioned: number; citesOwn: number }> {
  const { rows } = await tx.query<{ responses: number; mentioned: number; cites_own: number }>(
    `select coalesce(sum(responses), 0)::int as responses, coalesce(sum(mentioned), 0)::int as mentioned, coalesce(sum(cites_own), 0)::int as cites_own
       from project_daily where project_id = $1 and provider = '*' and day between $2::date and $3::date and ${rollupMarketSql(market, 4)}`,
    [projectId, from, to, market],
  );
  return { responses: rows[0].responses, mentioned: rows[0].mentioned, citesOwn: rows[0].cites_own };
}
