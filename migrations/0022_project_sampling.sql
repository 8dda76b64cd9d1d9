ALTER TABLE "projects" ADD COLUMN "sampling" text DEFAULT 'fixed' NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_sampling_check" CHECK ("sampling" in ('fixed', 'adaptive'));
