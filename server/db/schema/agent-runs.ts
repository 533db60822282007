import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { projects } from "./auth-tenancy";

/**
 * One row per agent turn (server/agent-runs/runs): who ran (the agent's references), in which
 * session, how it ended, and the lease of the process that drives it. `status` is `running`,
 * `finished`, `failed`, `paused` or `cancelled`; `format` and `message_id` let any process replay
 * the turn in the shape its client asked for.
 */
export const agentRuns = pgTable(
  "agent_runs",
  {
    id: text("id").primaryKey(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    sessionId: text("session_id").notNull(),
    /** The workflow (artifact) id of a committed agent; null for an inline template. */
    agentId: uuid("agent_id"),
    agent: jsonb("agent").notNull(),
    status: text("status").notNull(),
    format: text("format").notNull(),
    messageId: text("message_id").notNull(),
    background: boolean("background").notNull().default(false),
    traceId: text("trace_id").notNull(),
    /** The run's own span (`invoke_agent`), as the invoke answer's `traceparent` named it. */
    spanId: text("span_id").notNull(),
    stopReason: text("stop_reason"),
    usage: jsonb("usage"),
    error: text("error"),
    eventCount: integer("event_count").notNull().default(0),
    createdAt: ts("created_at").notNull().defaultNow(),
    endedAt: ts("ended_at"),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: ts("lease_expires_at"),
    cancelRequestedAt: ts("cancel_requested_at"),
    /**
     * What another process needs to take the run over after a crash (`runs/take-over-run.ts`):
     * the invoke body (its input messages included) and who sent it. Null for runs recorded
     * before it existed; those are failed, not continued.
     */
    request: jsonb("request"),
    /**
     * Where the turn came from: `invoke` (the agent API), `playground` (the chat), `openai` (the
     * `/v1` door) or `nested` (a workflow run inside a reference tool call). Runs recorded before
     * the column read `invoke`.
     */
    origin: text("origin").notNull().default("invoke"),
    /** A nested run's calling run (the run whose tool call ran it); null for a top-level run. */
    parentRunId: text("parent_run_id"),
    /**
     * The paused run this run continues: its input answered that run's approval requests
     * (`tool_approvals.run_id`). Null for a run that starts fresh.
     */
    continuesRunId: text("continues_run_id"),
  },
  (t) => [
    index("agent_runs_session_idx").on(t.projectId, t.sessionId, t.createdAt),
    index("agent_runs_project_idx").on(t.projectId, t.createdAt),
    index("agent_runs_running_idx").on(t.status, t.leaseExpiresAt),
    index("agent_runs_parent_idx").on(t.parentRunId),
  ],
);

/**
 * The run's native events in order, one row per appended batch: `seq` is the position of its first
 * event (from 1), `last_seq` of its last, `events` the batch as a JSON array of entries: an event, or
 * consecutive deltas of one block as `{type, id, deltas: [...]}`, one position per delta
 * (server/agent-runs/runs/log-entries.ts). A batch per row keeps the log's writes to a few
 * statements per turn (the writer flushes every few tens of ms).
 */
export const agentRunEvents = pgTable(
  "agent_run_events",
  {
    runId: text("run_id")
      .notNull()
      .references(() => agentRuns.id, { onDelete: "cascade" }),
    seq: bigint("seq", { mode: "number" }).notNull(),
    lastSeq: bigint("last_seq", { mode: "number" }).notNull(),
    events: jsonb("events").notNull(),
    /** When the batch was written (the database's clock): a takeover dates the dead process's steps by it. */
    writtenAt: ts("written_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);

/**
 * Approval requests a paused turn issued. An answer counts only when its id is here, still
 * `pending`, and names the same tool call, tool and canonical arguments; consuming it flips it to
 * `used`, so a forged, altered or replayed decision never runs the tool. An answer out of band
 * (`POST /api/sessions/interactions/{id}/respond`) claims it first (`responding`), and the turn it
 * starts settles it (`responded`); `expired` once past AGENT_APPROVAL_TTL_MS.
 */
export const toolApprovals = pgTable("tool_approvals", {
  id: text("id").primaryKey(),
  projectId: uuid("project_id")
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" }),
  sessionId: text("session_id").notNull(),
  toolCallId: text("tool_call_id").notNull(),
  toolName: text("tool_name").notNull(),
  argsHash: text("args_hash").notNull(),
  status: text("status").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
  /** The run that paused for this request: the run that answers it continues that one. */
  runId: text("run_id"),
  /**
   * An answer out of band: when it was claimed (`responding`) and the id minted then for the run
   * that continues with it, so a claim whose process died before recording that run can be taken
   * up again, and one whose run exists is not started twice.
   */
  claimedAt: ts("claimed_at"),
  continuationRunId: text("continuation_run_id"),
});
