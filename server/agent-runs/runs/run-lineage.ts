import { and, desc, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { agentRuns, toolApprovals } from "@/server/db/schema";
import type { NativeMessage, RunUsage } from "@/server/streams";
import type { TraceContext } from "../trace-context";

export interface ContinuedRun {
  id: string;
  traceId: string;
  spanId: string;
  /** Its usage: the continuing run's turn is the sum of both. */
  usage: RunUsage | null;
}

/** The approval requests a turn's input answers (approved or denied): their ids, as issued. */
export function answeredApprovals(messages: NativeMessage[]): string[] {
  const tokens = new Set<string>();
  for (const message of messages)
    for (const block of message.content)
      if (block.type === "tool_result" && block.approved !== undefined && block.interactionToken)
        tokens.add(block.interactionToken);
  return [...tokens];
}

/**
 * The paused run a turn continues: the run that issued the approval requests its input answers
 * (`tool_approvals.run_id`), in the same project and session; the newest when several did. A
 * forged or unknown id names no run (the answer itself is refused later, by `ApprovalStore`).
 */
export async function continuedRun(
  db: Executor,
  projectId: string,
  sessionId: string | undefined,
  messages: NativeMessage[],
): Promise<ContinuedRun | undefined> {
  const tokens = answeredApprovals(messages);
  if (!sessionId || !tokens.length) return undefined;
  const [row] = await db
    .select({ id: agentRuns.id, traceId: agentRuns.traceId, spanId: agentRuns.spanId, usage: agentRuns.usage })
    .from(toolApprovals)
    .innerJoin(agentRuns, eq(agentRuns.id, toolApprovals.runId))
    .where(
      and(
        inArray(toolApprovals.id, tokens),
        eq(toolApprovals.projectId, projectId),
        eq(toolApprovals.sessionId, sessionId),
        eq(agentRuns.projectId, projectId),
      ),
    )
    .orderBy(desc(agentRuns.id))
    .limit(1);
  return row && { ...row, usage: (row.usage as RunUsage | null) ?? null };
}

/**
 * The continuing run's trace: the caller's when it sent a `traceparent` (its own trace wins; the
 * root names the continued run in `ag.meta.run.continues_run_id`), else the paused run's trace,
 * the new root a child of the paused run's root.
 */
export function continuingTrace(own: TraceContext, continued: ContinuedRun | undefined): TraceContext {
  if (!continued || own.parentSpanId) return own;
  return { traceId: continued.traceId, spanId: own.spanId, parentSpanId: continued.spanId };
}
