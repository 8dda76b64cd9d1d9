-- Issue 16: the project × brand rollup (project_brand_daily, one row per provider, day and
-- brand named, UUID keys: 11 rows a day for 11 brands) becomes six int arrays on the
-- project_daily row, indexed by brand number as the prompt rollups' arrays are (migration
-- 0012: 0 = the own brand, then competitors.brand_no). The visibility trend and the
-- competitor figures then read one row per day. The arrays are filled from the old rows
-- before those are dropped.
ALTER TABLE "project_daily" ADD COLUMN "brand_mentions" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "project_daily" ADD COLUMN "brand_counts" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "project_daily" ADD COLUMN "brand_position_sums" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "project_daily" ADD COLUMN "brand_sentiment_sums" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "project_daily" ADD COLUMN "brand_position_sq" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "project_daily" ADD COLUMN "brand_sentiment_sq" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
-- A store migrated with answers in it: each project row's arrays from its brand rows. A brand
-- row of a competitor deleted since is left out (every read skipped it: no brand to show).
UPDATE "project_daily" d SET "brand_mentions" = a.mn, "brand_counts" = a.mc, "brand_position_sums" = a.ps,
       "brand_sentiment_sums" = a.ss, "brand_position_sq" = a.pq, "brand_sentiment_sq" = a.sq
  FROM (SELECT k."project_id", k."provider", k."day",
               array_agg(coalesce(b."mentions", 0) ORDER BY g) AS mn, array_agg(coalesce(b."mention_count", 0) ORDER BY g) AS mc,
               array_agg(coalesce(b."position_sum", 0) ORDER BY g) AS ps, array_agg(coalesce(b."sentiment_sum", 0) ORDER BY g) AS ss,
               array_agg(coalesce(b."position_sq", 0) ORDER BY g) AS pq, array_agg(coalesce(b."sentiment_sq", 0) ORDER BY g) AS sq
          FROM (SELECT b."project_id", b."provider", b."day", max(coalesce(c."brand_no", 0)) AS top
                  FROM "project_brand_daily" b LEFT JOIN "competitors" c ON c."id" = b."brand_id" AND NOT c."is_own_brand"
                 WHERE c."id" IS NOT NULL OR b."brand_id" = '00000000-0000-0000-0000-000000000000' GROUP BY 1, 2, 3) k
               CROSS JOIN LATERAL generate_series(0, k.top) AS g
               LEFT JOIN "competitors" c ON c."project_id" = k."project_id" AND c."brand_no" = g AND g > 0 AND NOT c."is_own_brand"
               LEFT JOIN "project_brand_daily" b ON b."project_id" = k."project_id" AND b."provider" = k."provider" AND b."day" = k."day"
                    AND b."brand_id" = CASE WHEN g = 0 THEN '00000000-0000-0000-0000-000000000000'::uuid ELSE c."id" END
         GROUP BY 1, 2, 3) a
 WHERE d."project_id" = a."project_id" AND d."provider" = a."provider" AND d."day" = a."day";--> statement-breakpoint
DROP TABLE "project_brand_daily" CASCADE;
