import { and, desc, eq, gt, inArray, lt, lte, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { BadRequestError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { toolApprovals } from "@/server/db/schema";
import { readRunEvents } from "../runs/run-queries";

/**
 * Approval requests (`tool_approvals` rows) seen as the reference implementation's session
 * interactions (`/api/sessions/interactions`). The row's `status` maps to the interaction's:
 * - `pending` (within AGENT_APPROVAL_TTL_MS of the request) -> `pending`;
 * - `responding` (answered out of band, its continuation not yet settled) and `responded`
 *   (settled by it) -> `responded`;
 * - `used` (answered in band: a turn that named it) -> `resolved`;
 * - `expired`, or `pending` past AGENT_APPROVAL_TTL_MS (no answer can be accepted any more) -> `cancelled`.
 */
export const INTERACTION_STATUSES = ["pending", "responded", "resolved", "cancelled"] as const;
export type InteractionStatus = (typeof INTERACTION_STATUSES)[number];
export const INTERACTION_KINDS = ["user_approval", "user_input", "client_tool"] as const;

type ApprovalRow = typeof toolApprovals.$inferSelect;

export const interactionWireSchema = z.strictObject({
  id: z.string(),
  session_id: z.string(),
  kind: z.literal("user_approval"),
  status: z.enum(INTERACTION_STATUSES),
  /** The paused run that issued the request. */
  run_id: z.string().optional(),
  data: z.strictObject({
    request: z.strictObject({
      tool: z.string(),
      /** As the issuing run's log holds them; absent when that log is gone. */
      args: z.unknown().optional(),
      tool_call_id: z.string(),
    }),
    /**
     * Of a request answered out of band (`responded`): the run continuing with the answer. The
     * verdict and the message are only in respond's answer: they are not stored.
     */
    response: z
      .strictObject({
        approved: z.boolean().optional(),
        tool_call_id: z.string(),
        message: z.string().optional(),
        /** The background run that continues the paused run with this answer. */
        run_id: z.string(),
      })
      .optional(),
  }),
  created_at: z.string(),
  /** When an answer stops being accepted (AGENT_APPROVAL_TTL_MS after the request). */
  expires_at: z.string(),
});
export type InteractionWire = z.output<typeof interactionWireSchema>;

export const interactionQuerySchema = z.strictObject({
  query: z
    .strictObject({
      session_id: z.string().min(1).optional(),
      kind: z.enum(INTERACTION_KINDS).optional(),
      status: z.union([z.enum(INTERACTION_STATUSES), z.array(z.enum(INTERACTION_STATUSES)).min(1)]).optional(),
      /** Only requests an answer would still be accepted for (status `pending`). */
      actionable_only: z.boolean().optional(),
    })
    .optional(),
  windowing: z
    .strictObject({
      limit: z.number().int().min(1).max(100).optional(),
      /** The last id of the previous page (newest first). */
      next: z.string().min(1).optional(),
    })
    .optional(),
});
export type InteractionQuery = z.output<typeof interactionQuerySchema>;

/** The interaction status of a row at `now`. */
export function interactionStatus(row: Pick<ApprovalRow, "status" | "createdAt">, oldest: Date): InteractionStatus {
  switch (row.status) {
    case "pending":
      return row.createdAt > oldest ? "pending" : "cancelled";
    case "responding":
    case "responded":
      return "responded";
    case "used":
      return "resolved";
    default:
      return "cancelled";
  }
}

/** The rows whose interaction status is `status` at `oldest` (the earliest request still answerable). */
function statusCondition(status: InteractionStatus, oldest: Date): SQL | undefined {
  switch (status) {
    case "pending":
      return and(eq(toolApprovals.status, "pending"), gt(toolApprovals.createdAt, oldest));
    case "responded":
      return inArray(toolApprovals.status, ["responding", "responded"]);
    case "resolved":
      return eq(toolApprovals.status, "used");
    case "cancelled":
      return or(
        eq(toolApprovals.status, "expired"),
        and(eq(toolApprovals.status, "pending"), lte(toolApprovals.createdAt, oldest)),
      );
  }
}

export interface InteractionClock {
  now: Date;
  ttlMs: number;
}

const oldestOf = (clock: InteractionClock) => new Date(clock.now.getTime() - clock.ttlMs);

export async function findApproval(db: Executor, projectId: string, id: string): Promise<ApprovalRow | undefined> {
  const [row] = await db
    .select()
    .from(toolApprovals)
    .where(and(eq(toolApprovals.projectId, projectId), eq(toolApprovals.id, id)));
  return row;
}

/** The arguments each request was issued for, from its run's log (`interaction_request.payload.input`). */
async function argsOf(db: Executor, rows: ApprovalRow[]): Promise<Map<string, unknown>> {
  const args = new Map<string, unknown>();
  const wanted = new Set(rows.map((row) => row.id));
  for (const runId of new Set(rows.flatMap((row) => (row.runId ? [row.runId] : [])))) {
    for (const { event } of await readRunEvents(db, runId))
      if (event.type === "interaction_request" && wanted.has(event.id)) args.set(event.id, event.payload.input);
  }
  return args;
}

function toWire(row: ApprovalRow, args: Map<string, unknown>, clock: InteractionClock): InteractionWire {
  const answered = row.status === "responding" || row.status === "responded";
  const continuation = answered ? row.continuationRunId : null;
  return {
    id: row.id,
    session_id: row.sessionId,
    kind: "user_approval",
    status: interactionStatus(row, oldestOf(clock)),
    ...(row.runId ? { run_id: row.runId } : {}),
    data: {
      request: {
        tool: row.toolName,
        ...(args.has(row.id) ? { args: args.get(row.id) } : {}),
        tool_call_id: row.toolCallId,
      },
      ...(continuation ? { response: { tool_call_id: row.toolCallId, run_id: continuation } } : {}),
    },
    created_at: row.createdAt.toISOString(),
    expires_at: new Date(row.createdAt.getTime() + clock.ttlMs).toISOString(),
  };
}

export async function interactionOf(db: Executor, row: ApprovalRow, clock: InteractionClock): Promise<InteractionWire> {
  return toWire(row, await argsOf(db, [row]), clock);
}

/** The project's interactions, newest first, filtered as the reference's query is; `next` pages on. */
export async function queryInteractions(
  db: Executor,
  projectId: string,
  body: InteractionQuery,
  clock: InteractionClock,
): Promise<{ items: InteractionWire[]; next?: string }> {
  const query = body.query ?? {};
  const limit = body.windowing?.limit ?? 50;
  const oldest = oldestOf(clock);
  // Every approval request is a user_approval; the other kinds have no rows here.
  if (query.kind && query.kind !== "user_approval") return { items: [] };
  const statuses = query.actionable_only
    ? ["pending" as const]
    : query.status === undefined
      ? undefined
      : [query.status].flat();
  const conditions: (SQL | undefined)[] = [
    eq(toolApprovals.projectId, projectId),
    query.session_id ? eq(toolApprovals.sessionId, query.session_id) : undefined,
    statuses ? or(...statuses.map((status) => statusCondition(status, oldest))) : undefined,
  ];
  if (body.windowing?.next) {
    const after = await findApproval(db, projectId, body.windowing.next);
    if (!after)
      throw new BadRequestError("windowing.next names no interaction of this project", "invalid_cursor", [
        { path: "windowing.next", message: "not an interaction id of this project" },
      ]);
    conditions.push(
      or(
        lt(toolApprovals.createdAt, after.createdAt),
        and(eq(toolApprovals.createdAt, after.createdAt), lt(toolApprovals.id, after.id)),
      ),
    );
  }
  const rows = await db
    .select()
    .from(toolApprovals)
    .where(and(...conditions))
    .orderBy(desc(toolApprovals.createdAt), desc(toolApprovals.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const args = await argsOf(db, page);
  return {
    items: page.map((row) => toWire(row, args, clock)),
    ...(rows.length > limit ? { next: page.at(-1)!.id } : {}),
  };
}
