ALTER TABLE "responses" ADD COLUMN "sent" jsonb;--> statement-breakpoint
ALTER TABLE "responses" ADD COLUMN "usage" jsonb;