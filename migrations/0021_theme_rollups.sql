-- Issue 30: what the answers say about each brand, by theme (src/modules/themes). Filled as
-- answers are stored and when a project is analysed again; answers stored before this
-- migration have no themes until their project's next re-analysis.
CREATE TABLE "theme_daily" (
	"project_id" uuid NOT NULL,
	"prompt_id" uuid NOT NULL,
	"brand_id" uuid NOT NULL,
	"theme" text NOT NULL,
	"day" date NOT NULL,
	"positive" integer NOT NULL,
	"neutral" integer NOT NULL,
	"negative" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_theme_daily" (
	"project_id" uuid NOT NULL,
	"brand_id" uuid NOT NULL,
	"theme" text NOT NULL,
	"day" date NOT NULL,
	"positive" integer NOT NULL,
	"neutral" integer NOT NULL,
	"negative" integer NOT NULL,
	"examples" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "theme_daily" ADD CONSTRAINT "theme_daily_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "theme_daily" ADD CONSTRAINT "theme_daily_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "project_theme_daily" ADD CONSTRAINT "project_theme_daily_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "theme_daily_key" ON "theme_daily" USING btree ("prompt_id","brand_id","theme","day");
--> statement-breakpoint
CREATE INDEX "theme_daily_project_idx" ON "theme_daily" USING btree ("project_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "project_theme_daily_key" ON "project_theme_daily" USING btree ("project_id","brand_id","day","theme");
