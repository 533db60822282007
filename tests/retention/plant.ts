import { randomBytes, randomUUID } from "node:crypto";
import { rawQuery, type Database } from "@/server/db";

export const DAY_MS = 86_400_000;

/** A UUIDv7 minted at `ms` (events and deliveries are aged by their id). */
export function idAt(ms: number): string {
  // Version 7, then the RFC 9562 variant (8 to b): the service's schemas check both.
  const random = randomBytes(10).toString("hex");
  const hex = ms.toString(16).padStart(12, "0") + "7" + random.slice(0, 3) + "8" + random.slice(3, 18);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Rows of every kind under retention, dated `at` (the ages a worker judges): a finished run with
 * a two-batch event log, a chat session, a finished evaluation with a scenario and a result, a
 * fanned-out event with a settled delivery. Returns the ids, to look for afterwards.
 */
export async function plantAged(db: Database, projectId: string, agentId: string, at: Date) {
  const runId = randomUUID();
  const sessionId = `s-${randomUUID()}`;
  const evaluationId = randomUUID();
  const scenarioId = randomUUID();
  const eventId = idAt(at.getTime());
  const when = at.toISOString();
  await rawQuery(
    db,
    `insert into agent_runs (id, project_id, session_id, agent, status, format, message_id, trace_id, span_id, created_at)
     values ($1, $2, $3, '{}'::jsonb, 'finished', 'native', 'm', $4, 'aaaaaaaaaaaaaaaa', $5)`,
    [runId, projectId, sessionId, randomBytes(16).toString("hex"), when],
  );
  await rawQuery(
    db,
    `insert into agent_run_events (run_id, seq, last_seq, events) values ($1, 1, 1, '[]'::jsonb), ($1, 2, 2, '[]'::jsonb)`,
    [runId],
  );
  await rawQuery(
    db,
    `insert into chat_sessions (project_id, id, agent_id, title, messages, message_count, created_at, updated_at)
     values ($1, $2, $3, 't', '[]'::jsonb, 0, $4, $4)`,
    [projectId, sessionId, agentId, when],
  );
  await rawQuery(
    db,
    `insert into evaluation_runs (id, project_id, status, created_at) values ($1, $2, 'success', $3)`,
    [evaluationId, projectId, when],
  );
  await rawQuery(
    db,
    `insert into evaluation_scenarios (id, project_id, run_id, status, created_at) values ($1, $2, $3, 'success', $4)`,
    [scenarioId, projectId, evaluationId, when],
  );
  await rawQuery(
    db,
    `insert into evaluation_results (id, project_id, run_id, scenario_id, step_key, status, created_at)
     values ($1, $2, $3, $4, 'app', 'success', $5)`,
    [randomUUID(), projectId, evaluationId, scenarioId, when],
  );
  await rawQuery(
    db,
    `insert into events (id, project_id, event_type, timestamp, created_at, attributes, fanned_out_at)
     values ($1, $2, 'agents.runs.finished', $3, $3, '{}'::jsonb, $3)`,
    [eventId, projectId, when],
  );
  await rawQuery(
    db,
    `insert into webhook_deliveries (id, project_id, event_id, event_type, url, payload, status, created_at)
     values ($1, $2, $3, 'agents.runs.finished', 'https://example.com/', '{}', 'succeeded', $4)`,
    [idAt(at.getTime()), projectId, eventId, when],
  );
  return { runId, sessionId, evaluationId, scenarioId, eventId };
}

/** Rows per table for the project (the evaluation tables through their run). */
export async function countRows(db: Database, projectId: string): Promise<Record<string, number>> {
  const [row] = await rawQuery<Record<string, number>>(
    db,
    `select
       (select count(*)::int from spans where project_id = $1) as spans,
       (select count(*)::int from agent_runs where project_id = $1) as runs,
       (select count(*)::int from agent_run_events e join agent_runs r on r.id = e.run_id where r.project_id = $1) as run_events,
       (select count(*)::int from chat_sessions where project_id = $1) as chat_sessions,
       (select count(*)::int from evaluation_runs where project_id = $1) as evaluations,
       (select count(*)::int from evaluation_scenarios where project_id = $1) as scenarios,
       (select count(*)::int from evaluation_results where project_id = $1) as results,
       (select count(*)::int from events where project_id = $1) as events,
       (select count(*)::int from webhook_deliveries where project_id = $1) as deliveries`,
    [projectId],
  );
  return row;
}
