-- Issue 24: brand icons fetched from the brands' own sites for the dashboard's same-origin
-- favicon proxy (GET /favicons/{domain}), shared by every process. A row without a body is a
-- negative entry (the site has no usable icon): asked again only once it is a day old.
CREATE TABLE "favicons" (
	"domain" text PRIMARY KEY NOT NULL,
	"content_type" text,
	"body" bytea,
	"etag" text,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
