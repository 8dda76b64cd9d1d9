ALTER TABLE "project_brand_daily" ADD COLUMN "position_sq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "project_brand_daily" ADD COLUMN "sentiment_sq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "project_daily" ADD COLUMN "position_sq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "project_daily" ADD COLUMN "sentiment_sq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_brand_daily" ADD COLUMN "position_sq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_brand_daily" ADD COLUMN "sentiment_sq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_brand_monthly" ADD COLUMN "position_sq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_brand_monthly" ADD COLUMN "sentiment_sq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_brand_weekly" ADD COLUMN "position_sq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_brand_weekly" ADD COLUMN "sentiment_sq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_daily" ADD COLUMN "position_sq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_daily" ADD COLUMN "sentiment_sq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_monthly" ADD COLUMN "position_sq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_monthly" ADD COLUMN "sentiment_sq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_weekly" ADD COLUMN "position_sq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_weekly" ADD COLUMN "sentiment_sq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A store migrated with answers already in it: the sums of squares from the stored answers
-- (as addToRollups adds them: position and sentiment of mentioning responses, a missing
-- position as 0), for the provider rows and the '*' rows; then the weekly, monthly and
-- project rows from the daily prompt rows, so every rollup invariant holds at once.
UPDATE "prompt_daily" d SET "position_sq" = x.pq, "sentiment_sq" = x.sq
  FROM (SELECT r."prompt_id", v.provider, r."day", sum(coalesce(r."position", 0) ^ 2)::int AS pq, sum(coalesce(r."sentiment", 0) ^ 2)::int AS sq
          FROM "responses" r CROSS JOIN LATERAL (VALUES (r."provider"), ('*')) AS v(provider)
         WHERE r."mentioned" GROUP BY 1, 2, 3) x
 WHERE d."prompt_id" = x."prompt_id" AND d."provider" = x.provider AND d."day" = x."day";--> statement-breakpoint
UPDATE "prompt_brand_daily" d SET "position_sq" = x.pq, "sentiment_sq" = x.sq
  FROM (SELECT r."prompt_id", v.provider, r."day", b.key::uuid AS brand_id,
               sum(((b.value->>'position')::int) ^ 2)::int AS pq, sum(((b.value->>'sentiment')::int) ^ 2)::int AS sq
          FROM "responses" r CROSS JOIN LATERAL jsonb_each(r."brands") AS b
               CROSS JOIN LATERAL (VALUES (r."provider"), ('*')) AS v(provider)
         GROUP BY 1, 2, 3, 4) x
 WHERE d."prompt_id" = x."prompt_id" AND d."provider" = x.provider AND d."day" = x."day" AND d."brand_id" = x.brand_id;--> statement-breakpoint
UPDATE "prompt_weekly" d SET "position_sq" = x.pq, "sentiment_sq" = x.sq
  FROM (SELECT "prompt_id", "provider", date_trunc('week', "day"::timestamp)::date AS week, sum("position_sq")::int AS pq, sum("sentiment_sq")::int AS sq
          FROM "prompt_daily" GROUP BY 1, 2, 3) x
 WHERE d."prompt_id" = x."prompt_id" AND d."provider" = x."provider" AND d."week" = x.week;--> statement-breakpoint
UPDATE "prompt_monthly" d SET "position_sq" = x.pq, "sentiment_sq" = x.sq
  FROM (SELECT "prompt_id", "provider", date_trunc('month', "day"::timestamp)::date AS month, sum("position_sq")::int AS pq, sum("sentiment_sq")::int AS sq
          FROM "prompt_daily" GROUP BY 1, 2, 3) x
 WHERE d."prompt_id" = x."prompt_id" AND d."provider" = x."provider" AND d."month" = x.month;--> statement-breakpoint
UPDATE "project_daily" d SET "position_sq" = x.pq, "sentiment_sq" = x.sq
  FROM (SELECT "project_id", "provider", "day", sum("position_sq")::int AS pq, sum("sentiment_sq")::int AS sq
          FROM "prompt_daily" GROUP BY 1, 2, 3) x
 WHERE d."project_id" = x."project_id" AND d."provider" = x."provider" AND d."day" = x."day";--> statement-breakpoint
UPDATE "prompt_brand_weekly" d SET "position_sq" = x.pq, "sentiment_sq" = x.sq
  FROM (SELECT "prompt_id", "provider", date_trunc('week', "day"::timestamp)::date AS week, "brand_id", sum("position_sq")::int AS pq, sum("sentiment_sq")::int AS sq
          FROM "prompt_brand_daily" GROUP BY 1, 2, 3, 4) x
 WHERE d."prompt_id" = x."prompt_id" AND d."provider" = x."provider" AND d."week" = x.week AND d."brand_id" = x."brand_id";--> statement-breakpoint
UPDATE "prompt_brand_monthly" d SET "position_sq" = x.pq, "sentiment_sq" = x.sq
  FROM (SELECT "prompt_id", "provider", date_trunc('month', "day"::timestamp)::date AS month, "brand_id", sum("position_sq")::int AS pq, sum("sentiment_sq")::int AS sq
          FROM "prompt_brand_daily" GROUP BY 1, 2, 3, 4) x
 WHERE d."prompt_id" = x."prompt_id" AND d."provider" = x."provider" AND d."month" = x.month AND d."brand_id" = x."brand_id";--> statement-breakpoint
UPDATE "project_brand_daily" d SET "position_sq" = x.pq, "sentiment_sq" = x.sq
  FROM (SELECT "project_id", "provider", "day", "brand_id", sum("position_sq")::int AS pq, sum("sentiment_sq")::int AS sq
          FROM "prompt_brand_daily" GROUP BY 1, 2, 3, 4) x
 WHERE d."project_id" = x."project_id" AND d."provider" = x."provider" AND d."day" = x."day" AND d."brand_id" = x."brand_id";
