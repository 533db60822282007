CREATE TABLE "evaluation_score_rollups" (
	"project_id" uuid NOT NULL,
	"grain" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"evaluation" uuid NOT NULL,
	"evaluator" text NOT NULL,
	"trace_type" text NOT NULL,
	"agent" text NOT NULL,
	"model" text NOT NULL,
	"provider" text NOT NULL,
	"environment" text NOT NULL,
	"revision" text NOT NULL,
	"api_key" text NOT NULL,
	"user_id" text NOT NULL,
	"results" bigint NOT NULL,
	"scores" bigint NOT NULL,
	"score_sum" double precision NOT NULL,
	"verdicts" bigint NOT NULL,
	"passes" bigint NOT NULL,
	CONSTRAINT "evaluation_score_rollups_pkey" PRIMARY KEY("project_id","grain","bucket","evaluation","evaluator","trace_type","agent","model","provider","environment","revision","api_key","user_id")
);
--> statement-breakpoint
ALTER TABLE "evaluation_results" ADD COLUMN "score_rollup" jsonb;--> statement-breakpoint
-- The roll-up key and values of a live evaluator cell, or null when it counts nowhere: a result
-- (status success) of an annotation step of a live run, with a numeric `score` or a boolean
-- `success` in its outputs. The bucket and dimensions are those of the scored run's root span
-- (as in tracing/store/span-facts.ts: agent, model, provider, environment, revision, api key,
-- user), so a result written hours later lands where its run does; a trace without a stored
-- root falls back to the scenario's window start and empty dimensions.
CREATE FUNCTION "evaluation_score_rollup_key"(c "evaluation_results") RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
DECLARE
  evaluator text;
  score float8;
  success boolean;
  trace uuid;
  started timestamptz;
  ttype text;
  agent text;
  model text;
  provider text;
  environment text;
  revision text;
  api_key text;
  user_id text;
BEGIN
  IF c.status IS DISTINCT FROM 'success' OR c.timestamp IS NULL OR jsonb_typeof(c.outputs) IS DISTINCT FROM 'object' THEN
    RETURN NULL;
  END IF;
  IF jsonb_typeof(c.outputs -> 'score') = 'number' THEN score := (c.outputs ->> 'score')::float8; END IF;
  IF jsonb_typeof(c.outputs -> 'success') = 'boolean' THEN success := (c.outputs ->> 'success')::boolean; END IF;
  IF score IS NULL AND success IS NULL THEN RETURN NULL; END IF;
  SELECT coalesce(x #>> '{references,evaluator,id}', x #>> '{references,evaluator_revision,id}', c.step_key) INTO evaluator
    FROM "evaluation_runs" r
    CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(r.data -> 'steps') = 'array' THEN r.data -> 'steps' ELSE '[]'::jsonb END) x
    WHERE r.id = c.run_id AND r.flags @> '{"is_live": true}' AND x ->> 'key' = c.step_key AND x ->> 'type' = 'annotation'
    LIMIT 1;
  IF evaluator IS NULL THEN RETURN NULL; END IF;
  IF replace(c.trace_id, '-', '') ~* '^[0-9a-f]{32}$' THEN trace := replace(c.trace_id, '-', '')::uuid; END IF;
  IF trace IS NOT NULL THEN
    SELECT s.start_time, s.trace_type,
        coalesce(s.agent_id, jsonb_path_query_first(s."references", '$[*] ? (@.attributes.key == "workflow").id') #>> '{}', ''),
        coalesce(s.attributes #>> '{ag,meta,request,model}', s.attributes #>> '{ag,meta,response,model}', ''),
        coalesce(s.attributes #>> '{ag,meta,system}', ''),
        coalesce(jsonb_path_query_first(s."references", '$[*] ? (@.attributes.key == "environment").slug') #>> '{}',
          jsonb_path_query_first(s."references", '$[*] ? (@.attributes.key == "environment").id') #>> '{}', ''),
        coalesce(jsonb_path_query_first(s."references", '$[*] ? (@.attributes.key == "workflow_revision").id') #>> '{}', ''),
        coalesce(s.attributes #>> '{ag,meta,api_key,id}', ''),
        coalesce(s.user_id, '')
      INTO started, ttype, agent, model, provider, environment, revision, api_key, user_id
      FROM "spans" s
      WHERE s.project_id = c.project_id AND s.trace_id = trace AND s.parent_id IS NULL
      ORDER BY s.start_time LIMIT 1;
  END IF;
  RETURN jsonb_strip_nulls(jsonb_build_object(
    'at', coalesce(started, c.timestamp), 'evaluation', c.run_id, 'evaluator', evaluator,
    'trace_type', coalesce(ttype, 'invocation'), 'agent', coalesce(agent, ''), 'model', coalesce(model, ''),
    'provider', coalesce(provider, ''), 'environment', coalesce(environment, ''), 'revision', coalesce(revision, ''),
    'api_key', coalesce(api_key, ''), 'user', coalesce(user_id, ''), 'score', score, 'success', success));
END
$$;
--> statement-breakpoint
-- Adds (sign 1) or takes out (-1) one key's values at every grain, in grain order (two writers
-- lock shared rows in the same order).
CREATE FUNCTION "evaluation_score_rollup_apply"(k jsonb, project uuid, sign integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "evaluation_score_rollups" ("project_id", "grain", "bucket", "evaluation", "evaluator", "trace_type", "agent",
    "model", "provider", "environment", "revision", "api_key", "user_id", "results", "scores", "score_sum", "verdicts", "passes")
  SELECT project, g.grain, to_timestamp(floor(extract(epoch from (k ->> 'at')::timestamptz) / g.seconds) * g.seconds),
    (k ->> 'evaluation')::uuid, k ->> 'evaluator', k ->> 'trace_type', k ->> 'agent', k ->> 'model', k ->> 'provider',
    k ->> 'environment', k ->> 'revision', k ->> 'api_key', k ->> 'user', sign,
    CASE WHEN k ? 'score' THEN sign ELSE 0 END, sign * coalesce((k ->> 'score')::float8, 0),
    CASE WHEN k ? 'success' THEN sign ELSE 0 END, CASE WHEN (k ->> 'success')::boolean THEN sign ELSE 0 END
  FROM (VALUES ('day', 86400), ('hour', 3600), ('quarter', 900)) AS g(grain, seconds)
  ORDER BY g.grain
  ON CONFLICT ON CONSTRAINT "evaluation_score_rollups_pkey" DO UPDATE SET
    "results" = "evaluation_score_rollups"."results" + excluded."results",
    "scores" = "evaluation_score_rollups"."scores" + excluded."scores",
    "score_sum" = "evaluation_score_rollups"."score_sum" + excluded."score_sum",
    "verdicts" = "evaluation_score_rollups"."verdicts" + excluded."verdicts",
    "passes" = "evaluation_score_rollups"."passes" + excluded."passes"
$$;
--> statement-breakpoint
CREATE FUNCTION "evaluation_results_score_key"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.score_rollup := evaluation_score_rollup_key(NEW);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "evaluation_results_score_rollup"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.score_rollup IS NOT NULL THEN
    PERFORM evaluation_score_rollup_apply(OLD.score_rollup, OLD.project_id, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.score_rollup IS NOT NULL THEN
    PERFORM evaluation_score_rollup_apply(NEW.score_rollup, NEW.project_id, 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only cells of live scenarios (timestamp set) reach a function: the WHEN clauses are evaluated
-- without one, so other runs' cells, and a live cell's lease renewals, cost nothing here.
CREATE TRIGGER "evaluation_results_score_key_insert" BEFORE INSERT ON "evaluation_results" FOR EACH ROW
  WHEN (NEW.timestamp IS NOT NULL AND NEW.status = 'success') EXECUTE FUNCTION "evaluation_results_score_key"();
--> statement-breakpoint
CREATE TRIGGER "evaluation_results_score_key_update" BEFORE UPDATE ON "evaluation_results" FOR EACH ROW
  WHEN ((NEW.timestamp IS NOT NULL OR OLD.score_rollup IS NOT NULL)
    AND (OLD.status, OLD.outputs, OLD.trace_id, OLD.step_key, OLD.timestamp, OLD.run_id)
      IS DISTINCT FROM (NEW.status, NEW.outputs, NEW.trace_id, NEW.step_key, NEW.timestamp, NEW.run_id))
  EXECUTE FUNCTION "evaluation_results_score_key"();
--> statement-breakpoint
CREATE TRIGGER "evaluation_results_score_rollup_insert" AFTER INSERT ON "evaluation_results" FOR EACH ROW
  WHEN (NEW.score_rollup IS NOT NULL) EXECUTE FUNCTION "evaluation_results_score_rollup"();
--> statement-breakpoint
CREATE TRIGGER "evaluation_results_score_rollup_update" AFTER UPDATE ON "evaluation_results" FOR EACH ROW
  WHEN (OLD.score_rollup IS DISTINCT FROM NEW.score_rollup) EXECUTE FUNCTION "evaluation_results_score_rollup"();
--> statement-breakpoint
CREATE TRIGGER "evaluation_results_score_rollup_delete" AFTER DELETE ON "evaluation_results" FOR EACH ROW
  WHEN (OLD.score_rollup IS NOT NULL) EXECUTE FUNCTION "evaluation_results_score_rollup"();
