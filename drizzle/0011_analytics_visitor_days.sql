CREATE TABLE "analytics_visitor_days" (
	"day" text NOT NULL,
	"client_id" text NOT NULL,
	"steps" integer NOT NULL,
	CONSTRAINT "analytics_visitor_days_day_client_id_pk" PRIMARY KEY("day","client_id")
);
