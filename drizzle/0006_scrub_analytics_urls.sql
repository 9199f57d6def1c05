-- page_view events stored before URLs were filtered may hold reset tokens, handoff codes or
-- customer emails in their query strings: drop the events of unreported pages, and the query
-- string of every other stored page_view.
DELETE FROM "analytics_events"
 WHERE "name" = 'page_view'
   AND ("params"->>'page_path' ~ '^/(login-success|login-via|admin)'
        OR ("params"->>'page_path' LIKE '/auth%'
            AND ("params"->>'page_location' LIKE '%token=%' OR "params"->>'page_location' LIKE '%view=reset%')));--> statement-breakpoint
UPDATE "analytics_events"
   SET "params" = jsonb_set("params", '{page_location}', to_jsonb(split_part("params"->>'page_location', '?', 1)))
 WHERE "name" = 'page_view' AND "params"->>'page_location' LIKE '%?%';
