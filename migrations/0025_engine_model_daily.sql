-- Issue 29: the model each engine answered with, per project, engine and day, so the charts
-- can mark the days an engine's model changed (a jump on that day is not the brand's doing).
-- Filled from the answers already stored; storeAnswers adds to it from now on.
CREATE TABLE "engine_model_daily" (
	"project_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"day" date NOT NULL,
	"model" text NOT NULL,
	"answers" integer NOT NULL,
	CONSTRAINT "engine_model_daily_project_id_provider_day_model_pk" PRIMARY KEY("project_id","provider","day","model")
);
--> statement-breakpoint
ALTER TABLE "engine_model_daily" ADD CONSTRAINT "engine_model_daily_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
INSERT INTO "engine_model_daily" ("project_id", "provider", "day", "model", "answers")
SELECT "project_id", "provider", "day", "model", count(*)::int FROM "responses" GROUP BY 1, 2, 3, 4;
