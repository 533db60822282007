/**
 * The results analytics counts as live evaluators' scores, for server/analytics (which may not
 * name the evaluation tables): its scan of scores reads them through this fragment, its roll-up
 * (`evaluation_score_rollups`) is kept by drizzle/0032's triggers on the same rule.
 */

/** A step's evaluator: its `references.evaluator.id`, else its evaluator revision's id, else the step key. */
const STEPS = `case when jsonb_typeof(run.data -> 'steps') = 'array' then run.data -> 'steps' else '[]'::jsonb end`;
/** The result's trace as a uuid (stored dashed or as 32 hex), null when it names none. */
const TRACE_UUID = `case when replace(e.trace_id, '-', '') ~* '^[0-9a-f]{32}$' then replace(e.trace_id, '-', '')::uuid end`;

/**
 * SQL of the successful results of annotation (evaluator) steps of a project's live evaluation
 * runs whose outputs are an object: columns `project_id`, `trace_id` (the scored trace, a uuid or
 * null), `timestamp` (the live scenario's window), `outputs` and `evaluator` (the step's
 * evaluator id). `project` is SQL (a parameter).
 */
export function liveEvaluatorResultsSql(project: string): string {
  return `select e.project_id, ${TRACE_UUID} as trace_id, e.timestamp, e.outputs, ev.evaluator
    from evaluation_results e
    join evaluation_runs run on run.id = e.run_id and run.flags @> '{"is_live": true}'
    cross join lateral (
      select coalesce(st #>> '{references,evaluator,id}', st #>> '{references,evaluator_revision,id}', e.step_key) as evaluator
      from jsonb_array_elements(${STEPS}) st
      where st ->> 'key' = e.step_key and st ->> 'type' = 'annotation' limit 1) ev
    where e.project_id = ${project} and e.status = 'success' and e.timestamp is not null
      and jsonb_typeof(e.outputs) = 'object'`;
}
