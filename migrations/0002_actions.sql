CREATE TABLE "actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"team_id" uuid NOT NULL,
	"priority" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"category" text NOT NULL,
	"effort" text,
	"expected_impact_min" double precision,
	"expected_impact_max" double precision,
	"status" text DEFAULT 'suggested' NOT NULL,
	"targets" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"execution" jsonb NOT NULL,
	"group_name" text,
	"depends_on" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"fingerprint" text,
	"ignore_reason" text,
	"ignore_feedback" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recommendation_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"item_count" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"action_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"team_id" uuid NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"step" text DEFAULT 'outline' NOT NULL,
	"checkpoint" text,
	"outline" text,
	"draft" text,
	"final" text,
	"title" text,
	"feedback" text,
	"version" integer DEFAULT 0 NOT NULL,
	"result" jsonb,
	"error" text,
	"writer" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recommendation_tasks" ADD CONSTRAINT "recommendation_tasks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_action_id_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflows" ADD CONSTRAINT "workflows_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "actions_project_idx" ON "actions" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "actions_open_fingerprint_key" ON "actions" USING btree ("project_id","fingerprint") WHERE fingerprint is not null and status in ('suggested', 'accepted', 'in_progress');--> statement-breakpoint
CREATE INDEX "recommendation_tasks_project_idx" ON "recommendation_tasks" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "workflows_action_idx" ON "workflows" USING btree ("action_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "workflows_one_open_per_action" ON "workflows" USING btree ("action_id") WHERE status in ('running', 'awaiting_approval');