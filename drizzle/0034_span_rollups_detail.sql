-- Rows already there: 1 where they name a revision, an API key or a user, else 0.
ALTER TABLE "span_rollups" ADD COLUMN "detail" smallint NOT NULL DEFAULT 0;--> statement-breakpoint
ALTER TABLE "span_rollups" ALTER COLUMN "detail" DROP DEFAULT;--> statement-breakpoint
UPDATE "span_rollups" SET "detail" = 1 WHERE "revision" <> '' OR "api_key" <> '' OR "user_id" <> '';--> statement-breakpoint
ALTER TABLE "span_rollups" DROP CONSTRAINT "span_rollups_pkey";
--> statement-breakpoint
ALTER TABLE "span_rollups" ADD CONSTRAINT "span_rollups_pkey" PRIMARY KEY("project_id","grain","detail","bucket","root","trace_type","agent","model","provider","environment","revision","api_key","user_id");--> statement-breakpoint
-- The 2 rows: the 1 rows summed over revision, API key and user.
INSERT INTO "span_rollups" ("project_id", "grain", "detail", "bucket", "root", "trace_type", "agent", "model", "provider",
  "environment", "revision", "api_key", "user_id", "spans", "errors", "duration_ms", "latency", "ttft_count", "ttft_ms", "ttft",
  "tokens", "costs", "run_tokens", "run_costs")
SELECT "project_id", "grain", 2, "bucket", "root", "trace_type", "agent", "model", "provider", "environment", '', '', '',
  sum("spans"), sum("errors"), sum("duration_ms"), rollup_map_sum("latency", 1), sum("ttft_count"), sum("ttft_ms"),
  rollup_map_sum("ttft", 1), rollup_map_sum("tokens", 1), rollup_map_sum("costs", 1), rollup_map_sum("run_tokens", 1),
  rollup_map_sum("run_costs", 1)
FROM "span_rollups" WHERE "detail" = 1
GROUP BY "project_id", "grain", "bucket", "root", "trace_type", "agent", "model", "provider", "environment";
