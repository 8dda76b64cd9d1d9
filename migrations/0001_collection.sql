CREATE TABLE "citations" (
	"response_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"prompt_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"day" date NOT NULL,
	"url" text NOT NULL,
	"domain" text NOT NULL,
	"title" text NOT NULL,
	"category" smallint NOT NULL,
	"url_type" smallint,
	"reference_index" integer NOT NULL,
	"mentioned" boolean NOT NULL,
	"brand_ids" uuid[] NOT NULL
);
--> statement-breakpoint
CREATE TABLE "collection_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"project_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"day" date NOT NULL,
	"planned" integer DEFAULT 0 NOT NULL,
	"stored" integer DEFAULT 0 NOT NULL,
	"skipped_no_credits" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_holds" (
	"team_id" uuid NOT NULL,
	"month" text NOT NULL,
	"prompt_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"team_id" uuid,
	"webhook_id" text,
	"url" text NOT NULL,
	"event" text NOT NULL,
	"message_id" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_status" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "project_brand_daily" (
	"project_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"day" date NOT NULL,
	"brand_id" uuid NOT NULL,
	"mentions" integer NOT NULL,
	"mention_count" integer NOT NULL,
	"position_sum" integer NOT NULL,
	"sentiment_sum" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_daily" (
	"project_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"day" date NOT NULL,
	"responses" integer NOT NULL,
	"mentioned" integer NOT NULL,
	"position_sum" integer NOT NULL,
	"sentiment_sum" integer NOT NULL,
	"cites_own" integer NOT NULL,
	"citations" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_domain_daily" (
	"project_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"day" date NOT NULL,
	"domain" text NOT NULL,
	"category" smallint NOT NULL,
	"citations" integer NOT NULL,
	"responses" integer NOT NULL,
	"citations_unmentioned" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prompt_brand_daily" (
	"project_id" uuid NOT NULL,
	"prompt_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"day" date NOT NULL,
	"brand_id" uuid NOT NULL,
	"mentions" integer NOT NULL,
	"mention_count" integer NOT NULL,
	"position_sum" integer NOT NULL,
	"sentiment_sum" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prompt_daily" (
	"project_id" uuid NOT NULL,
	"prompt_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"day" date NOT NULL,
	"responses" integer NOT NULL,
	"mentioned" integer NOT NULL,
	"position_sum" integer NOT NULL,
	"sentiment_sum" integer NOT NULL,
	"cites_own" integer NOT NULL,
	"citations" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "responses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"prompt_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"day" date NOT NULL,
	"collected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"model" text NOT NULL,
	"simulated" boolean NOT NULL,
	"text" text NOT NULL,
	"references" jsonb NOT NULL,
	"raw" jsonb,
	"mentioned" boolean NOT NULL,
	"position" integer,
	"sentiment" integer,
	"brands" jsonb NOT NULL,
	"cites_own" boolean NOT NULL,
	"citation_count" integer NOT NULL,
	"preview" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "citations" ADD CONSTRAINT "citations_response_id_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."responses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_runs" ADD CONSTRAINT "collection_runs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_holds" ADD CONSTRAINT "credit_holds_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_brand_daily" ADD CONSTRAINT "project_brand_daily_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_daily" ADD CONSTRAINT "project_daily_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_domain_daily" ADD CONSTRAINT "project_domain_daily_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_brand_daily" ADD CONSTRAINT "prompt_brand_daily_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_brand_daily" ADD CONSTRAINT "prompt_brand_daily_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_daily" ADD CONSTRAINT "prompt_daily_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_daily" ADD CONSTRAINT "prompt_daily_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "responses" ADD CONSTRAINT "responses_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "responses" ADD CONSTRAINT "responses_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "citations_response_url_key" ON "citations" USING btree ("response_id","url");--> statement-breakpoint
CREATE INDEX "citations_prompt_day_idx" ON "citations" USING btree ("prompt_id","day");--> statement-breakpoint
CREATE INDEX "collection_runs_project_idx" ON "collection_runs" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_holds_key" ON "credit_holds" USING btree ("prompt_id","provider","day");--> statement-breakpoint
CREATE INDEX "credit_holds_team_idx" ON "credit_holds" USING btree ("team_id","month");--> statement-breakpoint
CREATE INDEX "deliveries_status_idx" ON "deliveries" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "project_brand_daily_key" ON "project_brand_daily" USING btree ("project_id","provider","day","brand_id");--> statement-breakpoint
CREATE UNIQUE INDEX "project_daily_key" ON "project_daily" USING btree ("project_id","provider","day");--> statement-breakpoint
CREATE UNIQUE INDEX "project_domain_daily_key" ON "project_domain_daily" USING btree ("project_id","provider","day","domain");--> statement-breakpoint
CREATE UNIQUE INDEX "prompt_brand_daily_key" ON "prompt_brand_daily" USING btree ("prompt_id","provider","day","brand_id");--> statement-breakpoint
CREATE INDEX "prompt_brand_daily_project_idx" ON "prompt_brand_daily" USING btree ("project_id","provider","day");--> statement-breakpoint
CREATE UNIQUE INDEX "prompt_daily_key" ON "prompt_daily" USING btree ("prompt_id","provider","day");--> statement-breakpoint
CREATE INDEX "prompt_daily_project_idx" ON "prompt_daily" USING btree ("project_id","provider","day");--> statement-breakpoint
CREATE UNIQUE INDEX "responses_prompt_provider_day_key" ON "responses" USING btree ("prompt_id","provider","day");--> statement-breakpoint
CREATE INDEX "responses_project_day_idx" ON "responses" USING btree ("project_id","day");