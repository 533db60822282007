import { eraseRuns, eraseToolApprovals, runsLinkedTo } from "@/server/agent-runs";
import { clearFiringsOf } from "@/server/automations";
import { eraseChatSessions } from "@/server/chat-sessions";
import type { Transaction } from "@/server/db";
import { eraseEventsNaming } from "@/server/events";
import { eraseSessionResponses } from "@/server/openai-compat";
import { eraseSessionWorkspaces } from "@/server/sandbox";
import { eraseTraces, eraseUserRollups, tracesOfSessions } from "@/server/tracing";
import { eraseWebhookDeliveriesOf } from "@/server/webhooks";

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

/**
 * Deletes the sessions, the runs and the traces of `seed` and everything that names them, in one
 * transaction of the caller (its audit entry commits with it). Runs nested in a deleted run and
 * the traces of every deleted run are added first; so are the traces whose spans carry a deleted
 * session id. Each owning area erases its own rows (through its index.ts); the counts are named
 * here, in the order the answer and the audit entry give them.
 */
export async function eraseData(tx: Transaction, projectId: string, seed: ErasureSeed): Promise<ErasureCounts> {
  const linked = await runsLinkedTo(tx, projectId, seed);
  const sessionIds = linked.sessionIds;
  const runIds = linked.runIds;
  const traceIds = [
    ...new Set([...seed.traceIds, ...linked.traceIds, ...(await tracesOfSessions(tx, projectId, sessionIds))]),
  ];
  const counts: ErasureCounts = {};
  // Spans, and uploads of these traces still queued for the ingest worker (a request holding only them).
  const traces = await eraseTraces(tx, projectId, traceIds);
  counts.spans = traces.spans;
  counts.queued_span_uploads = traces.queuedUploads;
  const runs = await eraseRuns(tx, projectId, runIds);
  counts.run_event_batches = runs.eventBatches;
  counts.runs = runs.runs;
  counts.chat_sessions = await eraseChatSessions(tx, projectId, sessionIds);
  counts.tool_approvals = await eraseToolApprovals(tx, projectId, { sessionIds, runIds });
  counts.sandbox_workspaces = await eraseSessionWorkspaces(tx, projectId, sessionIds);
  counts.openai_responses = await eraseSessionResponses(tx, projectId, sessionIds);
  // Events naming a deleted session, run or trace (run ends, trace reads), and the webhook
  // deliveries that carry their payloads.
  const eventIds = await eraseEventsNaming(tx, projectId, { sessionIds, runIds, traceIds });
  counts.events = eventIds.length;
  counts.webhook_deliveries = await eraseWebhookDeliveriesOf(tx, projectId, eventIds);
  // A firing stays (its event key keeps it from firing twice); what it carried and named goes.
  counts.automation_firings_cleared = await clearFiringsOf(tx, projectId, { sessionIds, runIds });
  if (seed.userId !== undefined) counts.analytics_rollups = await eraseUserRollups(tx, projectId, seed.userId);
  return counts;
}
