-- Issue 29: the margin adaptive sampling aims each prompt's 95% interval at (± points), per
-- project; 5 points, the margin it used for every project before, by default.
ALTER TABLE "projects" ADD COLUMN "sampling_margin" real DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_sampling_margin_check" CHECK ("sampling_margin" >= 1 and "sampling_margin" <= 25);
