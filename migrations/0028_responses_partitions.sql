-- Issue 31: the answers partitioned by month (PARTITION BY RANGE (day)), so that a month
-- past the retention is dropped as one table (DROP TABLE, no DELETE and no vacuum), and a
-- read of a window scans only its months. The rollups are not touched. Nothing references
-- responses(id) by foreign key, so the primary key may become (id, day): a partitioned
-- table's unique keys must include the partition key (the answer key already does).
-- A month's partition is made before its first answer by responses_month_partition (the
-- write path calls it; store-answers.ts), here for each month that has answers.
CREATE FUNCTION responses_month_partition(d date) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  first date := date_trunc('month', d)::date;
  name text := 'responses_p' || to_char(date_trunc('month', d), 'YYYYMM');
BEGIN
  IF to_regclass(name) IS NOT NULL THEN
    RETURN name;
  END IF;
  -- two first answers of a month at once: one makes the partition, the other waits and finds
  -- it. This lock is the one ATTACH takes (it conflicts with itself, not with reads or
  -- writes), and taking it makes the lookup below see a partition committed meanwhile (an
  -- advisory lock would not: the catalog caches are refreshed on a table lock).
  LOCK TABLE responses IN SHARE UPDATE EXCLUSIVE MODE;
  IF to_regclass(name) IS NOT NULL THEN
    RETURN name;
  END IF;
  -- made apart and attached: ATTACH takes a lock on responses that lets reads and writes go
  -- on, where CREATE TABLE ... PARTITION OF would hold off every reader until commit
  EXECUTE format('CREATE TABLE %I (LIKE responses INCLUDING DEFAULTS INCLUDING STORAGE)', name);
  EXECUTE format('ALTER TABLE responses ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name, first, (first + interval '1 month')::date);
  RETURN name;
END
$$;
--> statement-breakpoint
ALTER TABLE "responses" RENAME TO "responses_0027";
--> statement-breakpoint
CREATE TABLE "responses" (LIKE "responses_0027" INCLUDING DEFAULTS INCLUDING STORAGE) PARTITION BY RANGE ("day");
--> statement-breakpoint
SELECT responses_month_partition(m) FROM (SELECT DISTINCT date_trunc('month', "day")::date AS m FROM "responses_0027") months;
--> statement-breakpoint
INSERT INTO "responses" SELECT * FROM "responses_0027";
--> statement-breakpoint
DROP TABLE "responses_0027";
--> statement-breakpoint
ALTER TABLE "responses" ADD CONSTRAINT "responses_pkey" PRIMARY KEY ("id", "day");
--> statement-breakpoint
CREATE UNIQUE INDEX "responses_prompt_provider_day_sample_key" ON "responses" USING btree ("prompt_id","provider","day","sample","market");
--> statement-breakpoint
CREATE INDEX "responses_project_day_idx" ON "responses" USING btree ("project_id","day");
--> statement-breakpoint
CREATE INDEX "responses_plain_body_idx" ON "responses" USING btree ("id") WHERE get_byte("body", 0) = 0;
--> statement-breakpoint
ALTER TABLE "responses" ADD CONSTRAINT "responses_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "responses" ADD CONSTRAINT "responses_prompt_id_prompts_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."prompts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TRIGGER "responses_inserted" AFTER INSERT ON "responses" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_analytics_version"();
--> statement-breakpoint
CREATE TRIGGER "responses_updated" AFTER UPDATE ON "responses" REFERENCING NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_analytics_version"();
--> statement-breakpoint
CREATE TRIGGER "responses_deleted" AFTER DELETE ON "responses" REFERENCING OLD TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "bump_analytics_version"();
