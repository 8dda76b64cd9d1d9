-- Issue 29: a project whose prompts run in several markets keeps, in the prompt rollups, a
-- row of market '*' per prompt, provider and bucket that sums the prompt's markets (as the
-- provider '*' rows sum providers), so a read of every market reads one row per bucket, not
-- one per market (src/modules/rollups/README.md, "Market totals"). projects.market_totals
-- says the project's prompt rollups hold those rows for its whole history; it is set once,
-- with the rows, when a prompt of the project first runs in more than one market.
ALTER TABLE "projects" ADD COLUMN "market_totals" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- The project indexes end with the market, so a read of the '*' rows skips the markets' rows
-- in the index instead of fetching them from the table.
DROP INDEX "prompt_daily_project_idx";
--> statement-breakpoint
CREATE INDEX "prompt_daily_project_idx" ON "prompt_daily" USING btree ("project_id","provider","day","market");
--> statement-breakpoint
DROP INDEX "prompt_weekly_project_idx";
--> statement-breakpoint
CREATE INDEX "prompt_weekly_project_idx" ON "prompt_weekly" USING btree ("project_id","provider","week","market");
--> statement-breakpoint
DROP INDEX "prompt_monthly_project_idx";
--> statement-breakpoint
CREATE INDEX "prompt_monthly_project_idx" ON "prompt_monthly" USING btree ("project_id","provider","month","market");
--> statement-breakpoint
UPDATE "projects" SET "market_totals" = true
 WHERE "id" IN (SELECT "project_id" FROM "prompts" WHERE jsonb_typeof("markets") = 'array' AND jsonb_array_length("markets") > 1);
--> statement-breakpoint
INSERT INTO "prompt_daily" ("project_id", "prompt_id", "provider", "day", "market", "responses", "mentioned", "position_sum", "sentiment_sum", "cites_own", "citations", "position_sq", "sentiment_sq", "brand_mentions", "brand_counts")
SELECT "project_id", "prompt_id", "provider", "day", '*', sum("responses"), sum("mentioned"), sum("position_sum"), sum("sentiment_sum"), sum("cites_own"), sum("citations"), sum("position_sq"), sum("sentiment_sq"), "brand_sums_agg"("brand_mentions"), "brand_sums_agg"("brand_counts")
  FROM "prompt_daily" WHERE "project_id" IN (SELECT "id" FROM "projects" WHERE "market_totals")
 GROUP BY "project_id", "prompt_id", "provider", "day";
--> statement-breakpoint
INSERT INTO "prompt_weekly" ("project_id", "prompt_id", "provider", "week", "market", "responses", "mentioned", "position_sum", "sentiment_sum", "cites_own", "citations", "position_sq", "sentiment_sq", "brand_mentions", "brand_counts")
SELECT "project_id", "prompt_id", "provider", "week", '*', sum("responses"), sum("mentioned"), sum("position_sum"), sum("sentiment_sum"), sum("cites_own"), sum("citations"), sum("position_sq"), sum("sentiment_sq"), "brand_sums_agg"("brand_mentions"), "brand_sums_agg"("brand_counts")
  FROM "prompt_weekly" WHERE "project_id" IN (SELECT "id" FROM "projects" WHERE "market_totals")
 GROUP BY "project_id", "prompt_id", "provider", "week";
--> statement-breakpoint
INSERT INTO "prompt_monthly" ("project_id", "prompt_id", "provider", "month", "market", "responses", "mentioned", "position_sum", "sentiment_sum", "cites_own", "citations", "position_sq", "sentiment_sq", "brand_mentions", "brand_counts")
SELECT "project_id", "prompt_id", "provider", "month", '*', sum("responses"), sum("mentioned"), sum("position_sum"), sum("sentiment_sum"), sum("cites_own"), sum("citations"), sum("position_sq"), sum("sentiment_sq"), "brand_sums_agg"("brand_mentions"), "brand_sums_agg"("brand_counts")
  FROM "prompt_monthly" WHERE "project_id" IN (SELECT "id" FROM "projects" WHERE "market_totals")
 GROUP BY "project_id", "prompt_id", "provider", "month";
