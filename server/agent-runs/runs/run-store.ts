import { and, desc, eq, inArray, lt, lte, sql } from "drizzle-orm";
import { rawQuery, type Executor } from "@/server/db";
import { agentRunEvents, agentRuns } from "@/server/db/schema";
import { emitEvent } from "@/server/events";
import type { NativeEvent, RunUsage } from "@/server/streams";
import type { Principal } from "@/server/auth";
import type { InvokeRequest } from "../invoke/invoke-request";
import type { RunAgent } from "../run-agent";
import { fromLogEntries, type LogEntry } from "./log-entries";
import { noticeRun, RUN_EVENTS_CHANNEL } from "./run-wakeups";

export type RunRow = typeof agentRuns.$inferSelect;
export type RunStatus = "running" | "finished" | "failed" | "paused" | "cancelled";
export const RUN_STATUSES: readonly RunStatus[] = ["running", "finished", "failed", "paused", "cancelled"];

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
  leaseOwner: string;
  leaseMs: number;
  /** When the turn started; the row may be written later (with the run's first batch). */
  createdAt?: Date;
  /** What a takeover needs to prepare the turn again; absent for runs that cannot be continued. */
  request?: RunRequest;
}

/** The invoke request as a run records it, so any process can prepare the turn again. */
export interface RunRequest {
  principal: Omit<Principal, "projectId">;
  body: InvokeRequest;
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
  };
  return db.insert(agentRuns).values(ended ? { ...row, ...endedColumns(ended) } : row);
}

export async function insertRun(db: Executor, run: NewRun): Promise<void> {
  await runRowInsert(db, run);
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
    let row: Pick<RunRow, "projectId" | "sessionId" | "traceId" | "agent"> | undefined;
    if (run) {
      if (tail) await appendEvents(tx, runId, tail, run, end);
      else await runRowInsert(tx, run, end);
      row = run;
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
        references: (row.agent as RunAgent).references ?? null,
      },
    });
    return true;
  });
}

export async function findRun(db: Executor, projectId: string, runId: string): Promise<RunRow | undefined> {
  const [row] = await db
    .select()
    .from(agentRuns)
    .where(and(eq(agentRuns.projectId, projectId), eq(agentRuns.id, runId)));
  return row;
}

/**
 * A run the caller may have just been told about: its row is written with the run's first batch
 * (tens of ms after the first byte), so an id minted in the last few seconds (UUIDv7 carries its
 * time) is looked for again for a moment before it counts as unknown.
 */
export async function findRunSoon(db: Executor, projectId: string, runId: string): Promise<RunRow | undefined> {
  const mintedAt = parseInt(runId.replaceAll("-", "").slice(0, 12), 16);
  const recent = Number.isFinite(mintedAt) && Math.abs(Date.now() - mintedAt) < 5_000;
  for (let waited = 0; ; waited += 25) {
    const row = await findRun(db, projectId, runId);
    if (row || !recent || waited >= 500) return row;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The run's status and stop reason, unscoped: only for the process that already holds its id. */
export async function runStatus(db: Executor, runId: string): Promise<RunRow["status"] | undefined> {
  const [row] = await db.select({ status: agentRuns.status }).from(agentRuns).where(eq(agentRuns.id, runId));
  return row?.status;
}

export interface RunFilter {
  sessionId?: string;
  agentId?: string;
  status?: RunStatus[];
}

/** Newest first; `before` is the last id of the previous page (ids are time-ordered UUIDv7). */
export async function listRuns(
  db: Executor,
  projectId: string,
  filter: RunFilter,
  page: { limit: number; before?: string },
): Promise<{ items: RunRow[]; next?: string }> {
  const rows = await db
    .select()
    .from(agentRuns)
    .where(
      and(
        eq(agentRuns.projectId, projectId),
        filter.sessionId ? eq(agentRuns.sessionId, filter.sessionId) : undefined,
        filter.agentId ? eq(agentRuns.agentId, filter.agentId) : undefined,
        filter.status?.length ? inArray(agentRuns.status, filter.status) : undefined,
        page.before ? lt(agentRuns.id, page.before) : undefined,
      ),
    )
    .orderBy(desc(agentRuns.id))
    .limit(page.limit + 1);
  if (rows.length <= page.limit) return { items: rows };
  const items = rows.slice(0, page.limit);
  return { items, next: items[items.length - 1].id };
}

/** The session's newest run, when it is still running: what a chat reconnect follows. */
export async function activeRunOfSession(db: Executor, projectId: string, sessionId: string) {
  const [row] = await db
    .select()
    .from(agentRuns)
    .where(and(eq(agentRuns.projectId, projectId), eq(agentRuns.sessionId, sessionId)))
    .orderBy(desc(agentRuns.id))
    .limit(1);
  return row?.status === "running" ? row : undefined;
}

export async function readRunEvents(
  db: Executor,
  runId: string,
  afterSeq = 0,
): Promise<Array<{ seq: number; event: NativeEvent }>> {
  const rows = await db
    .select({ seq: agentRunEvents.seq, events: agentRunEvents.events })
    .from(agentRunEvents)
    .where(and(eq(agentRunEvents.runId, runId), sql`${agentRunEvents.lastSeq} > ${afterSeq}`))
    .orderBy(agentRunEvents.seq);
  return rows
    .flatMap((row) => fromLogEntries(row.seq, row.events as LogEntry[]))
    .filter((entry) => entry.seq > afterSeq);
}

/** Marks a running run for cancellation; returns false when it has already ended. */
export async function requestCancel(db: Executor, projectId: string, runId: string): Promise<boolean> {
  const rows = await db
    .update(agentRuns)
    .set({ cancelRequestedAt: sql`coalesce(${agentRuns.cancelRequestedAt}, now())` })
    .where(and(eq(agentRuns.projectId, projectId), eq(agentRuns.id, runId), eq(agentRuns.status, "running")))
    .returning({ id: agentRuns.id });
  return rows.length > 0;
}

/** Extends the lease of a run this process drives; returns whether a cancel was asked for meanwhile. */
export async function renewLease(
  db: Executor,
  runId: string,
  owner: string,
  leaseMs: number,
): Promise<{ cancelRequested: boolean } | undefined> {
  const [row] = await db
    .update(agentRuns)
    .set({ leaseExpiresAt: new Date(Date.now() + leaseMs) })
    .where(and(eq(agentRuns.id, runId), eq(agentRuns.leaseOwner, owner), eq(agentRuns.status, "running")))
    .returning({ cancelRequestedAt: agentRuns.cancelRequestedAt });
  return row ? { cancelRequested: row.cancelRequestedAt !== null } : undefined;
}

/** Running runs whose lease ran out (their process died): claimed one at a time by the sweep. */
export async function expiredRuns(db: Executor, now: Date, limit: number): Promise<RunRow[]> {
  return db
    .select()
    .from(agentRuns)
    .where(and(eq(agentRuns.status, "running"), lte(agentRuns.leaseExpiresAt, now)))
    .limit(limit);
}
