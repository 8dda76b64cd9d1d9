-- Issue 29: markets and personas. A prompt may run in several markets (country and
-- language) and for a persona; each (prompt, market) is a series of its own, so the market
-- joins the key of the answers, of the credit holds and of every rollup (as its last key
-- column: the reads' index prefixes stay as they were). Answers stored before are given
-- the market they were asked in: the prompt's country (or the project's location) and the
-- project's language, as market_code writes it (src/lib/markets.ts marketFrom, the same rule).
CREATE FUNCTION market_code(country text, language text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE WHEN btrim(coalesce(country, '')) ~ '^[A-Za-z]{2}$' THEN upper(btrim(country)) ELSE 'US' END)
      || '-'
      || (CASE WHEN split_part(replace(btrim(coalesce(language, '')), '_', '-'), '-', 1) ~ '^[A-Za-z]{2,3}$'
               THEN lower(split_part(replace(btrim(language), '_', '-'), '-', 1)) ELSE 'en' END)
$$;
--> statement-breakpoint
ALTER TABLE "prompts" ADD COLUMN "markets" jsonb;
--> statement-breakpoint
ALTER TABLE "prompts" ADD COLUMN "persona" text;
--> statement-breakpoint
CREATE TEMP TABLE "prompt_market_0027" AS
SELECT p."id" AS prompt_id, p."project_id", market_code(coalesce(p."country", pr."location"), pr."language") AS market
  FROM "prompts" p JOIN "projects" pr ON pr."id" = p."project_id";
--> statement-breakpoint
CREATE TEMP TABLE "project_market_0027" AS
SELECT pr."id" AS project_id,
       coalesce((SELECT min(m.market) FROM "prompt_market_0027" m WHERE m.project_id = pr."id" HAVING count(DISTINCT m.market) = 1),
                market_code(pr."location", pr."language")) AS market,
       (SELECT count(DISTINCT m.market) FROM "prompt_market_0027" m WHERE m.project_id = pr."id") > 1 AS mixed
  FROM "projects" pr;
--> statement-breakpoint
ALTER TABLE "responses" ADD COLUMN "market" text DEFAULT 'US-en' NOT NULL;
--> statement-breakpoint
UPDATE "responses" r SET "market" = m.market FROM "prompt_market_0027" m WHERE m.prompt_id = r."prompt_id" AND m.market <> 'US-en';
--> statement-breakpoint
ALTER TABLE "responses" ALTER COLUMN "market" DROP DEFAULT;
--> statement-breakpoint
DROP INDEX "responses_prompt_provider_day_sample_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "responses_prompt_provider_day_sample_key" ON "responses" USING btree ("prompt_id","provider","day","sample","market");
--> statement-breakpoint
ALTER TABLE "credit_holds" ADD COLUMN "market" text DEFAULT 'US-en' NOT NULL;
--> statement-breakpoint
UPDATE "credit_holds" h SET "market" = m.market FROM "prompt_market_0027" m WHERE m.prompt_id = h."prompt_id" AND m.market <> 'US-en';
--> statement-breakpoint
ALTER TABLE "credit_holds" ALTER COLUMN "market" DROP DEFAULT;
--> statement-breakpoint
DROP INDEX "credit_holds_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "credit_holds_key" ON "credit_holds" USING btree ("prompt_id","provider","day","sample","market");
--> statement-breakpoint
ALTER TABLE "prompt_daily" ADD COLUMN "market" text DEFAULT 'US-en' NOT NULL;
--> statement-breakpoint
UPDATE "prompt_daily" r SET "market" = m.market FROM "prompt_market_0027" m WHERE m.prompt_id = r."prompt_id" AND m.market <> 'US-en';
--> statement-breakpoint
ALTER TABLE "prompt_daily" ALTER COLUMN "market" DROP DEFAULT;
--> statement-breakpoint
DROP INDEX "prompt_daily_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "prompt_daily_key" ON "prompt_daily" USING btree ("prompt_id","provider","day","market");
--> statement-breakpoint
ALTER TABLE "prompt_weekly" ADD COLUMN "market" text DEFAULT 'US-en' NOT NULL;
--> statement-breakpoint
UPDATE "prompt_weekly" r SET "market" = m.market FROM "prompt_market_0027" m WHERE m.prompt_id = r."prompt_id" AND m.market <> 'US-en';
--> statement-breakpoint
ALTER TABLE "prompt_weekly" ALTER COLUMN "market" DROP DEFAULT;
--> statement-breakpoint
DROP INDEX "prompt_weekly_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "prompt_weekly_key" ON "prompt_weekly" USING btree ("prompt_id","provider","week","market");
--> statement-breakpoint
ALTER TABLE "prompt_monthly" ADD COLUMN "market" text DEFAULT 'US-en' NOT NULL;
--> statement-breakpoint
UPDATE "prompt_monthly" r SET "market" = m.market FROM "prompt_market_0027" m WHERE m.prompt_id = r."prompt_id" AND m.market <> 'US-en';
--> statement-breakpoint
ALTER TABLE "prompt_monthly" ALTER COLUMN "market" DROP DEFAULT;
--> statement-breakpoint
DROP INDEX "prompt_monthly_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "prompt_monthly_key" ON "prompt_monthly" USING btree ("prompt_id","provider","month","market");
--> statement-breakpoint
ALTER TABLE "prompt_domain_monthly" ADD COLUMN "market" text DEFAULT 'US-en' NOT NULL;
--> statement-breakpoint
UPDATE "prompt_domain_monthly" r SET "market" = m.market FROM "prompt_market_0027" m WHERE m.prompt_id = r."prompt_id" AND m.market <> 'US-en';
--> statement-breakpoint
ALTER TABLE "prompt_domain_monthly" ALTER COLUMN "market" DROP DEFAULT;
--> statement-breakpoint
DROP INDEX "prompt_domain_monthly_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "prompt_domain_monthly_key" ON "prompt_domain_monthly" USING btree ("prompt_id","provider","month","domain","market");
--> statement-breakpoint
ALTER TABLE "theme_daily" ADD COLUMN "market" text DEFAULT 'US-en' NOT NULL;
--> statement-breakpoint
UPDATE "theme_daily" r SET "market" = m.market FROM "prompt_market_0027" m WHERE m.prompt_id = r."prompt_id" AND m.market <> 'US-en';
--> statement-breakpoint
ALTER TABLE "theme_daily" ALTER COLUMN "market" DROP DEFAULT;
--> statement-breakpoint
DROP INDEX "theme_daily_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "theme_daily_key" ON "theme_daily" USING btree ("prompt_id","brand_id","theme","day","market");
--> statement-breakpoint
ALTER TABLE "project_daily" ADD COLUMN "market" text DEFAULT 'US-en' NOT NULL;
--> statement-breakpoint
UPDATE "project_daily" r SET "market" = m.market FROM "project_market_0027" m WHERE m.project_id = r."project_id" AND m.market <> 'US-en';
--> statement-breakpoint
ALTER TABLE "project_daily" ALTER COLUMN "market" DROP DEFAULT;
--> statement-breakpoint
DROP INDEX "project_daily_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "project_daily_key" ON "project_daily" USING btree ("project_id","provider","day","market");
--> statement-breakpoint
ALTER TABLE "project_weekly" ADD COLUMN "market" text DEFAULT 'US-en' NOT NULL;
--> statement-breakpoint
UPDATE "project_weekly" r SET "market" = m.market FROM "project_market_0027" m WHERE m.project_id = r."project_id" AND m.market <> 'US-en';
--> statement-breakpoint
ALTER TABLE "project_weekly" ALTER COLUMN "market" DROP DEFAULT;
--> statement-breakpoint
DROP INDEX "project_weekly_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "project_weekly_key" ON "project_weekly" USING btree ("project_id","provider","week","market");
--> statement-breakpoint
ALTER TABLE "project_monthly" ADD COLUMN "market" text DEFAULT 'US-en' NOT NULL;
--> statement-breakpoint
UPDATE "project_monthly" r SET "market" = m.market FROM "project_market_0027" m WHERE m.project_id = r."project_id" AND m.market <> 'US-en';
--> statement-breakpoint
ALTER TABLE "project_monthly" ALTER COLUMN "market" DROP DEFAULT;
--> statement-breakpoint
DROP INDEX "project_monthly_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "project_monthly_key" ON "project_monthly" USING btree ("project_id","provider","month","market");
--> statement-breakpoint
ALTER TABLE "project_domain_daily" ADD COLUMN "market" text DEFAULT 'US-en' NOT NULL;
--> statement-breakpoint
UPDATE "project_domain_daily" r SET "market" = m.market FROM "project_market_0027" m WHERE m.project_id = r."project_id" AND m.market <> 'US-en';
--> statement-breakpoint
ALTER TABLE "project_domain_daily" ALTER COLUMN "market" DROP DEFAULT;
--> statement-breakpoint
DROP INDEX "project_domain_daily_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "project_domain_daily_key" ON "project_domain_daily" USING btree ("project_id","provider","day","market");
--> statement-breakpoint
ALTER TABLE "project_theme_daily" ADD COLUMN "market" text DEFAULT 'US-en' NOT NULL;
--> statement-breakpoint
UPDATE "project_theme_daily" r SET "market" = m.market FROM "project_market_0027" m WHERE m.project_id = r."project_id" AND m.market <> 'US-en';
--> statement-breakpoint
ALTER TABLE "project_theme_daily" ALTER COLUMN "market" DROP DEFAULT;
--> statement-breakpoint
DROP INDEX "project_theme_daily_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "project_theme_daily_key" ON "project_theme_daily" USING btree ("project_id","brand_id","day","theme","market");
--> statement-breakpoint
-- A project whose prompts were asked in more than one market has project rollups that
-- mix them: they are rebuilt from its answers by a re-analysis, sent at the next start
-- (src/runtime.ts) for every project listed here.
CREATE TABLE "rollup_rebuilds" (
	"project_id" uuid PRIMARY KEY NOT NULL REFERENCES "projects"("id") ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO "rollup_rebuilds" ("project_id") SELECT project_id FROM "project_market_0027" WHERE mixed;
--> statement-breakpoint
DROP TABLE "prompt_market_0027";
--> statement-breakpoint
DROP TABLE "project_market_0027";
