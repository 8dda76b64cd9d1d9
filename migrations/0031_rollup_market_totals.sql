-- Issue 29: market totals (migration 0030) in every rollup read without a market, not only the
-- prompt rollups: project_daily, project_weekly and project_monthly (day bits OR'd, so a day
-- a brand was named in two markets counts once), project_domain_daily and
-- prompt_domain_monthly keep, for a project with projects.market_totals, a row of market '*'
-- per key and bucket that sums the markets' rows (src/modules/rollups/README.md, "Market
-- totals"). The flag keeps its meaning, "the '*' rows are there for the whole history": a
-- project that already has it gets the new tables' '*' rows summed here, by the statements
-- keepMarketTotals runs (totalsFromMarketsSql).
-- domain_sums_agg: the domains of several day rows added (domain_sums_add), as brand_sums_agg adds arrays.
CREATE AGGREGATE "domain_sums_agg"(text) (SFUNC = "domain_sums_add", STYPE = text, INITCOND = '');
--> statement-breakpoint
insert into project_daily (project_id, provider, day, market, responses, mentioned, position_sum, sentiment_sum, cites_own, citations, position_sq, sentiment_sq, brand_mentions, brand_counts, brand_position_sums, brand_sentiment_sums, brand_position_sq, brand_sentiment_sq)
 select project_id, provider, day, '*', sum(responses), sum(mentioned), sum(position_sum), sum(sentiment_sum), sum(cites_own), sum(citations), sum(position_sq), sum(sentiment_sq), brand_sums_agg(brand_mentions), brand_sums_agg(brand_counts), brand_sums_agg(brand_position_sums), brand_sums_agg(brand_sentiment_sums), brand_sums_agg(brand_position_sq), brand_sums_agg(brand_sentiment_sq)
 from project_daily where "project_id" IN (SELECT "id" FROM "projects" WHERE "market_totals") and market <> '*'
 group by project_id, provider, day;
--> statement-breakpoint
insert into project_weekly (project_id, provider, week, market, responses, mentioned, position_sum, sentiment_sum, cites_own, citations, position_sq, sentiment_sq, brand_mentions, brand_counts, brand_position_sums, brand_sentiment_sums, brand_position_sq, brand_sentiment_sq, brand_days)
 select project_id, provider, week, '*', sum(responses), sum(mentioned), sum(position_sum), sum(sentiment_sum), sum(cites_own), sum(citations), sum(position_sq), sum(sentiment_sq), brand_sums_agg(brand_mentions), brand_sums_agg(brand_counts), brand_sums_agg(brand_position_sums), brand_sums_agg(brand_sentiment_sums), brand_sums_agg(brand_position_sq), brand_sums_agg(brand_sentiment_sq), brand_bits_agg(brand_days)
 from project_weekly where "project_id" IN (SELECT "id" FROM "projects" WHERE "market_totals") and market <> '*'
 group by project_id, provider, week;
--> statement-breakpoint
insert into project_monthly (project_id, provider, month, market, responses, mentioned, position_sum, sentiment_sum, cites_own, citations, position_sq, sentiment_sq, brand_mentions, brand_counts, brand_position_sums, brand_sentiment_sums, brand_position_sq, brand_sentiment_sq, brand_days)
 select project_id, provider, month, '*', sum(responses), sum(mentioned), sum(position_sum), sum(sentiment_sum), sum(cites_own), sum(citations), sum(position_sq), sum(sentiment_sq), brand_sums_agg(brand_mentions), brand_sums_agg(brand_counts), brand_sums_agg(brand_position_sums), brand_sums_agg(brand_sentiment_sums), brand_sums_agg(brand_position_sq), brand_sums_agg(brand_sentiment_sq), brand_bits_agg(brand_days)
 from project_monthly where "project_id" IN (SELECT "id" FROM "projects" WHERE "market_totals") and market <> '*'
 group by project_id, provider, month;
--> statement-breakpoint
insert into project_domain_daily (project_id, provider, day, market, domains)
 select project_id, provider, day, '*', domain_sums_agg(domains order by market)
 from project_domain_daily where "project_id" IN (SELECT "id" FROM "projects" WHERE "market_totals") and market <> '*'
 group by project_id, provider, day;
--> statement-breakpoint
insert into prompt_domain_monthly (project_id, prompt_id, provider, month, domain, market, category, citations, responses, mentioned, brands)
 select project_id, prompt_id, provider, month, domain, '*', min(category), sum(citations), sum(responses), sum(mentioned), bit_or(brands)
 from prompt_domain_monthly where "project_id" IN (SELECT "id" FROM "projects" WHERE "market_totals") and market <> '*'
 group by project_id, prompt_id, provider, month, domain;
