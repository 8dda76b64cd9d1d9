-- cited_pages was unique on (project_id, url, title, category, url_type): a key that holds
-- every URL and title whole, larger than the table itself (240 bytes an entry on a year of
-- the bench). The key is now the project and a 16-byte digest of the other four,
-- cited_page_key; a lookup probes it and compares the four columns as well, so a digest
-- that two pages shared could refuse the second page, never mistake it for the first.
-- The title's length is in the digested text, so no title and URL pair reads as another.
CREATE FUNCTION "cited_page_key"("url" text, "title" text, "category" integer, "url_type" integer) RETURNS uuid
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT md5("category"::text || '|' || coalesce("url_type"::text, '') || '|' || length("title")::text || '|' || "title" || "url")::uuid $$;
--> statement-breakpoint
ALTER TABLE "cited_pages" DROP CONSTRAINT "cited_pages_key";
--> statement-breakpoint
CREATE UNIQUE INDEX "cited_pages_key" ON "cited_pages" ("project_id", "cited_page_key"("url", "title", "category", "url_type"));
