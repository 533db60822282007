import { createHash, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Database } from "@/server/db";
import { toolApprovals } from "@/server/db/schema";
import { stableStringify } from "@/server/core/stable-json";

export interface ToolCallIdentity {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

const argsHash = (input: unknown) => createHash("sha256").update(stableStringify(input)).digest("hex");

/**
 * The approvals of one session: `issue` records a request when a turn pauses, `consume` accepts
 * an answer once, and only for the call it was issued for.
 */
export class ApprovalStore {
  constructor(
    private readonly db: Database,
    private readonly projectId: string,
    private readonly sessionId: string,
  ) {}

  async issue(call: ToolCallIdentity): Promise<string> {
    const id = `apr_${randomBytes(18).toString("base64url")}`;
    await this.db.insert(toolApprovals).values({
      id,
      projectId: this.projectId,
      sessionId: this.sessionId,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      argsHash: argsHash(call.input),
      status: "pending",
    });
    return id;
  }

  /** True exactly once for a pending request matching this call; false for anything else. */
  async consume(approvalId: string | undefined, call: ToolCallIdentity): Promise<boolean> {
    if (!approvalId) return false;
    const used = await this.db
      .update(toolApprovals)
      .set({ status: "used" })
      .where(
        and(
          eq(toolApprovals.id, approvalId),
          eq(toolApprovals.projectId, this.projectId),
          eq(toolApprovals.sessionId, this.sessionId),
          eq(toolApprovals.toolCallId, call.toolCallId),
          eq(toolApprovals.toolName, call.toolName),
          eq(toolApprovals.argsHash, argsHash(call.input)),
          eq(toolApprovals.status, "pending"),
        ),
      )
      .returning({ id: toolApprovals.id });
    return used.length === 1;
  }
}
