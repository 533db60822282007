CREATE TABLE "span_rollups" (
	"project_id" uuid NOT NULL,
	"grain" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"root" boolean NOT NULL,
	"trace_type" text NOT NULL,
	"agent" text NOT NULL,
	"model" text NOT NULL,
	"provider" text NOT NULL,
	"environment" text NOT NULL,
	"revision" text NOT NULL,
	"api_key" text NOT NULL,
	"user_id" text NOT NULL,
	"spans" bigint NOT NULL,
	"errors" bigint NOT NULL,
	"duration_ms" double precision NOT NULL,
	"latency" jsonb NOT NULL,
	"ttft_count" bigint NOT NULL,
	"ttft_ms" double precision NOT NULL,
	"ttft" jsonb NOT NULL,
	"tokens" jsonb NOT NULL,
	"costs" jsonb NOT NULL,
	"run_tokens" jsonb NOT NULL,
	"run_costs" jsonb NOT NULL,
	CONSTRAINT "span_rollups_pkey" PRIMARY KEY("project_id","grain","bucket","root","trace_type","agent","model","provider","environment","revision","api_key","user_id")
);
--> statement-breakpoint
-- `state + factor * m`, key by key, over the numeric values of two JSON objects (token kinds, cost kinds, histogram bins); keys that sum to 0 are dropped.
CREATE FUNCTION "rollup_map_add"(state jsonb, m jsonb, factor numeric) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(jsonb_object_agg(key, total), '{}'::jsonb) FROM (
    SELECT key, sum(amount) AS total FROM (
      SELECT key, value::numeric AS amount FROM jsonb_each(coalesce(state, '{}'::jsonb)) WHERE jsonb_typeof(value) = 'number'
      UNION ALL
      SELECT key, factor * value::numeric FROM jsonb_each(CASE WHEN jsonb_typeof(m) = 'object' THEN m ELSE '{}'::jsonb END) WHERE jsonb_typeof(value) = 'number'
    ) e GROUP BY key
  ) s WHERE total <> 0
$$;
--> statement-breakpoint
CREATE AGGREGATE "rollup_map_sum"(jsonb, numeric) (SFUNC = "rollup_map_add", STYPE = jsonb, INITCOND = '{}');
