CREATE TABLE "exchange_rates" (
	"currency" text NOT NULL,
	"day" text NOT NULL,
	"rate_e4" integer NOT NULL,
	"entered_by" text NOT NULL,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_rates_currency_day_pk" PRIMARY KEY("currency","day"),
	CONSTRAINT "exchange_rates_day_check" CHECK ("exchange_rates"."day" ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
	CONSTRAINT "exchange_rates_rate_check" CHECK ("exchange_rates"."rate_e4" > 0)
);
