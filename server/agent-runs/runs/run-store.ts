import { and, eq } from "drizzle-orm";
import { rawQuery, type Executor } from "@/server/db";
import { agentRuns } from "@/server/db/schema";
import { emitEvent } from "@/server/events";
import type { RunUsage } from "@/server/streams";
import type { Principal } from "@/server/auth";
import type { InvokeRequest } from "../invoke/invoke-request";
import type { RunAgent } from "../run-agent";
import type { Sampling } from "../sampling";
import { noticeRun, RUN_EVENTS_CHANNEL } from "./run-wakeups";

export type AgentRunRow = typeof agentRuns.$inferSelect;
export type RunStatus = "running" | "finished" | "failed" | "paused" | "cancelled";
export const RUN_STATUSES: readonly RunStatus[] = ["running", "finished", "failed", "paused", "cancelled"];
/**
 * Where a run came from: the agent API, the playground chat, the OpenAI-compatible door, a
 * reference tool call, an automation firing (server/automations), an MCP tool call (server/mcp-door), an A2A task (server/a2a).
 */
export type RunOrigin = "invoke" | "playground" | "openai" | "nested" | "automation" | "mcp" | "a2a";
export const RUN_ORIGINS: readonly RunOrigin[] = [
  "invoke",
  "playground",
  "openai",
  "nested",
  "automation",
  "mcp",
  "a2a",
];

export interface NewRun {
  id: string;
  projectId: string;
  sessionId: string;
  agent: RunAgent;
  format: string;
  messageId: string;
  traceId: string;
  spanId: string;
  background: boolean;
  origin: RunOrigin;
  /** The run whose tool call started this one (a nested run). */
  parentRunId?: string;
  leaseOwner: string;
  leaseMs: number;
  /** When the turn started; the row may be written later (with the run's first batch). */
  createdAt?: Date;
  /** What a takeover needs to prepare the turn again; absent for runs that cannot be continued. */
  request?: RunRequest;
  /** The paused run this one continues (`run-lineage.ts`). */
  continuesRunId?: string;
}

/** The invoke request as a run records it, so any process can prepare the turn again. */
export interface RunRequest {
  principal: Omit<Principal, "projectId">;
  body: InvokeRequest;
  /** The root's parent span (the caller's `traceparent`, or the continued run's root), for a takeover's trace. */
  parentSpanId?: string;
  /**
   * Approval requests answered out of band that this run continues with
   * (`PrepareOptions.claimedApprovals`): a takeover may settle them too, or the approved call
   * would be asked about anew.
   */
  claimedApprovals?: string[];
  /** A prompt application's generation settings, when the body holds it as an inline template. */
  sampling?: Sampling;
  /** Who runs, when the inline template stands for a committed artifact (a prompt application). */
  agent?: RunAgent;
  /** A split environment's sticky key when it is not the session id (which a takeover falls back to). */
  splitKey?: string;
}

/**
 * The request as a run records it, so a takeover prepares the same turn: who asked, the body (its
 * session fixed), the root's parent span, and what the turn was prepared with besides its body,
 * only what was given: requests answered out of band, a prompt application's sampling and name,
 * a split key other than the session (which a takeover falls back to).
 */
export function recordedRequest(
  principal: Omit<Principal, "projectId">,
  body: InvokeRequest,
  sessionId: string,
  parentSpanId: string | undefined,
  prepared: Pick<RunRequest, "sampling" | "agent" | "splitKey"> & { claimedApprovals?: readonly string[] },
): RunRequest {
  return {
    principal: { userId: principal.userId, role: principal.role, apiKeyId: principal.apiKeyId },
    body: { ...body, session_id: sessionId },
    parentSpanId,
    ...(prepared.claimedApprovals?.length ? { claimedApprovals: [...prepared.claimedApprovals] } : {}),
    ...(prepared.sampling ? { sampling: prepared.sampling } : {}),
    ...(prepared.agent ? { agent: prepared.agent } : {}),
    ...(prepared.splitKey && prepared.splitKey !== sessionId ? { splitKey: prepared.splitKey } : {}),
  };
}

/** How a run ended. */
export interface RunEnd {
  stopReason: string;
  usage?: RunUsage;
  error?: string;
  eventCount: number;
}

function endedColumns(end: RunEnd) {
  return {
    status: statusOf(end.stopReason),
    stopReason: end.stopReason,
    usage: end.usage ?? null,
    error: end.error ?? null,
    eventCount: end.eventCount,
    endedAt: new Date(),
    leaseOwner: null,
    leaseExpiresAt: null,
  };
}

/**
 * The insert of a run's row, running or, with `ended`, already ended (a run whose first write
 * is its end); also the head of a run's first append (`appendEvents`).
 */
function runRowInsert(db: Executor, run: NewRun, ended?: RunEnd) {
  const now = Date.now();
  const row = {
    id: run.id,
    projectId: run.projectId,
    sessionId: run.sessionId,
    agentId: run.agent.references?.workflow?.id ?? null,
    agent: run.agent,
    status: "running",
    format: run.format,
    messageId: run.messageId,
    background: run.background,
    traceId: run.traceId,
    spanId: run.spanId,
    createdAt: run.createdAt ?? new Date(now),
    leaseOwner: run.leaseOwner,
    leaseExpiresAt: new Date(now + run.leaseMs),
    request: run.request ?? null,
    origin: run.origin,
    parentRunId: run.parentRunId ?? null,
    continuesRunId: run.continuesRunId ?? null,
  };
  return db.insert(agentRuns).values(ended ? { ...row, ...endedColumns(ended) } : row);
}

export async function insertAgentRun(db: Executor, run: NewRun): Promise<void> {
  await runRowInsert(db, run);
}

/** Inserts a run's row unless one with its id exists; whether this call inserted it. */
export async function insertAgentRunOnce(db: Executor, run: NewRun): Promise<boolean> {
  const inserted = await runRowInsert(db, run)
    .onConflictDoNothing({ target: agentRuns.id })
    .returning({ id: agentRuns.id });
  return inserted.length === 1;
}

/** A batch for the event log: positions `seq`..`lastSeq`, its entries (`toLogEntries`) as JSON text. */
export interface StoredBatch {
  seq: number;
  lastSeq: number;
  json: string;
}

const APPEND_VALUES = (from: number) =>
  `insert into agent_run_events (run_id, seq, last_seq, events) values ($${from}, $${from + 1}, $${from + 2}, $${from + 3}::text::jsonb)`;
// Hand-written so a batch costs one statement and no query building: the insert and the
// followers' notification together (delivered when the statement, or its transaction, commits).
const APPEND_SQL = `with appended as (${APPEND_VALUES(1)}) select pg_notify($5, $1)`;

/**
 * Appends a batch to the run's log and notifies its followers, in one statement. With `run`, the
 * same statement inserts the run's row first (the first write of a new run), ended with `ended`.
 */
export async function appendEvents(
  db: Executor,
  runId: string,
  batch: StoredBatch,
  run?: NewRun,
  ended?: RunEnd,
): Promise<void> {
  const values = [runId, batch.seq, batch.lastSeq, batch.json, RUN_EVENTS_CHANNEL];
  if (!run) {
    await rawQuery(db, APPEND_SQL, values);
    return;
  }
  const row = runRowInsert(db, run, ended).toSQL();
  const n = row.params.length;
  await rawQuery(
    db,
    `with run as (${row.sql}), appended as (${APPEND_VALUES(n + 1)}) select pg_notify($${n + 5}, $${n + 1})`,
    [...row.params, ...values],
  );
}

/** A turn's stop reason as the run's status. */
export function statusOf(stopReason: string): Exclude<RunStatus, "running"> {
  if (stopReason === "paused") return "paused";
  if (stopReason === "cancelled") return "cancelled";
  if (stopReason === "error" || stopReason === "permission_required" || stopReason === "interrupted") return "failed";
  return "finished";
}

const OUTBOX_TYPE: Record<Exclude<RunStatus, "running">, string> = {
  finished: "agents.runs.finished",
  cancelled: "agents.runs.finished",
  failed: "agents.runs.failed",
  paused: "agents.runs.paused",
};

/**
 * Ends a running run and writes its outbox event in the same transaction, so a webhook fires
 * exactly when the run's end is recorded; the log's last batch (`tail`) goes in with them, and
 * the followers are notified at the commit. With `run` (a run nothing was written for yet), its
 * row is inserted already ended instead. A run already ended (the sweep got there first) stays
 * as it was; returns whether this call ended it.
 */
export async function endRun(
  db: Executor,
  runId: string,
  end: RunEnd,
  tail?: StoredBatch,
  run?: NewRun,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    let row:
      | Pick<AgentRunRow, "projectId" | "sessionId" | "traceId" | "agent" | "origin" | "parentRunId" | "continuesRunId">
      | undefined;
    if (run) {
      if (tail) await appendEvents(tx, runId, tail, run, end);
      else await runRowInsert(tx, run, end);
      row = { ...run, parentRunId: run.parentRunId ?? null, continuesRunId: run.continuesRunId ?? null };
    } else {
      if (tail) await appendEvents(tx, runId, tail);
      [row] = await tx
        .update(agentRuns)
        .set(endedColumns(end))
        .where(and(eq(agentRuns.id, runId), eq(agentRuns.status, "running")))
        .returning({
          projectId: agentRuns.projectId,
          sessionId: agentRuns.sessionId,
          traceId: agentRuns.traceId,
          agent: agentRuns.agent,
          origin: agentRuns.origin,
          parentRunId: agentRuns.parentRunId,
          continuesRunId: agentRuns.continuesRunId,
        });
    }
    if (!tail) await noticeRun(tx, RUN_EVENTS_CHANNEL, runId);
    if (!row) return false;
    const status = statusOf(end.stopReason);
    await emitEvent(tx, {
      projectId: row.projectId,
      type: OUTBOX_TYPE[status],
      attributes: {
        run_id: runId,
        session_id: row.sessionId,
        trace_id: row.traceId,
        status,
        stop_reason: end.stopReason,
        usage: end.usage ?? null,
        ...(row.continuesRunId ? { continues_run_id: row.continuesRunId } : {}),
        references: (row.agent as RunAgent).references ?? null,
        // An integration tells a turn someone started from a nested one (or a door's) by these.
        origin: row.origin,
        parent_run_id: row.parentRunId,
      },
    });
    return true;
  });
}
