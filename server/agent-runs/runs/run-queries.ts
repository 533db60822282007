import { and, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { sessionIdsOfAgent } from "@/server/chat-sessions";
import type { Executor } from "@/server/db";
import { agentRunEvents, agentRuns } from "@/server/db/schema";
import type { NativeEvent } from "@/server/streams";
import { fromLogEntries, type LogEntry } from "./log-entries";
import type { AgentRunRow, RunOrigin, RunStatus } from "./run-store";

/** Reads of the run records and their event log: one run, a list, a session's live run, the events. */

export async function findAgentRun(db: Executor, projectId: string, runId: string): Promise<AgentRunRow | undefined> {
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
export async function findAgentRunSoon(
  db: Executor,
  projectId: string,
  runId: string,
): Promise<AgentRunRow | undefined> {
  const mintedAt = parseInt(runId.replaceAll("-", "").slice(0, 12), 16);
  const recent = Number.isFinite(mintedAt) && Math.abs(Date.now() - mintedAt) < 5_000;
  for (let waited = 0; ; waited += 25) {
    const row = await findAgentRun(db, projectId, runId);
    if (row || !recent || waited >= 500) return row;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The run's status and stop reason, unscoped: only for the process that already holds its id. */
export async function runStatus(db: Executor, runId: string): Promise<AgentRunRow["status"] | undefined> {
  const [row] = await db.select({ status: agentRuns.status }).from(agentRuns).where(eq(agentRuns.id, runId));
  return row?.status;
}

export interface AgentRunFilter {
  sessionId?: string;
  /** The agent's runs, the runs of its playground draft chats included (an inline template, no agent id). */
  agentId?: string;
  status?: RunStatus[];
  origin?: RunOrigin[];
  /** The runs this run started (its nested runs); when set, `nested` does not apply. */
  parentRunId?: string;
  /** Nested runs too; by default a list holds top-level runs, each the root of its tree. */
  nested?: boolean;
}

/** Newest first; `before` is the last id of the previous page (ids are time-ordered UUIDv7). */
export async function listRuns(
  db: Executor,
  projectId: string,
  filter: AgentRunFilter,
  page: { limit: number; before?: string },
): Promise<{ items: AgentRunRow[]; next?: string }> {
  const rows = await db
    .select()
    .from(agentRuns)
    .where(
      and(
        eq(agentRuns.projectId, projectId),
        filter.sessionId ? eq(agentRuns.sessionId, filter.sessionId) : undefined,
        filter.agentId ? ofAgent(db, projectId, filter.agentId) : undefined,
        filter.status?.length ? inArray(agentRuns.status, filter.status) : undefined,
        filter.origin?.length ? inArray(agentRuns.origin, filter.origin) : undefined,
        filter.parentRunId
          ? eq(agentRuns.parentRunId, filter.parentRunId)
          : filter.nested
            ? undefined
            : isNull(agentRuns.parentRunId),
        page.before ? lt(agentRuns.id, page.before) : undefined,
      ),
    )
    .orderBy(desc(agentRuns.id))
    .limit(page.limit + 1);
  if (rows.length <= page.limit) return { items: rows };
  const items = rows.slice(0, page.limit);
  return { items, next: items[items.length - 1].id };
}

/**
 * A committed agent's runs, and the runs of its draft chats: the playground's editor chat runs
 * the unsaved template inline (no agent id on the run); what ties such a run to the agent is
 * its session, which the chat stores under the agent (server/chat-sessions).
 */
function ofAgent(db: Executor, projectId: string, agentId: string) {
  const draftSessions = sessionIdsOfAgent(db, projectId, agentId);
  return or(
    eq(agentRuns.agentId, agentId),
    and(isNull(agentRuns.agentId), eq(agentRuns.origin, "playground"), inArray(agentRuns.sessionId, draftSessions)),
  );
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

/** The run's events after `afterSeq`, each with `at`, the time its batch was written. */
export async function readRunEvents(
  db: Executor,
  runId: string,
  afterSeq = 0,
): Promise<Array<{ seq: number; event: NativeEvent; at: number }>> {
  const rows = await db
    .select({ seq: agentRunEvents.seq, events: agentRunEvents.events, writtenAt: agentRunEvents.writtenAt })
    .from(agentRunEvents)
    .where(and(eq(agentRunEvents.runId, runId), sql`${agentRunEvents.lastSeq} > ${afterSeq}`))
    .orderBy(agentRunEvents.seq);
  return rows
    .flatMap((row) =>
      fromLogEntries(row.seq, row.events as LogEntry[]).map((entry) => ({ ...entry, at: row.writtenAt.getTime() })),
    )
    .filter((entry) => entry.seq > afterSeq);
}
