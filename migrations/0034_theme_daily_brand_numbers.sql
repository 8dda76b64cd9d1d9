-- Issue 31: storage per answer. theme_daily named the brand of each entry by its id
-- (`brand_ids[i]`, 16 bytes an entry, about 19 entries a row at a year of the bench: more than
-- half the row). Each entry now names it by its number (competitors.brand_no, the own brand 0,
-- never reused in a project): `counts[i]` is {brand number, theme number, positive, neutral,
-- negative}, entries in (brand number, theme number) order. An entry of a brand with no
-- number (a competitor deleted, whose re-analysis is queued) is left out: nothing shows it.
UPDATE "theme_daily" t SET "counts" = coalesce((
  SELECT array_agg(ARRAY[e.no, t."counts"[e.i][1], t."counts"[e.i][2], t."counts"[e.i][3], t."counts"[e.i][4]]::smallint[] ORDER BY e.no, t."counts"[e.i][1])
    FROM (SELECT i, CASE WHEN t."brand_ids"[i] = '00000000-0000-0000-0000-000000000000'::uuid THEN 0
                         ELSE (SELECT c."brand_no" FROM "competitors" c
                                WHERE c."id" = t."brand_ids"[i] AND c."project_id" = t."project_id" AND NOT c."is_own_brand") END AS no
            FROM generate_subscripts(t."brand_ids", 1) AS i) e
   WHERE e.no IS NOT NULL), '{}');
--> statement-breakpoint
DELETE FROM "theme_daily" WHERE cardinality("counts") = 0;
--> statement-breakpoint
ALTER TABLE "theme_daily" DROP COLUMN "brand_ids";
