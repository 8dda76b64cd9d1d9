-- Issue 16: the prompt × brand rollups (prompt_brand_daily/weekly/monthly, one row per brand
-- named, UUID keys: 2 KB per answer) become two int arrays on the prompt rollup rows, indexed
-- by a per-project brand number (0 = the own brand, competitors numbered 1, 2, ... on insert
-- and never reused). The arrays are filled from the old rows before those are dropped.
ALTER TABLE "projects" ADD COLUMN "brand_seq" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "competitors" ADD COLUMN "brand_no" smallint;--> statement-breakpoint
UPDATE "competitors" c SET "brand_no" = n.no
  FROM (SELECT "id", row_number() OVER (PARTITION BY "project_id" ORDER BY "created_at", "id") AS no FROM "competitors") n
 WHERE c."id" = n."id";--> statement-breakpoint
UPDATE "projects" p SET "brand_seq" = x.top
  FROM (SELECT "project_id", max("brand_no") AS top FROM "competitors" GROUP BY 1) x
 WHERE p."id" = x."project_id";--> statement-breakpoint
ALTER TABLE "competitors" ALTER COLUMN "brand_no" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "competitors_project_brand_no_key" ON "competitors" USING btree ("project_id","brand_no");--> statement-breakpoint
CREATE FUNCTION "number_brand"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "projects" SET "brand_seq" = "brand_seq" + 1 WHERE "id" = NEW."project_id" RETURNING "brand_seq" INTO NEW."brand_no";
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "competitors_brand_no" BEFORE INSERT ON "competitors" FOR EACH ROW EXECUTE FUNCTION "number_brand"();--> statement-breakpoint
-- Element-wise sum of two per-brand arrays (of any lengths): how an upsert adds a batch's sums.
CREATE FUNCTION "brand_sums_add"(a int[], b int[]) RETURNS int[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(coalesce(a[i], 0) + coalesce(b[i], 0) ORDER BY i), '{}'::int[])
    FROM generate_series(1, greatest(coalesce(array_length(a, 1), 0), coalesce(array_length(b, 1), 0))) AS i
$$;--> statement-breakpoint
ALTER TABLE "prompt_daily" ADD COLUMN "brand_mentions" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_daily" ADD COLUMN "brand_counts" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_weekly" ADD COLUMN "brand_mentions" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_weekly" ADD COLUMN "brand_counts" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_monthly" ADD COLUMN "brand_mentions" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_monthly" ADD COLUMN "brand_counts" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
-- A store migrated with answers in it: each prompt row's arrays from its brand rows. A brand
-- row of a competitor deleted since is left out (every read skipped it: no brand to show).
UPDATE "prompt_daily" d SET "brand_mentions" = a.mn, "brand_counts" = a.mc
  FROM (SELECT k."prompt_id", k."provider", k."day", array_agg(coalesce(b."mentions", 0) ORDER BY g) AS mn, array_agg(coalesce(b."mention_count", 0) ORDER BY g) AS mc
          FROM (SELECT b."prompt_id", b."provider", b."day", max(coalesce(c."brand_no", 0)) AS top
                  FROM "prompt_brand_daily" b LEFT JOIN "competitors" c ON c."id" = b."brand_id"
                 WHERE c."id" IS NOT NULL OR b."brand_id" = '00000000-0000-0000-0000-000000000000' GROUP BY 1, 2, 3) k
               CROSS JOIN LATERAL generate_series(0, k.top) AS g
               LEFT JOIN "competitors" c ON c."project_id" = (SELECT "project_id" FROM "prompts" WHERE "id" = k."prompt_id") AND c."brand_no" = g AND g > 0
               LEFT JOIN "prompt_brand_daily" b ON b."prompt_id" = k."prompt_id" AND b."provider" = k."provider" AND b."day" = k."day"
                    AND b."brand_id" = CASE WHEN g = 0 THEN '00000000-0000-0000-0000-000000000000'::uuid ELSE c."id" END
         GROUP BY 1, 2, 3) a
 WHERE d."prompt_id" = a."prompt_id" AND d."provider" = a."provider" AND d."day" = a."day";--> statement-breakpoint
UPDATE "prompt_weekly" d SET "brand_mentions" = a.mn, "brand_counts" = a.mc
  FROM (SELECT k."prompt_id", k."provider", k."week", array_agg(coalesce(b."mentions", 0) ORDER BY g) AS mn, array_agg(coalesce(b."mention_count", 0) ORDER BY g) AS mc
          FROM (SELECT b."prompt_id", b."provider", b."week", max(coalesce(c."brand_no", 0)) AS top
                  FROM "prompt_brand_weekly" b LEFT JOIN "competitors" c ON c."id" = b."brand_id"
                 WHERE c."id" IS NOT NULL OR b."brand_id" = '00000000-0000-0000-0000-000000000000' GROUP BY 1, 2, 3) k
               CROSS JOIN LATERAL generate_series(0, k.top) AS g
               LEFT JOIN "competitors" c ON c."project_id" = (SELECT "project_id" FROM "prompts" WHERE "id" = k."prompt_id") AND c."brand_no" = g AND g > 0
               LEFT JOIN "prompt_brand_weekly" b ON b."prompt_id" = k."prompt_id" AND b."provider" = k."provider" AND b."week" = k."week"
                    AND b."brand_id" = CASE WHEN g = 0 THEN '00000000-0000-0000-0000-000000000000'::uuid ELSE c."id" END
         GROUP BY 1, 2, 3) a
 WHERE d."prompt_id" = a."prompt_id" AND d."provider" = a."provider" AND d."week" = a."week";--> statement-breakpoint
UPDATE "prompt_monthly" d SET "brand_mentions" = a.mn, "brand_counts" = a.mc
  FROM (SELECT k."prompt_id", k."provider", k."month", array_agg(coalesce(b."mentions", 0) ORDER BY g) AS mn, array_agg(coalesce(b."mention_count", 0) ORDER BY g) AS mc
          FROM (SELECT b."prompt_id", b."provider", b."month", max(coalesce(c."brand_no", 0)) AS top
                  FROM "prompt_brand_monthly" b LEFT JOIN "competitors" c ON c."id" = b."brand_id"
                 WHERE c."id" IS NOT NULL OR b."brand_id" = '00000000-0000-0000-0000-000000000000' GROUP BY 1, 2, 3) k
               CROSS JOIN LATERAL generate_series(0, k.top) AS g
               LEFT JOIN "competitors" c ON c."project_id" = (SELECT "project_id" FROM "prompts" WHERE "id" = k."prompt_id") AND c."brand_no" = g AND g > 0
               LEFT JOIN "prompt_brand_monthly" b ON b."prompt_id" = k."prompt_id" AND b."provider" = k."provider" AND b."month" = k."month"
                    AND b."brand_id" = CASE WHEN g = 0 THEN '00000000-0000-0000-0000-000000000000'::uuid ELSE c."id" END
         GROUP BY 1, 2, 3) a
 WHERE d."prompt_id" = a."prompt_id" AND d."provider" = a."provider" AND d."month" = a."month";--> statement-breakpoint
DROP TABLE "prompt_brand_daily" CASCADE;--> statement-breakpoint
DROP TABLE "prompt_brand_weekly" CASCADE;--> statement-breakpoint
DROP TABLE "prompt_brand_monthly" CASCADE;
