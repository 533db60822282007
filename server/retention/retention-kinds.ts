import { deleteRunLogsBefore, deleteRunsBefore } from "@/server/agent-runs";
import { deleteChatSessionsBefore } from "@/server/chat-sessions";
import type { AgeBatch, Database } from "@/server/db";
import { deleteFinishedResultsBefore, deleteFinishedScenariosBefore } from "@/server/evaluations";
import { deleteFannedOutEventsBefore } from "@/server/events";
import {
  deleteSessionBoundsBefore,
  deleteSpansBefore,
  deleteTraceBoundsBefore,
  dropPartitionsPastRetention,
} from "@/server/tracing";
import { deleteExpiredOAuthRows } from "@/server/oauth";
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
  /** The project setting that limits it; absent for a kind only `expired` deletes. */
  field?: keyof RetentionSettings;
  steps: RetentionStep[];
  /**
   * Rows past their own expiry, whatever the settings (OAuth codes and dead grants): each pass
   * first deletes at most `limit` of them; returns how many.
   */
  expired?: (db: Database, now: Date, limit: number) => Promise<number>;
  /**
   * Before the steps, drops whole what is past every one of its projects' horizons (a time
   * partition), given each limiting project's horizon (ms); returns how many it dropped.
   */
  dropWhole?: (db: Database, horizons: Map<string, number>) => Promise<number>;
}

export const RETENTION_KINDS: RetentionKind[] = [
  // Spans by start time: a day or week partition whose every project is past its horizon is
  // dropped whole, the rest deleted by rows. Beside the global TRACING_RETENTION_DAYS partition
  // drop (server/tracing), which stays as it is. Then the time bounds of the traces and sessions
  // whose every span is gone.
  {
    name: "traces",
    field: "traces_days",
    steps: [deleteSpansBefore, deleteTraceBoundsBefore, deleteSessionBoundsBefore],
    dropWhole: async (db, horizons) => (await dropPartitionsPastRetention(db, horizons)).length,
  },
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
  // OAuth codes and grants that can no longer be used (expired, or revoked by rotation or the
  // client): deleted by their own expiry, not a project setting.
  { name: "oauth-grants", steps: [], expired: deleteExpiredOAuthRows },
];
