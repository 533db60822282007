-- One partial index for both id lists (POST /api/spans/{sessions,users}/query) in place of 0050's two:
-- each list's condition (server/tracing/actor-ids.ts) is one half of this predicate, which it
-- implies, so the planner still reads only spans naming an id; a span write maintains one index,
-- not two. A partitioned table cannot be indexed concurrently: span writes wait while it builds.
DROP INDEX "spans_session_key_idx";--> statement-breakpoint
DROP INDEX "spans_user_key_idx";--> statement-breakpoint
CREATE INDEX "spans_actor_key_idx" ON "spans" USING btree ("project_id","start_time" DESC NULLS LAST) WHERE session_id is not null or (attributes -> 'ag' -> 'session') ? 'id' or user_id is not null or (attributes -> 'ag' -> 'user') ? 'id';