import { and, eq, inArray, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Executor } from "@/server/db";
import { agentRuns } from "@/server/db/schema";
import type { RunStatus } from "./run-store";

/** What another area needs of a run it started: its status, session, trace and the agent it ran. */
export interface RunState {
  id: string;
  status: RunStatus;
  sessionId: string;
  traceId: string;
  /** The workflow (agent) and variant the run resolved to, when it ran a stored one. */
  agentId?: string;
  variantId?: string;
  /** The revision it ran (an environment's or a variant's latest, resolved when it started). */
  revisionId?: string;
}

/** The runs among `ids` (of `projectId` when given), by id; ids with no run are absent. */
export async function runStates(db: Executor, ids: string[], projectId?: string): Promise<Map<string, RunState>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: agentRuns.id,
      status: agentRuns.status,
      sessionId: agentRuns.sessionId,
      traceId: agentRuns.traceId,
      agent: agentRuns.agent,
    })
    .from(agentRuns)
    .where(and(inArray(agentRuns.id, ids), projectId ? eq(agentRuns.projectId, projectId) : undefined));
  return new Map(
    rows.map((row) => {
      const refs = (row.agent as { references?: Record<string, { id?: string }> } | null)?.references;
      const state: RunState = {
        id: row.id,
        status: row.status as RunStatus,
        sessionId: row.sessionId,
        traceId: row.traceId,
        ...(refs?.workflow?.id ? { agentId: refs.workflow.id } : {}),
        ...(refs?.workflow_variant?.id ? { variantId: refs.workflow_variant.id } : {}),
        ...(refs?.workflow_revision?.id ? { revisionId: refs.workflow_revision.id } : {}),
      };
      return [row.id, state];
    }),
  );
}

/**
 * A condition for another area's query: the run whose id is in `runId` (a column or an
 * expression of that query) exists and is `running`. It lets a caller keep to its own rows
 * (an automation's started firings) without naming this area's table.
 */
export function runIsRunning(runId: AnyColumn | SQL): SQL {
  return sql`exists (select 1 from ${agentRuns} where ${agentRuns.id} = ${runId} and ${agentRuns.status} = 'running')`;
}
