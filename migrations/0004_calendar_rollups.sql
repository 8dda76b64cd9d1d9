CREATE TABLE "prompt_brand_monthly" (
	"project_id" uuid NOT NULL,
	"prompt_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"month" date NOT NULL,
	"brand_id" uuid NOT NULL,
	"mentions" integer NOT NULL,
	"mention_count" integer NOT NULL,
	"position_sum" integer NOT NULL,
	"sentiment_sum" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prompt_brand_weekly" (
	"project_id" uuid NOT NULL,
	"prompt_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"week" date NOT NULL,
	"brand_id" uuid NOT NULL,
	"mentions" integer NOT NULL,
	"mention_count" integer NOT NULL,
	"position_sum" integer NOT NULL,
	"sentiment_sum" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prompt_monthly" (
	"project_id" uuid NOT NULL,
	"prompt_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"month" date NOT NULL,
	"responses" integer NOT NULL,
	"mentioned" integer NOT NULL,
	"position_sum" integer NOT NULL,
	"sentiment_sum" integer NOT NULL,
	"cites_own" integer NOT NULL,
	"citations" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prompt_weekly" (
	"project_id" uuid NOT NULL,
	"prompt_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"week" date NOT NULL,
	"responses" integer NOT NULL,
	"mentioned" integer NOT NULL,
	"position_sum" integer NOT NULL,
	"sentiment_sum" integer NOT NULL,
	"cites_own" integer NOT NULL,
	"citations" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "prompt_brand_monthly" ADD CONSTRAINT "prompt_brand_monthly_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_brand_monthly" ADD CONSTRAINT "prompt_brand_monthly_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_brand_weekly" ADD CONSTRAINT "prompt_brand_weekly_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_brand_weekly" ADD CONSTRAINT "prompt_brand_weekly_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_monthly" ADD CONSTRAINT "prompt_monthly_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_monthly" ADD CONSTRAINT "prompt_monthly_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_weekly" ADD CONSTRAINT "prompt_weekly_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_weekly" ADD CONSTRAINT "prompt_weekly_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "prompt_brand_monthly_key" ON "prompt_brand_monthly" USING btree ("prompt_id","provider","month","brand_id");--> statement-breakpoint
CREATE INDEX "prompt_brand_monthly_project_idx" ON "prompt_brand_monthly" USING btree ("project_id","provider","month");--> statement-breakpoint
CREATE UNIQUE INDEX "prompt_brand_weekly_key" ON "prompt_brand_weekly" USING btree ("prompt_id","provider","week","brand_id");--> statement-breakpoint
CREATE INDEX "prompt_brand_weekly_project_idx" ON "prompt_brand_weekly" USING btree ("project_id","provider","week");--> statement-breakpoint
CREATE UNIQUE INDEX "prompt_monthly_key" ON "prompt_monthly" USING btree ("prompt_id","provider","month");--> statement-breakpoint
CREATE INDEX "prompt_monthly_project_idx" ON "prompt_monthly" USING btree ("project_id","provider","month");--> statement-breakpoint
CREATE UNIQUE INDEX "prompt_weekly_key" ON "prompt_weekly" USING btree ("prompt_id","provider","week");--> statement-breakpoint
CREATE INDEX "prompt_weekly_project_idx" ON "prompt_weekly" USING btree ("project_id","provider","week");--> statement-breakpoint
-- Each weekly and monthly row is updated by every answer of its week or month: half-empty
-- pages keep those updates on the same page (HOT), so no index entry is written and a
-- bucket's rows stay together on disk instead of scattering across the table.
ALTER TABLE "prompt_weekly" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "prompt_monthly" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "prompt_brand_weekly" SET (fillfactor = 50);--> statement-breakpoint
ALTER TABLE "prompt_brand_monthly" SET (fillfactor = 50);
--> statement-breakpoint
-- A store migrated with answers already in it: the weekly and monthly sums from the daily ones.
INSERT INTO "prompt_weekly" ("project_id", "prompt_id", "provider", "week", "responses", "mentioned", "position_sum", "sentiment_sum", "cites_own", "citations")
SELECT "project_id", "prompt_id", "provider", date_trunc('week', "day"::timestamp)::date, sum("responses"), sum("mentioned"), sum("position_sum"), sum("sentiment_sum"), sum("cites_own"), sum("citations")
  FROM "prompt_daily" GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "prompt_monthly" ("project_id", "prompt_id", "provider", "month", "responses", "mentioned", "position_sum", "sentiment_sum", "cites_own", "citations")
SELECT "project_id", "prompt_id", "provider", date_trunc('month', "day"::timestamp)::date, sum("responses"), sum("mentioned"), sum("position_sum"), sum("sentiment_sum"), sum("cites_own"), sum("citations")
  FROM "prompt_daily" GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "prompt_brand_weekly" ("project_id", "prompt_id", "provider", "week", "brand_id", "mentions", "mention_count", "position_sum", "sentiment_sum")
SELECT "project_id", "prompt_id", "provider", date_trunc('week', "day"::timestamp)::date, "brand_id", sum("mentions"), sum("mention_count"), sum("position_sum"), sum("sentiment_sum")
  FROM "prompt_brand_daily" GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
INSERT INTO "prompt_brand_monthly" ("project_id", "prompt_id", "provider", "month", "brand_id", "mentions", "mention_count", "position_sum", "sentiment_sum")
SELECT "project_id", "prompt_id", "provider", date_trunc('month', "day"::timestamp)::date, "brand_id", sum("mentions"), sum("mention_count"), sum("position_sum"), sum("sentiment_sum")
  FROM "prompt_brand_daily" GROUP BY 1, 2, 3, 4, 5;
