import type { Transaction } from "@/server/db";
import { rawQuery } from "@/server/db";
import { lockRollups, ROLLUP_DETAIL } from "@/server/tracing";

/** What a deletion starts from; everything linked to these is found and deleted with them. */
export interface ErasureSeed {
  sessionIds: string[];
  runIds: string[];
  /** Stored (dashed) trace ids. */
  traceIds: string[];
  /** The user id analytics roll-ups are keyed by, for a user's deletion. */
  userId?: string;
}

/** Rows deleted per kind: what the audit entry records (counts, never the content). */
export type ErasureCounts = Record<string, number>;

const count = async (tx: Transaction, statement: string, params: unknown[]) =>
  (await rawQuery<{ n: number }>(tx, `with hit as (${statement}) select count(*)::int as n from hit`, params))[0].n;

const NARROW_KEY = "grain, bucket, root, trace_type, agent, model, provider, environment";
const SCALARS = ["spans", "errors", "duration_ms", "ttft_count", "ttft_ms"];
const MAPS = ["latency", "ttft", "tokens", "costs", "run_tokens", "run_costs"];
/**
 * The user's roll-up rows go, and what they counted is taken out of the rows summed over users
 * (ROLLUP_DETAIL.summed), so a query by agent or model agrees with one by user afterwards.
 */
const ERASE_USER_ROLLUPS = `with gone as (
    delete from span_rollups where project_id = $1 and user_id = $2 and detail = ${ROLLUP_DETAIL.with} returning *),
  sums as (select ${NARROW_KEY}, ${SCALARS.map((c) => `sum(${c}) as ${c}`).join(", ")},
      ${MAPS.map((c) => `rollup_map_sum(${c}, 1) as ${c}`).join(", ")}
    from gone group by ${NARROW_KEY}),
  taken as (update span_rollups r set ${SCALARS.map((c) => `${c} = r.${c} - s.${c}`).join(", ")},
      ${MAPS.map((c) => `${c} = rollup_map_add(r.${c}, s.${c}, -1)`).join(", ")}
    from sums s where r.project_id = $1 and r.detail = ${ROLLUP_DETAIL.summed}
      and ${NARROW_KEY.split(", ")
        .map((c) => `r.${c} = s.${c}`)
        .join(" and ")}
      and r.revision = '' and r.api_key = '' and r.user_id = '')
  select count(*)::int as n from gone`;

/**
 * Deletes the sessions, the runs and the traces of `seed` and everything that names them, in one
 * transaction of the caller (its audit entry commits with it). Runs nested in a deleted run and
 * the traces of every deleted run are added first; so are the traces whose spans carry a deleted
 * session id.
 */
export async function eraseData(tx: Transaction, projectId: string, seed: ErasureSeed): Promise<ErasureCounts> {
  const sessions = new Set(seed.sessionIds);
  const runs = new Set<string>();
  const traces = new Set(seed.traceIds);
  let frontier = await rawQuery<{ id: string; session_id: string; trace_id: string }>(
    tx,
    `select id, session_id, trace_id::uuid::text as trace_id from agent_runs
     where project_id = $1 and (session_id = any($2::text[]) or id = any($3::text[]))`,
    [projectId, [...sessions], seed.runIds],
  );
  while (frontier.length > 0) {
    for (const run of frontier) {
      runs.add(run.id);
      sessions.add(run.session_id);
      traces.add(run.trace_id);
    }
    frontier = await rawQuery(
      tx,
      `select id, session_id, trace_id::uuid::text as trace_id from agent_runs
       where project_id = $1 and (parent_run_id = any($2::text[]) or session_id = any($3::text[])) and not id = any($2::text[])`,
      [projectId, [...runs], [...sessions]],
    );
  }
  for (const { trace_id } of await rawQuery<{ trace_id: string }>(
    tx,
    `select distinct trace_id::text as trace_id from spans where project_id = $1 and session_id = any($2::text[])`,
    [projectId, [...sessions]],
  ))
    traces.add(trace_id);

  const sessionIds = [...sessions];
  const runIds = [...runs];
  const traceIds = [...traces];
  // Events name traces in their wire form (32 hex digits).
  const wireTraceIds = traceIds.map((t) => t.replaceAll("-", ""));
  const counts: ErasureCounts = {};
  counts.spans = await count(tx, `delete from spans where project_id = $1 and trace_id = any($2::uuid[]) returning 1`, [
    projectId,
    traceIds,
  ]);
  // Uploads of these traces still queued for the ingest worker (a request holding only them).
  counts.queued_span_uploads = await count(
    tx,
    `delete from span_ingest where project_id = $1 and cardinality(trace_ids) > 0 and trace_ids <@ $2::uuid[] returning 1`,
    [projectId, traceIds],
  );
  counts.run_event_batches = await count(
    tx,
    `delete from agent_run_events where run_id in (select id from agent_runs where project_id = $1 and id = any($2::text[])) returning 1`,
    [projectId, runIds],
  );
  counts.runs = await count(tx, `delete from agent_runs where project_id = $1 and id = any($2::text[]) returning 1`, [
    projectId,
    runIds,
  ]);
  counts.chat_sessions = await count(
    tx,
    `delete from chat_sessions where project_id = $1 and id = any($2::text[]) returning 1`,
    [projectId, sessionIds],
  );
  counts.tool_approvals = await count(
    tx,
    `delete from tool_approvals where project_id = $1 and (session_id = any($2::text[]) or run_id = any($3::text[])) returning 1`,
    [projectId, sessionIds, runIds],
  );
  counts.sandbox_workspaces = await count(
    tx,
    `delete from sandbox_workspaces where project_id = $1 and session_id = any($2::text[]) returning 1`,
    [projectId, sessionIds],
  );
  counts.openai_responses = await count(
    tx,
    `delete from openai_responses where project_id = $1 and session_id = any($2::text[]) returning 1`,
    [projectId, sessionIds],
  );
  // Events naming a deleted session, run or trace (run ends, trace reads), and the webhook
  // deliveries that carry their payloads.
  const events = await rawQuery<{ id: string }>(
    tx,
    `delete from events where project_id = $1 and (
       attributes->>'session_id' = any($2::text[])
       or attributes->>'run_id' = any($3::text[]) or attributes->>'parent_run_id' = any($3::text[])
       or attributes->>'continues_run_id' = any($3::text[])
       or attributes->>'trace_id' = any($4::text[]) or coalesce(attributes->'trace_ids', '[]'::jsonb) ?| $4::text[])
     returning id`,
    [projectId, sessionIds, runIds, wireTraceIds],
  );
  counts.events = events.length;
  counts.webhook_deliveries = await count(
    tx,
    `delete from webhook_deliveries where project_id = $1 and event_id = any($2::uuid[]) returning 1`,
    [projectId, events.map((e) => e.id)],
  );
  // A firing stays (its event key keeps it from firing twice); what it carried and named goes.
  counts.automation_firings_cleared = await count(
    tx,
    `update automation_deliveries set payload = null, session_id = null, run_id = null, trace_id = null
     where project_id = $1 and (session_id = any($2::text[]) or run_id = any($3::text[])) returning 1`,
    [projectId, sessionIds, runIds],
  );
  if (seed.userId !== undefined) {
    // Not through `count`: a statement with data-modifying CTEs cannot be nested in another's.
    await lockRollups(tx, [projectId]);
    counts.analytics_rollups = (await rawQuery<{ n: number }>(tx, ERASE_USER_ROLLUPS, [projectId, seed.userId]))[0].n;
  }
  return counts;
}
