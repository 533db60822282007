import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { Database } from "@/server/db";
import { agentRuns, toolApprovals } from "@/server/db/schema";
import { stableStringify } from "@/server/core/stable-json";

export interface ToolCallIdentity {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

const argsHash = (input: unknown) => createHash("sha256").update(stableStringify(input)).digest("hex");

export const approvalExpiredMessage = (toolName: string, ttlMs: number) =>
  `The approval for "${toolName}" came too late: its request expired after ${Math.round(ttlMs / 60_000)} minutes (AGENT_APPROVAL_TTL_MS), so the call was not run. Ask again if it is still needed.`;

/**
 * How long an out-of-band claim (`responding`) is left to its process to record the run minted
 * for it. Preparing the turn and inserting its row take well under a second; past this, with no
 * run of that id recorded, the process is taken for dead and another answer may claim the request
 * again. Should the first process still be alive, it cannot double the run: both start the same
 * run id, and only one row can be inserted (`startBackgroundRun`).
 */
export const CLAIM_LEASE_MS = 60_000;

/** No run was recorded with the id minted at the claim (none was minted: a claim from before the column). */
const continuationUnrecorded = sql`not exists (select 1 from ${agentRuns} where ${agentRuns.id} = ${toolApprovals.continuationRunId})`;

/**
 * The approvals of one session, kept in the database so an answer can come days later on any
 * process: `issue` records a request when a turn pauses, `consume` accepts an answer once, only
 * for the call it was issued for and only within `ttlMs` of the request, by the app's clock.
 */
export class ApprovalStore {
  constructor(
    private readonly db: Database,
    private readonly projectId: string,
    private readonly sessionId: string,
    readonly ttlMs: number,
    /** The app's clock (`AppContext.now`): requests are stamped and expire by it. */
    private readonly now: () => Date,
    /** The run that issues the requests: the run that answers them continues it. */
    private readonly runId?: string,
    /**
     * Requests answered out of band (`POST /api/sessions/interactions/{id}/respond`), which this
     * turn continues: `responding` rows it may settle (to `responded`), besides pending ones.
     * Only the interactions service sets it; a body never can.
     */
    private readonly claimed: readonly string[] = [],
  ) {}

  private oldest(): Date {
    return new Date(this.now().getTime() - this.ttlMs);
  }

  async issue(call: ToolCallIdentity): Promise<string> {
    const id = `apr_${randomBytes(18).toString("base64url")}`;
    await this.db.insert(toolApprovals).values({
      id,
      createdAt: this.now(),
      projectId: this.projectId,
      sessionId: this.sessionId,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      argsHash: argsHash(call.input),
      status: "pending",
      runId: this.runId ?? null,
    });
    return id;
  }

  /**
   * True exactly once for a pending request matching this call (then `used`), or for one this
   * turn claimed out of band (`responding`, then `responded`); false for anything else.
   */
  async consume(approvalId: string | undefined, call: ToolCallIdentity): Promise<boolean> {
    if (!approvalId) return false;
    const open = this.claimed.length
      ? or(
          eq(toolApprovals.status, "pending"),
          and(eq(toolApprovals.status, "responding"), inArray(toolApprovals.id, [...this.claimed])),
        )
      : eq(toolApprovals.status, "pending");
    const used = await this.db
      .update(toolApprovals)
      .set({ status: sql`case when ${toolApprovals.status} = 'responding' then 'responded' else 'used' end` })
      .where(
        and(
          eq(toolApprovals.id, approvalId),
          eq(toolApprovals.projectId, this.projectId),
          eq(toolApprovals.sessionId, this.sessionId),
          eq(toolApprovals.toolCallId, call.toolCallId),
          eq(toolApprovals.toolName, call.toolName),
          eq(toolApprovals.argsHash, argsHash(call.input)),
          open,
          gt(toolApprovals.createdAt, this.oldest()),
        ),
      )
      .returning({ id: toolApprovals.id });
    return used.length === 1;
  }

  /**
   * Claims a request for an answer out of band (-> `responding`), within the TTL, recording the
   * claim's time and the id of the run that is to continue with the answer: a pending request
   * (the id is `runId`), or one whose claim is older than CLAIM_LEASE_MS while no run of its id
   * was recorded (its process died in between; the id minted then is kept). One statement, so
   * exactly one caller gets the row; every other gets undefined.
   */
  async claim(approvalId: string, runId: string): Promise<typeof toolApprovals.$inferSelect | undefined> {
    const now = this.now();
    const [claimed] = await this.db
      .update(toolApprovals)
      .set({
        status: "responding",
        claimedAt: now,
        continuationRunId: sql`coalesce(${toolApprovals.continuationRunId}, ${runId})`,
      })
      .where(
        and(
          eq(toolApprovals.id, approvalId),
          eq(toolApprovals.projectId, this.projectId),
          eq(toolApprovals.sessionId, this.sessionId),
          or(eq(toolApprovals.status, "pending"), this.abandoned(now)),
          gt(toolApprovals.createdAt, this.oldest()),
        ),
      )
      .returning();
    return claimed;
  }

  /** A claim whose process died before it recorded the run minted for it. */
  private abandoned(now: Date) {
    return and(
      eq(toolApprovals.status, "responding"),
      or(isNull(toolApprovals.claimedAt), lte(toolApprovals.claimedAt, new Date(now.getTime() - CLAIM_LEASE_MS))),
      continuationUnrecorded,
    );
  }

  /**
   * Gives a claimed request back (`responding` -> `pending`): its continuation could not start.
   * Only while no run of the minted id was recorded: a recorded one settles the request itself.
   */
  async release(approvalId: string, runId: string): Promise<void> {
    await this.db
      .update(toolApprovals)
      .set({ status: "pending", claimedAt: null, continuationRunId: null })
      .where(
        and(
          eq(toolApprovals.id, approvalId),
          eq(toolApprovals.projectId, this.projectId),
          eq(toolApprovals.status, "responding"),
          eq(toolApprovals.continuationRunId, runId),
          continuationUnrecorded,
        ),
      );
  }

  /**
   * Marks a request past its time `expired` (a pending one, or a claim its process abandoned);
   * true when this answer came too late.
   */
  async expire(approvalId: string): Promise<boolean> {
    const expired = await this.db
      .update(toolApprovals)
      .set({ status: "expired" })
      .where(
        and(
          eq(toolApprovals.id, approvalId),
          eq(toolApprovals.projectId, this.projectId),
          eq(toolApprovals.sessionId, this.sessionId),
          or(eq(toolApprovals.status, "pending"), this.abandoned(this.now())),
          lte(toolApprovals.createdAt, this.oldest()),
        ),
      )
      .returning({ id: toolApprovals.id });
    return expired.length === 1;
  }
}
