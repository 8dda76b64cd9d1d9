-- Issue 28: log-drain URLs through which a CDN pushes a project's access logs (the token's
-- SHA-256 only, never the token).
CREATE TABLE "crawler_log_drains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"team_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"name" text,
	"token_hash" text NOT NULL,
	"token_prefix" text NOT NULL,
	"vercel_verify" text,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "crawler_log_drains" ADD CONSTRAINT "crawler_log_drains_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crawler_log_drains" ADD CONSTRAINT "crawler_log_drains_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "crawler_log_drains_token_key" ON "crawler_log_drains" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "crawler_log_drains_project_idx" ON "crawler_log_drains" USING btree ("project_id");
