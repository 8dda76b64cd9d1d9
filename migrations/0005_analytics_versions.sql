CREATE TABLE "analytics_versions" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_versions" ADD CONSTRAINT "analytics_versions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Raises the analytics version of every project whose rows a statement changed. Statement
-- triggers with transition tables: one upsert per statement, however many rows. A project
-- deleted in the same transaction (its rows going by cascade) is skipped.
CREATE FUNCTION "bump_analytics_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "analytics_versions" ("project_id", "version")
  SELECT DISTINCT c."project_id", 1 FROM "changed" c WHERE EXISTS (SELECT 1 FROM "projects" p WHERE p."id" = c."project_id")
  ON CONFLICT ("project_id") DO UPDATE SET "version" = "analytics_versions"."version" + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "bump_analytics_version_of_project"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "analytics_versions" ("project_id", "version")
  SELECT DISTINCT c."id", 1 FROM "changed" c
  ON CONFLICT ("project_id") DO UPDATE SET "version" = "analytics_versions"."version" + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "responses_inserted" AFTER INSERT ON "responses" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_analytics_version"();--> statement-breakpoint
CREATE TRIGGER "responses_updated" AFTER UPDATE ON "responses" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_analytics_version"();--> statement-breakpoint
CREATE TRIGGER "responses_deleted" AFTER DELETE ON "responses" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_analytics_version"();--> statement-breakpoint
CREATE TRIGGER "prompts_inserted" AFTER INSERT ON "prompts" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_analytics_version"();--> statement-breakpoint
CREATE TRIGGER "prompts_updated" AFTER UPDATE ON "prompts" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_analytics_version"();--> statement-breakpoint
CREATE TRIGGER "prompts_deleted" AFTER DELETE ON "prompts" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_analytics_version"();--> statement-breakpoint
CREATE TRIGGER "topics_inserted" AFTER INSERT ON "topics" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_analytics_version"();--> statement-breakpoint
CREATE TRIGGER "topics_updated" AFTER UPDATE ON "topics" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_analytics_version"();--> statement-breakpoint
CREATE TRIGGER "topics_deleted" AFTER DELETE ON "topics" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_analytics_version"();--> statement-breakpoint
CREATE TRIGGER "competitors_inserted" AFTER INSERT ON "competitors" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_analytics_version"();--> statement-breakpoint
CREATE TRIGGER "competitors_updated" AFTER UPDATE ON "competitors" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_analytics_version"();--> statement-breakpoint
CREATE TRIGGER "competitors_deleted" AFTER DELETE ON "competitors" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_analytics_version"();--> statement-breakpoint
CREATE TRIGGER "projects_updated" AFTER UPDATE ON "projects" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_analytics_version_of_project"();
