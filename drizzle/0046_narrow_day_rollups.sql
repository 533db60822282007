-- Narrow day rows of span_rollups (server/tracing/store/rollup-columns.ts, NARROW_DETAIL): per
-- project, day, root and trace type, a row per value of one dimension (the others '') or of none
-- (3), each counting every span once. Ingest writes them from now on; these are the days already
-- rolled up, summed from the day rows that count each span once (0 with 1, or 0 with 2 for the
-- dimensions 2 keeps), maps key by key as numeric, keys that sum to 0 left out. The groupings
-- spill to disk at the default work_mem (80 s for 500,000 spans, 25 s with this; the migrator's
-- transaction ends the setting).
SET LOCAL work_mem = '256MB';--> statement-breakpoint
WITH "families" ("detail", "dimension", "source") AS (VALUES
  (3, '', 2), (4, 'agent', 2), (5, 'model', 2), (6, 'provider', 2), (7, 'environment', 2),
  (8, 'revision', 1), (9, 'api_key', 1), (10, 'user_id', 1)),
"narrow" AS MATERIALIZED (
  SELECT r."project_id", f."detail", r."bucket", r."root", r."trace_type",
    CASE WHEN f."dimension" = 'agent' THEN r."agent" ELSE '' END AS "agent",
    CASE WHEN f."dimension" = 'model' THEN r."model" ELSE '' END AS "model",
    CASE WHEN f."dimension" = 'provider' THEN r."provider" ELSE '' END AS "provider",
    CASE WHEN f."dimension" = 'environment' THEN r."environment" ELSE '' END AS "environment",
    CASE WHEN f."dimension" = 'revision' THEN r."revision" ELSE '' END AS "revision",
    CASE WHEN f."dimension" = 'api_key' THEN r."api_key" ELSE '' END AS "api_key",
    CASE WHEN f."dimension" = 'user_id' THEN r."user_id" ELSE '' END AS "user_id",
    r."spans", r."errors", r."duration_ms", r."ttft_count", r."ttft_ms",
    r."latency", r."ttft", r."tokens", r."costs", r."run_tokens", r."run_costs"
  FROM "span_rollups" r JOIN "families" f ON r."detail" IN (0, f."source")
  WHERE r."grain" = 'day'),
"sums" AS (
  SELECT "project_id", "detail", "bucket", "root", "trace_type", "agent", "model", "provider", "environment",
    "revision", "api_key", "user_id", sum("spans") AS "spans", sum("errors") AS "errors",
    sum("duration_ms") AS "duration_ms", sum("ttft_count") AS "ttft_count", sum("ttft_ms") AS "ttft_ms"
  FROM "narrow"
  GROUP BY "project_id", "detail", "bucket", "root", "trace_type", "agent", "model", "provider", "environment",
    "revision", "api_key", "user_id"),
"entries" AS (
  SELECT n."project_id", n."detail", n."bucket", n."root", n."trace_type", n."agent", n."model", n."provider",
    n."environment", n."revision", n."api_key", n."user_id", m."kind", e."key" AS "name", sum(e."value"::numeric) AS "amount"
  FROM "narrow" n
  CROSS JOIN LATERAL (VALUES ('latency', n."latency"), ('ttft', n."ttft"), ('tokens', n."tokens"), ('costs', n."costs"),
    ('run_tokens', n."run_tokens"), ('run_costs', n."run_costs")) AS m("kind", "map")
  CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(m."map") = 'object' THEN m."map" ELSE '{}'::jsonb END) AS e
  WHERE jsonb_typeof(e."value") = 'number'
  GROUP BY n."project_id", n."detail", n."bucket", n."root", n."trace_type", n."agent", n."model", n."provider",
    n."environment", n."revision", n."api_key", n."user_id", m."kind", e."key"
  HAVING sum(e."value"::numeric) <> 0),
"maps" AS (
  SELECT "project_id", "detail", "bucket", "root", "trace_type", "agent", "model", "provider", "environment",
    "revision", "api_key", "user_id",
    jsonb_object_agg("name", "amount") FILTER (WHERE "kind" = 'latency') AS "latency",
    jsonb_object_agg("name", "amount") FILTER (WHERE "kind" = 'ttft') AS "ttft",
    jsonb_object_agg("name", "amount") FILTER (WHERE "kind" = 'tokens') AS "tokens",
    jsonb_object_agg("name", "amount") FILTER (WHERE "kind" = 'costs') AS "costs",
    jsonb_object_agg("name", "amount") FILTER (WHERE "kind" = 'run_tokens') AS "run_tokens",
    jsonb_object_agg("name", "amount") FILTER (WHERE "kind" = 'run_costs') AS "run_costs"
  FROM "entries"
  GROUP BY "project_id", "detail", "bucket", "root", "trace_type", "agent", "model", "provider", "environment",
    "revision", "api_key", "user_id")
INSERT INTO "span_rollups" ("project_id", "grain", "detail", "bucket", "root", "trace_type", "agent", "model",
  "provider", "environment", "revision", "api_key", "user_id", "spans", "errors", "duration_ms", "latency",
  "ttft_count", "ttft_ms", "ttft", "tokens", "costs", "run_tokens", "run_costs")
SELECT s."project_id", 'day', s."detail", s."bucket", s."root", s."trace_type", s."agent", s."model", s."provider",
  s."environment", s."revision", s."api_key", s."user_id", s."spans", s."errors", s."duration_ms",
  coalesce(m."latency", '{}'), s."ttft_count", s."ttft_ms", coalesce(m."ttft", '{}'), coalesce(m."tokens", '{}'),
  coalesce(m."costs", '{}'), coalesce(m."run_tokens", '{}'), coalesce(m."run_costs", '{}')
FROM "sums" s LEFT JOIN "maps" m USING ("project_id", "detail", "bucket", "root", "trace_type", "agent", "model",
  "provider", "environment", "revision", "api_key", "user_id");
