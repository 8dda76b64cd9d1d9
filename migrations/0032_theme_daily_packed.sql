-- Issue 31: storage per answer. theme_daily kept a row per prompt, brand, theme, day and market
-- (3.8 rows and 0.84 KB per answer, half of it index, at ten projects of a year in one
-- database), to be read only when a prompt is deleted (its counts taken out of
-- project_theme_daily). It now keeps one row per prompt, day and market: `brand_ids[i]` is the
-- brand of entry i and `counts[i]` is {theme number, positive, neutral, negative}, the theme
-- number an index into THEMES (src/analysis/themes.ts, whose order is part of this format).
CREATE TABLE "theme_daily_0032" (
	"project_id" uuid NOT NULL,
	"prompt_id" uuid NOT NULL,
	"day" date NOT NULL,
	"market" text NOT NULL,
	"brand_ids" uuid[] NOT NULL,
	"counts" smallint[] NOT NULL
);
--> statement-breakpoint
INSERT INTO "theme_daily_0032" ("project_id", "prompt_id", "day", "market", "brand_ids", "counts")
 SELECT "project_id", "prompt_id", "day", "market", array_agg("brand_id" ORDER BY "brand_id", n), array_agg(ARRAY[n, "positive", "neutral", "negative"]::smallint[] ORDER BY "brand_id", n)
   FROM (SELECT *, array_position(ARRAY['price', 'ease_of_use', 'support', 'features', 'integrations', 'reliability', 'security', 'performance', 'scalability', 'customization'], "theme") - 1 AS n
           FROM "theme_daily") t
  WHERE n IS NOT NULL
  GROUP BY "project_id", "prompt_id", "day", "market";
--> statement-breakpoint
DROP TABLE "theme_daily";
--> statement-breakpoint
ALTER TABLE "theme_daily_0032" RENAME TO "theme_daily";
--> statement-breakpoint
ALTER TABLE "theme_daily" ADD CONSTRAINT "theme_daily_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "theme_daily" ADD CONSTRAINT "theme_daily_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "theme_daily_key" ON "theme_daily" USING btree ("prompt_id","day","market");
--> statement-breakpoint
CREATE INDEX "theme_daily_project_idx" ON "theme_daily" USING btree ("project_id");
