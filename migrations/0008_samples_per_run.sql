DROP INDEX "responses_prompt_provider_day_key";--> statement-breakpoint
DROP INDEX "credit_holds_key";--> statement-breakpoint
ALTER TABLE "credit_holds" ADD COLUMN "sample" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "samples_per_run" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "responses" ADD COLUMN "sample" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "responses_prompt_provider_day_sample_key" ON "responses" USING btree ("prompt_id","provider","day","sample");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_holds_key" ON "credit_holds" USING btree ("prompt_id","provider","day","sample");