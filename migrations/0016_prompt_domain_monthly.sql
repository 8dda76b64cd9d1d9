-- Issue 16: the domains a prompt's answers cite, per provider and month, so the prompt's
-- domains endpoint reads the window's whole months from here and only the days around them
-- from the answers (src/modules/analytics/prompt-citations.ts). Filled from the answers
-- stored before the keys and index are made.
CREATE TABLE "prompt_domain_monthly" (
	"project_id" uuid NOT NULL,
	"prompt_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"month" date NOT NULL,
	"domain" text NOT NULL,
	"category" smallint NOT NULL,
	"citations" integer NOT NULL,
	"responses" integer NOT NULL,
	"mentioned" integer NOT NULL,
	"brands" integer NOT NULL
);
--> statement-breakpoint
-- The answers already stored, counted as addToRollups counts them: per prompt, provider, month
-- and domain, the citations, the answers citing it (and those of them naming the own brand),
-- the lowest category, and a bit per brand number (< 31) the citing answers name.
INSERT INTO "prompt_domain_monthly" ("project_id", "prompt_id", "provider", "month", "domain", "category", "citations", "responses", "mentioned", "brands")
SELECT r."project_id", r."prompt_id", r."provider", date_trunc('month', r."day"::timestamp)::date, p."domain", min(p."category"),
       count(*)::int, count(DISTINCT r."id")::int, (count(DISTINCT r."id") FILTER (WHERE r."mentioned"))::int, coalesce(bit_or(b.mask), 0)
  FROM "responses" r
       CROSS JOIN LATERAL (
         SELECT bit_or(1 << n.no) AS mask
           FROM unnest(r."brand_ids") AS u(id)
                JOIN (SELECT '00000000-0000-0000-0000-000000000000'::uuid AS id, 0 AS no
                      UNION ALL
                      SELECT c."id", c."brand_no" FROM "competitors" c WHERE c."project_id" = r."project_id" AND NOT c."is_own_brand") n ON n.id = u.id
          WHERE n.no < 31) b
       CROSS JOIN unnest(r."cited") AS k(id)
       JOIN "cited_pages" p ON p."id" = k.id
 GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
ALTER TABLE "prompt_domain_monthly" ADD CONSTRAINT "prompt_domain_monthly_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "prompt_domain_monthly" ADD CONSTRAINT "prompt_domain_monthly_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "prompt_domain_monthly_key" ON "prompt_domain_monthly" USING btree ("prompt_id","provider","month","domain");
