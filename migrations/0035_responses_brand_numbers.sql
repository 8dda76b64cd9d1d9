-- Issue 31: storage per answer. An answer named the brands it names by id (`brand_ids
-- uuid[]`, 16 bytes a brand) with their position, count and sentiment as `brand_stats int[]`
-- (12 bytes a brand). It now names them by number (`brand_nos smallint[]`: competitors.brand_no,
-- the own brand 0, never reused in a project, as every rollup numbers them) and keeps the
-- three figures as smallint (position a rank, sentiment 0..100, count clamped by the writer).
-- A brand with no number (a competitor deleted, whose re-analysis is queued) is left out, as
-- the rollups leave it out.
ALTER TABLE "responses" ADD COLUMN "brand_nos" smallint[] DEFAULT '{}'::smallint[] NOT NULL;
--> statement-breakpoint
ALTER TABLE "responses" ADD COLUMN "brand_figures" smallint[] DEFAULT '{}'::smallint[] NOT NULL;
--> statement-breakpoint
UPDATE "responses" r SET
  "brand_nos" = coalesce((SELECT array_agg(n.no ORDER BY n.i) FROM (SELECT b.i, CASE WHEN b.id = '00000000-0000-0000-0000-000000000000'::uuid THEN 0
                           ELSE (SELECT c."brand_no" FROM "competitors" c
                                  WHERE c."id" = b.id AND c."project_id" = r."project_id" AND NOT c."is_own_brand") END AS no
            FROM unnest(r."brand_ids") WITH ORDINALITY AS b(id, i)) n WHERE n.no IS NOT NULL), '{}'),
  "brand_figures" = coalesce((
    SELECT array_agg(f.v ORDER BY n.i, f.k)
      FROM (SELECT b.i, CASE WHEN b.id = '00000000-0000-0000-0000-000000000000'::uuid THEN 0
                           ELSE (SELECT c."brand_no" FROM "competitors" c
                                  WHERE c."id" = b.id AND c."project_id" = r."project_id" AND NOT c."is_own_brand") END AS no
            FROM unnest(r."brand_ids") WITH ORDINALITY AS b(id, i)) n
           CROSS JOIN LATERAL (VALUES (1, least(r."brand_stats"[3 * n.i - 2], 32767)::smallint),
                                      (2, least(r."brand_stats"[3 * n.i - 1], 32767)::smallint),
                                      (3, least(r."brand_stats"[3 * n.i], 32767)::smallint)) AS f(k, v)
     WHERE n.no IS NOT NULL), '{}')
 WHERE cardinality(r."brand_ids") > 0;
--> statement-breakpoint
ALTER TABLE "responses" DROP COLUMN "brand_ids";
--> statement-breakpoint
ALTER TABLE "responses" DROP COLUMN "brand_stats";
--> statement-breakpoint
ALTER TABLE "responses" RENAME COLUMN "brand_figures" TO "brand_stats";
