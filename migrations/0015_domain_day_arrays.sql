-- Issue 16: the domain rollup (project_domain_daily, one row per project, provider, day and
-- cited domain: 13,505 rows for a year's window of 100 prompts) becomes one row per project,
-- provider and day holding five ints per domain by domain number ascending (number,
-- category, citations, responses, citations_unmentioned) as decimal text ('3,0,12,9,4,...':
-- read as stored, where an int[] is converted int by int), the numbers given by a
-- per-project dictionary (project_domains). Existing rows are carried over as they are: the
-- domains are numbered per project by the first day they were cited, then by name.
CREATE TABLE "project_domains" (
	"project_id" uuid NOT NULL,
	"no" integer NOT NULL,
	"domain" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "project_domains" ADD CONSTRAINT "project_domains_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "project_domains_key" ON "project_domains" USING btree ("project_id","domain");--> statement-breakpoint
CREATE UNIQUE INDEX "project_domains_no_key" ON "project_domains" USING btree ("project_id","no");--> statement-breakpoint
-- Adds two days' domains (of any lengths, each sorted by domain number): per domain the
-- lowest category and the sums of the rest; a domain whose citations fall to 0 or below (a
-- prompt's answers taken out) is left out.
CREATE FUNCTION "domain_sums_add"(a text, b text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(f.v::text, ',' ORDER BY e.k, f.j), '')
    FROM (SELECT x[i] AS k, min(x[i + 1]) AS c, sum(x[i + 2])::int AS n, sum(x[i + 3])::int AS r, sum(x[i + 4])::int AS u
            FROM (VALUES (string_to_array(a, ',')::int[]), (string_to_array(b, ',')::int[])) AS t(x)
                 CROSS JOIN LATERAL generate_series(1, coalesce(array_length(x, 1), 0), 5) AS i
           GROUP BY x[i] HAVING sum(x[i + 2]) > 0) e
         CROSS JOIN LATERAL unnest(ARRAY[e.k, e.c, e.n, e.r, e.u]) WITH ORDINALITY AS f(v, j)
$$;--> statement-breakpoint
ALTER TABLE "project_domain_daily" RENAME TO "project_domain_rows";--> statement-breakpoint
ALTER INDEX "project_domain_daily_key" RENAME TO "project_domain_rows_key";--> statement-breakpoint
ALTER TABLE "project_domain_rows" DROP CONSTRAINT "project_domain_daily_project_id_projects_id_fk";--> statement-breakpoint
CREATE TABLE "project_domain_daily" (
	"project_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"day" date NOT NULL,
	"domains" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "project_domain_daily" ADD CONSTRAINT "project_domain_daily_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "project_domains" ("project_id", "no", "domain")
  SELECT "project_id", row_number() OVER (PARTITION BY "project_id" ORDER BY min("day"), "domain"), "domain"
    FROM "project_domain_rows" GROUP BY "project_id", "domain";--> statement-breakpoint
INSERT INTO "project_domain_daily" ("project_id", "provider", "day", "domains")
  SELECT o."project_id", o."provider", o."day", string_agg(f.v::text, ',' ORDER BY d."no", f.j)
    FROM "project_domain_rows" o
         JOIN "project_domains" d ON d."project_id" = o."project_id" AND d."domain" = o."domain"
         CROSS JOIN LATERAL unnest(ARRAY[d."no", o."category", o."citations", o."responses", o."citations_unmentioned"]) WITH ORDINALITY AS f(v, j)
   GROUP BY o."project_id", o."provider", o."day";--> statement-breakpoint
CREATE UNIQUE INDEX "project_domain_daily_key" ON "project_domain_daily" USING btree ("project_id","provider","day");--> statement-breakpoint
DROP TABLE "project_domain_rows";
