-- The spans naming a session or user id, root or not: POST /api/spans/{sessions,users}/query read
-- only these (server/tracing/actor-ids.ts: its condition is this predicate word for word; a key
-- test (`?`) rather than a comparison of the value, whose selectivity the planner can only guess
-- at 99.5% and so would scan every span). A partitioned table cannot be indexed concurrently:
-- span writes wait while the indexes build; ingest requests are queued in span_ingest meanwhile.
CREATE INDEX "spans_session_key_idx" ON "spans" USING btree ("project_id","start_time" DESC NULLS LAST) WHERE session_id is not null or (attributes -> 'ag' -> 'session') ? 'id';--> statement-breakpoint
CREATE INDEX "spans_user_key_idx" ON "spans" USING btree ("project_id","start_time" DESC NULLS LAST) WHERE user_id is not null or (attributes -> 'ag' -> 'user') ? 'id';