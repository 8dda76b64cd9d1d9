-- Issue 16: project_daily summed per week (Monday, UTC) and month (the 1st), so a window's
-- brand sums (the competitor figures, signals) read its whole months and weeks and only the
-- days around them from project_daily: a year is about 20 rows per provider instead of 365.
-- brand_days holds, per brand number, a bit per day of the bucket on which the brand was
-- named (bit 0 = the bucket's first day): the days a brand was named on by any of several
-- providers are their masks OR'd, which sums of per-provider day counts could not give.
-- brand_bits_or: per brand number, a | b (the arrays' lengths may differ: a missing value is 0).
CREATE FUNCTION "brand_bits_or"(a int[], b int[]) RETURNS int[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  n int := greatest(coalesce(array_length(a, 1), 0), coalesce(array_length(b, 1), 0));
  r int[] := array_fill(0, ARRAY[n]);
BEGIN
  FOR i IN 1..n LOOP
    r[i] := coalesce(a[i], 0) | coalesce(b[i], 0);
  END LOOP;
  RETURN r;
END $$;
--> statement-breakpoint
-- The per-brand arrays of many rows added up, and their day masks OR'd (the buckets made from project_daily).
CREATE AGGREGATE "brand_sums_agg"(int[]) (SFUNC = "brand_sums_add", STYPE = int[], INITCOND = '{}');
--> statement-breakpoint
CREATE AGGREGATE "brand_bits_agg"(int[]) (SFUNC = "brand_bits_or", STYPE = int[], INITCOND = '{}');
--> statement-breakpoint
CREATE TABLE "project_weekly" (
	"project_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"week" date NOT NULL,
	"responses" integer NOT NULL,
	"mentioned" integer NOT NULL,
	"position_sum" integer NOT NULL,
	"sentiment_sum" integer NOT NULL,
	"cites_own" integer NOT NULL,
	"citations" integer NOT NULL,
	"position_sq" integer DEFAULT 0 NOT NULL,
	"sentiment_sq" integer DEFAULT 0 NOT NULL,
	"brand_mentions" integer[] DEFAULT '{}'::int[] NOT NULL,
	"brand_counts" integer[] DEFAULT '{}'::int[] NOT NULL,
	"brand_position_sums" integer[] DEFAULT '{}'::int[] NOT NULL,
	"brand_sentiment_sums" integer[] DEFAULT '{}'::int[] NOT NULL,
	"brand_position_sq" integer[] DEFAULT '{}'::int[] NOT NULL,
	"brand_sentiment_sq" integer[] DEFAULT '{}'::int[] NOT NULL,
	"brand_days" integer[] DEFAULT '{}'::int[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_monthly" (
	"project_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"month" date NOT NULL,
	"responses" integer NOT NULL,
	"mentioned" integer NOT NULL,
	"position_sum" integer NOT NULL,
	"sentiment_sum" integer NOT NULL,
	"cites_own" integer NOT NULL,
	"citations" integer NOT NULL,
	"position_sq" integer DEFAULT 0 NOT NULL,
	"sentiment_sq" integer DEFAULT 0 NOT NULL,
	"brand_mentions" integer[] DEFAULT '{}'::int[] NOT NULL,
	"brand_counts" integer[] DEFAULT '{}'::int[] NOT NULL,
	"brand_position_sums" integer[] DEFAULT '{}'::int[] NOT NULL,
	"brand_sentiment_sums" integer[] DEFAULT '{}'::int[] NOT NULL,
	"brand_position_sq" integer[] DEFAULT '{}'::int[] NOT NULL,
	"brand_sentiment_sq" integer[] DEFAULT '{}'::int[] NOT NULL,
	"brand_days" integer[] DEFAULT '{}'::int[] NOT NULL
);
--> statement-breakpoint
-- A store with answers: the buckets from project_daily, as src/modules/answers/project-buckets.ts rebuilds them
-- (the same sums and day bits the write path adds up answer by answer).
INSERT INTO "project_weekly" ("project_id", "provider", "week", "responses", "mentioned", "position_sum", "sentiment_sum", "cites_own", "citations", "position_sq", "sentiment_sq", "brand_mentions", "brand_counts", "brand_position_sums", "brand_sentiment_sums", "brand_position_sq", "brand_sentiment_sq", "brand_days")
SELECT d."project_id", d."provider", date_trunc('week', d."day"::timestamp)::date, sum(d."responses")::int, sum(d."mentioned")::int, sum(d."position_sum")::int, sum(d."sentiment_sum")::int, sum(d."cites_own")::int, sum(d."citations")::int, sum(d."position_sq")::int, sum(d."sentiment_sq")::int,
       "brand_sums_agg"(d."brand_mentions"), "brand_sums_agg"(d."brand_counts"), "brand_sums_agg"(d."brand_position_sums"), "brand_sums_agg"(d."brand_sentiment_sums"), "brand_sums_agg"(d."brand_position_sq"), "brand_sums_agg"(d."brand_sentiment_sq"), "brand_bits_agg"(b.days)
  FROM "project_daily" d
       CROSS JOIN LATERAL (SELECT coalesce(array_agg(CASE WHEN u.mn > 0 THEN 1 << (d."day" - date_trunc('week', d."day"::timestamp)::date) ELSE 0 END ORDER BY u.i), '{}') AS days
                             FROM unnest(d."brand_mentions") WITH ORDINALITY AS u(mn, i)) b
 GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "project_monthly" ("project_id", "provider", "month", "responses", "mentioned", "position_sum", "sentiment_sum", "cites_own", "citations", "position_sq", "sentiment_sq", "brand_mentions", "brand_counts", "brand_position_sums", "brand_sentiment_sums", "brand_position_sq", "brand_sentiment_sq", "brand_days")
SELECT d."project_id", d."provider", date_trunc('month', d."day"::timestamp)::date, sum(d."responses")::int, sum(d."mentioned")::int, sum(d."position_sum")::int, sum(d."sentiment_sum")::int, sum(d."cites_own")::int, sum(d."citations")::int, sum(d."position_sq")::int, sum(d."sentiment_sq")::int,
       "brand_sums_agg"(d."brand_mentions"), "brand_sums_agg"(d."brand_counts"), "brand_sums_agg"(d."brand_position_sums"), "brand_sums_agg"(d."brand_sentiment_sums"), "brand_sums_agg"(d."brand_position_sq"), "brand_sums_agg"(d."brand_sentiment_sq"), "brand_bits_agg"(b.days)
  FROM "project_daily" d
       CROSS JOIN LATERAL (SELECT coalesce(array_agg(CASE WHEN u.mn > 0 THEN 1 << (d."day" - date_trunc('month', d."day"::timestamp)::date) ELSE 0 END ORDER BY u.i), '{}') AS days
                             FROM unnest(d."brand_mentions") WITH ORDINALITY AS u(mn, i)) b
 GROUP BY 1, 2, 3;
--> statement-breakpoint
ALTER TABLE "project_weekly" ADD CONSTRAINT "project_weekly_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "project_weekly_key" ON "project_weekly" USING btree ("project_id","provider","week");--> statement-breakpoint
ALTER TABLE "project_monthly" ADD CONSTRAINT "project_monthly_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "project_monthly_key" ON "project_monthly" USING btree ("project_id","provider","month");