CREATE TABLE "cited_pages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "cited_pages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" uuid NOT NULL,
	"url" text NOT NULL,
	"domain" text NOT NULL,
	"title" text NOT NULL,
	"category" smallint NOT NULL,
	"url_type" smallint,
	CONSTRAINT "cited_pages_key" UNIQUE NULLS NOT DISTINCT("project_id","url","title","category","url_type")
);
--> statement-breakpoint
ALTER TABLE "cited_pages" ADD CONSTRAINT "cited_pages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "responses" ADD COLUMN "body" "bytea";--> statement-breakpoint
ALTER TABLE "responses" ADD COLUMN "brand_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "responses" ADD COLUMN "brand_stats" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "responses" ADD COLUMN "cited" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
-- Answers stored before: each citation row becomes an id in its answer's `cited` (in
-- reference_index order, as the write path keeps the answer's order), the distinct pages
-- a row each; text, references and raw move into `body` as the PLAIN packed JSON
-- `[text, references, raw]` (lib/packed-json.ts), which the first start after this
-- migration compresses (store/answer-bodies.ts) since SQL has no brotli; the brands
-- named (jsonb id -> {position, count, sentiment}) become brand_ids by position and
-- brand_stats holding position, count, sentiment of each (modules/answers/answer-brands.ts).
INSERT INTO "cited_pages" ("project_id", "url", "domain", "title", "category", "url_type")
  SELECT DISTINCT "project_id", "url", "domain", "title", "category", "url_type" FROM "citations";--> statement-breakpoint
UPDATE "responses" r SET "cited" = x.ids
  FROM (SELECT c."response_id", array_agg(p."id" ORDER BY c."reference_index", c."url") AS ids
          FROM "citations" c
          JOIN "cited_pages" p ON p."project_id" = c."project_id" AND p."url" = c."url" AND p."title" = c."title"
                              AND p."category" = c."category" AND p."url_type" IS NOT DISTINCT FROM c."url_type"
         GROUP BY c."response_id") x
 WHERE r."id" = x."response_id";--> statement-breakpoint
UPDATE "responses" SET "body" = '\x00'::bytea || convert_to(jsonb_build_array("text", "references", "raw")::text, 'UTF8'),
  "brand_ids" = ARRAY(SELECT e.key::uuid FROM jsonb_each("brands") AS e ORDER BY (e.value->>'position')::int, e.key),
  "brand_stats" = ARRAY(SELECT v.x FROM jsonb_each("brands") AS e
                          CROSS JOIN LATERAL unnest(ARRAY[(e.value->>'position')::int, (e.value->>'count')::int, (e.value->>'sentiment')::int]) WITH ORDINALITY AS v(x, o)
                         ORDER BY (e.value->>'position')::int, e.key, v.o);--> statement-breakpoint
ALTER TABLE "responses" ALTER COLUMN "body" SET NOT NULL;--> statement-breakpoint
-- Already compressed: no second compression attempt when a long answer goes to TOAST.
ALTER TABLE "responses" ALTER COLUMN "body" SET STORAGE EXTERNAL;--> statement-breakpoint
CREATE INDEX "responses_plain_body_idx" ON "responses" USING btree ("id") WHERE get_byte("responses"."body", 0) = 0;--> statement-breakpoint
DROP TABLE "citations" CASCADE;--> statement-breakpoint
ALTER TABLE "responses" DROP COLUMN "text";--> statement-breakpoint
ALTER TABLE "responses" DROP COLUMN "references";--> statement-breakpoint
ALTER TABLE "responses" DROP COLUMN "raw";--> statement-breakpoint
ALTER TABLE "responses" DROP COLUMN "brands";--> statement-breakpoint
ALTER TABLE "responses" DROP COLUMN "preview";
