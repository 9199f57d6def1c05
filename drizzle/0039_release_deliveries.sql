CREATE TABLE "release_deliveries" (
	"day" text NOT NULL,
	"version" text NOT NULL,
	"platform" text NOT NULL,
	"kind" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"bytes_served" bigint DEFAULT 0 NOT NULL,
	"bytes_full" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "release_deliveries_day_version_platform_kind_pk" PRIMARY KEY("day","version","platform","kind"),
	CONSTRAINT "release_deliveries_day_check" CHECK ("release_deliveries"."day" ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
	CONSTRAINT "release_deliveries_kind_check" CHECK ("release_deliveries"."kind" in ('full', 'differential', 'delta'))
);
