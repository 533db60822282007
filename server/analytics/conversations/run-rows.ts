import { liveEvaluatorResultsSql } from "@/server/evaluations";
import { spanDimensionsSql, spanFactsSql, spanRowsSql } from "@/server/tracing";

/**
 * One row per run (the root span of a trace that is not an annotation) with what the sessions
 * and users views show of it: its session, user and agent, start, duration, error, the run's
 * total cost and tokens (`total` when the run reports one, else the sum of its kinds, as the
 * Analytics page reads them) and the live evaluators' results on it. `where` narrows the spans
 * (SQL over alias `s`); `from`/`to` bound their start time.
 */
export function runRowsSql(q: { project: string; from: string; to: string; where: string[] }): string {
  const facts = spanFactsSql("s");
  const dims = spanDimensionsSql("s");
  // A map's `total`, else the sum of the kinds given (all of them when none are).
  const amount = (map: string, kinds?: string) =>
    `coalesce((select coalesce(max(case when k = 'total' then v::text::float8 end), sum(case when ${kinds ? `k in (${kinds})` : "true"} then v::text::float8 end))
      from jsonb_each(case when jsonb_typeof(${map}) = 'object' then ${map} else '{}'::jsonb end) e(k, v)
      where jsonb_typeof(v) = 'number'), 0)`;
  const select = `s.trace_id::text as trace_id, s.session_id, s.user_id, ${dims.agent} as agent, s.span_name,
    s.start_time, s.end_time, ${facts.error} as error, ${facts.durationMs} as duration_ms,
    ${amount(facts.runCosts)} as cost, ${amount(facts.runTokens, "'prompt', 'completion'")} as tokens`;
  const runs = spanRowsSql("s", select, { project: q.project, from: q.from, to: q.to, only: "runs", where: q.where });
  return `select r.*, sc.score_count, sc.score_sum, sc.verdicts, sc.passes
    from (${runs}) r
    left join lateral (
      select count(*) filter (where jsonb_typeof(e.outputs -> 'score') = 'number') as score_count,
        sum(case when jsonb_typeof(e.outputs -> 'score') = 'number' then (e.outputs ->> 'score')::float8 end) as score_sum,
        count(*) filter (where jsonb_typeof(e.outputs -> 'success') = 'boolean') as verdicts,
        count(*) filter (where e.outputs -> 'success' = 'true'::jsonb) as passes
      from (${liveEvaluatorResultsSql(q.project)}) e where e.trace_id = r.trace_id::uuid) sc on true`;
}
