import type { RetentionSettings } from "./retention-settings";

/**
 * One stored kind under retention: its settings field and the statements that delete what is past
 * its age. Each statement deletes at most `$3` rows of one project (`$1`) older than `$2`, as its
 * own short transaction, and locks only the rows it deletes, skipping rows a writer holds (FOR
 * UPDATE SKIP LOCKED): a writer never waits on retention, and two processes never delete the same
 * rows. Steps run in order; a later step waits until the earlier ones find nothing (children
 * first, so no cascade deletes an unbounded number of rows).
 */
export interface RetentionKind {
  name: string;
  field: keyof RetentionSettings;
  steps: string[];
}

/** The least UUIDv7 minted at `$2` or later: ids below it were minted before. */
const ID_FLOOR = `(lpad(to_hex((extract(epoch from $2::timestamptz) * 1000)::bigint), 12, '0') || repeat('0', 20))::uuid`;

const counted = (statement: string) =>
  `with deleted as (${statement} returning 1) select count(*)::int as n from deleted`;

export const RETENTION_KINDS: RetentionKind[] = [
  {
    // Beside the global TRACING_RETENTION_DAYS partition drop (server/tracing), which stays as it is.
    name: "traces",
    field: "traces_days",
    steps: [
      counted(`delete from spans where (project_id, trace_id, span_id, start_time) in (
        select project_id, trace_id, span_id, start_time from spans
        where project_id = $1 and start_time < $2 limit $3 for update skip locked)`),
    ],
  },
  {
    // A running run is never deleted (its driver still appends); its log goes first, then the run.
    name: "runs",
    field: "runs_days",
    steps: [
      counted(`delete from agent_run_events where (run_id, seq) in (
        select e.run_id, e.seq from agent_runs r join agent_run_events e on e.run_id = r.id
        where r.project_id = $1 and r.created_at < $2 and r.status <> 'running'
        limit $3 for update of e skip locked)`),
      counted(`delete from agent_runs where id in (
        select r.id from agent_runs r
        where r.project_id = $1 and r.created_at < $2 and r.status <> 'running'
          and not exists (select 1 from agent_run_events e where e.run_id = r.id)
        limit $3 for update skip locked)`),
    ],
  },
  {
    // By last activity: a conversation someone continues is kept.
    name: "chat-sessions",
    field: "chat_sessions_days",
    steps: [
      counted(`delete from chat_sessions where (project_id, id) in (
        select project_id, id from chat_sessions where project_id = $1 and updated_at < $2
        limit $3 for update skip locked)`),
    ],
  },
  {
    // Results and scenarios (inputs, outputs) of finished evaluations; the evaluation and its
    // summary metrics stay, so a deploy rule's evidence and the history of scores remain.
    name: "evaluation-results",
    field: "evaluation_results_days",
    steps: [
      counted(`delete from evaluation_results where id in (
        select res.id from evaluation_runs r join evaluation_results res on res.run_id = r.id
        where r.project_id = $1 and r.created_at < $2 and r.status not in ('pending', 'queued', 'running')
        limit $3 for update of res skip locked)`),
      counted(`delete from evaluation_scenarios where id in (
        select s.id from evaluation_runs r join evaluation_scenarios s on s.run_id = r.id
        where r.project_id = $1 and r.created_at < $2 and r.status not in ('pending', 'queued', 'running')
          and not exists (select 1 from evaluation_results res where res.scenario_id = s.id)
        limit $3 for update of s skip locked)`),
    ],
  },
  {
    // Ids are UUIDv7, so "older than" is an id range on the project's index. An event not yet
    // fanned out is kept (its webhooks are still owed); settled deliveries carry the event's
    // payload, so they go with it.
    name: "events",
    field: "events_days",
    steps: [
      counted(`delete from events where id in (
        select id from events where project_id = $1 and id < ${ID_FLOOR} and fanned_out_at is not null
        order by id limit $3 for update skip locked)`),
      counted(`delete from webhook_deliveries where id in (
        select id from webhook_deliveries where project_id = $1 and id < ${ID_FLOOR} and status <> 'pending'
        order by id limit $3 for update skip locked)`),
    ],
  },
];
