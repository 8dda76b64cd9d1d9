-- Issue 28: AI crawler logs kept as daily aggregates per page and agent (and AI referrals per
-- page and engine), each ingested file once by its SHA-256; and the site audits, one row per run.
CREATE TABLE "ai_referrals_daily" (
	"project_id" uuid NOT NULL,
	"day" date NOT NULL,
	"path" text NOT NULL,
	"engine" text NOT NULL,
	"visits" integer NOT NULL,
	CONSTRAINT "ai_referrals_daily_project_id_day_path_engine_pk" PRIMARY KEY("project_id","day","path","engine")
);
--> statement-breakpoint
CREATE TABLE "crawler_hits_daily" (
	"project_id" uuid NOT NULL,
	"day" date NOT NULL,
	"path" text NOT NULL,
	"agent" text NOT NULL,
	"hits" integer NOT NULL,
	"verified_hits" integer NOT NULL,
	CONSTRAINT "crawler_hits_daily_project_id_day_path_agent_pk" PRIMARY KEY("project_id","day","path","agent")
);
--> statement-breakpoint
CREATE TABLE "crawler_log_files" (
	"project_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"bytes" bigint NOT NULL,
	"lines" integer NOT NULL,
	"parsed" integer NOT NULL,
	"rejected" integer NOT NULL,
	"bot_hits" integer NOT NULL,
	"referrals" integer NOT NULL,
	"ingested_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "crawler_log_files_project_id_sha256_pk" PRIMARY KEY("project_id","sha256")
);
--> statement-breakpoint
CREATE TABLE "site_audits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"pages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"findings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ai_referrals_daily" ADD CONSTRAINT "ai_referrals_daily_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crawler_hits_daily" ADD CONSTRAINT "crawler_hits_daily_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crawler_log_files" ADD CONSTRAINT "crawler_log_files_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_audits" ADD CONSTRAINT "site_audits_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_audits_project_idx" ON "site_audits" USING btree ("project_id","created_at");