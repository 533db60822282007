import { deleteRunLogsBefore, deleteRunsBefore } from "@/server/agent-runs";
import { deleteChatSessionsBefore } from "@/server/chat-sessions";
import type { AgeBatch } from "@/server/db";
import { deleteFinishedResultsBefore, deleteFinishedScenariosBefore } from "@/server/evaluations";
import { deleteFannedOutEventsBefore } from "@/server/events";
import { deleteSpansBefore } from "@/server/tracing";
import { deleteSettledWebhookDeliveriesBefore } from "@/server/webhooks";
import type { RetentionSettings } from "./retention-settings";

/**
 * One bounded delete of a kind, written by the area that owns the table: at most `limit` rows of
 * one project older than `before`, as one statement (its own short transaction), locking only the
 * rows it deletes and skipping rows a writer holds (FOR UPDATE SKIP LOCKED): a writer never waits
 * on retention, and two processes never delete the same rows. Returns the rows deleted.
 */
export type RetentionStep = AgeBatch;

/**
 * One stored kind under retention: its settings field and its steps. Steps run in order; a later
 * step waits until the earlier ones find nothing (children first, so no cascade deletes an
 * unbounded number of rows).
 */
export interface RetentionKind {
  name: string;
  field: keyof RetentionSettings;
  steps: RetentionStep[];
}

export const RETENTION_KINDS: RetentionKind[] = [
  // Spans by start time; beside the global TRACING_RETENTION_DAYS partition drop (server/tracing),
  // which stays as it is.
  { name: "traces", field: "traces_days", steps: [deleteSpansBefore] },
  // Runs by creation; a running run is never deleted (its driver still appends). Its log goes
  // first, then the run.
  { name: "runs", field: "runs_days", steps: [deleteRunLogsBefore, deleteRunsBefore] },
  // By last activity: a conversation someone continues is kept.
  { name: "chat-sessions", field: "chat_sessions_days", steps: [deleteChatSessionsBefore] },
  // Results, then scenarios (inputs, outputs) of finished evaluations; the evaluation and its
  // summary metrics stay, so a deploy rule's evidence and the history of scores remain.
  {
    name: "evaluation-results",
    field: "evaluation_results_days",
    steps: [deleteFinishedResultsBefore, deleteFinishedScenariosBefore],
  },
  // By UUIDv7 id. An event not yet fanned out is kept (its webhooks are still owed); settled
  // deliveries carry the event's payload, so they go with it.
  {
    name: "events",
    field: "events_days",
    steps: [deleteFannedOutEventsBefore, deleteSettledWebhookDeliveriesBefore],
  },
];
