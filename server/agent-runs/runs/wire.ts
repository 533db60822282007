import { z } from "zod";
import { batchOutputsSchema, foldBatch, type NativeEvent } from "@/server/streams";
import type { RunAgent } from "../run-agent";
import type { LoggedEvent } from "./follow-run";
import { RUN_ORIGINS, type RunOrigin, type AgentRunRow } from "./run-store";

const usageSchema = z.strictObject({
  input: z.number(),
  output: z.number(),
  total: z.number(),
  cost: z.number().optional(),
});

export const runWireSchema = z.strictObject({
  id: z.string(),
  session_id: z.string(),
  agent: z.strictObject({
    name: z.string().nullable(),
    references: z.record(z.string(), z.unknown()).nullable(),
  }),
  status: z.enum(["running", "finished", "failed", "paused", "cancelled"]),
  stop_reason: z.string().nullable(),
  error: z.string().nullable(),
  usage: usageSchema.nullable(),
  trace_id: z.string(),
  /** The paused run this run continues (its input answered that run's approval requests). */
  continues_run_id: z.string().nullable(),
  background: z.boolean(),
  origin: z
    .enum(RUN_ORIGINS as [RunOrigin, ...RunOrigin[]])
    .describe(
      "Where the run came from: invoke (the agent API), playground (the chat), openai (the /v1 door), nested (a workflow run inside a reference tool call), automation (a schedule, event or inbound trigger firing)",
    ),
  parent_run_id: z.string().nullable().describe("A nested run's calling run; null for a top-level run"),
  event_count: z.number().int(),
  created_at: z.string(),
  ended_at: z.string().nullable(),
  duration_ms: z.number().nullable(),
  cancel_requested_at: z.string().nullable(),
  lease: z.strictObject({ owner: z.string(), expires_at: z.string() }).nullable(),
});

export type RunWire = z.output<typeof runWireSchema>;

export function runToWire(row: AgentRunRow): RunWire {
  const agent = row.agent as RunAgent;
  return {
    id: row.id,
    session_id: row.sessionId,
    agent: { name: agent.name ?? null, references: agent.references ?? null },
    status: row.status as RunWire["status"],
    stop_reason: row.stopReason,
    error: row.error,
    usage: (row.usage as RunWire["usage"]) ?? null,
    trace_id: row.traceId,
    continues_run_id: row.continuesRunId,
    background: row.background,
    origin: row.origin as RunOrigin,
    parent_run_id: row.parentRunId,
    event_count: row.eventCount,
    created_at: row.createdAt.toISOString(),
    ended_at: row.endedAt?.toISOString() ?? null,
    duration_ms: row.endedAt ? row.endedAt.getTime() - row.createdAt.getTime() : null,
    cancel_requested_at: row.cancelRequestedAt?.toISOString() ?? null,
    lease:
      row.leaseOwner && row.leaseExpiresAt
        ? { owner: row.leaseOwner, expires_at: row.leaseExpiresAt.toISOString() }
        : null,
  };
}

export const runListSchema = z.strictObject({
  count: z.number().int(),
  runs: z.array(runWireSchema),
  next: z.string().optional(),
});

const loggedEventSchema = z.strictObject({
  seq: z.number().int(),
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
});

/** A run with its event log (native frames with their `seq`) and the turn folded as batch outputs. */
export const runDetailSchema = z.strictObject({
  run: runWireSchema,
  events: z.array(loggedEventSchema),
  outputs: batchOutputsSchema,
});

export function runDetail(row: AgentRunRow, logged: LoggedEvent[]) {
  const events: NativeEvent[] = logged.map((entry) => entry.event);
  return {
    run: runToWire(row),
    events: logged.map(({ seq, event: { type, ...data } }) => ({ seq, type, data })),
    outputs: foldBatch(events),
  };
}
