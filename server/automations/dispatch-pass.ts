import { and, asc, eq, inArray, isNull, lt, ne, or } from "drizzle-orm";
import { cancelRun, runIsRunning, runStates, startBackgroundRun } from "@/server/agent-runs";
import { memberRole } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { ForbiddenError, isAppError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import { hasRole, isProjectRole } from "@/server/core/roles";
import { logger } from "@/server/core/logger";
import { isDatabaseUnavailable } from "@/server/db";
import { automationDeliveries, automations } from "@/server/db/schema";
import { firingTrigger, settleFiring, type FiringRow } from "./firing-store";
import { capturedInputs, firingRun, startFiringAction } from "./automation-target";
import type { AutomationInput } from "./automation-input";
import { isTestAutomation, type AutomationRow } from "./automation-store";

/** A dispatcher owns a claimed firing this long; a crash hands it to another process after. */
const CLAIM_MS = 120_000;
/** A firing queued behind a running run is looked at again after this long. */
const QUEUE_RECHECK_MS = 5_000;
/** Firings started at once by one pass. */
const DISPATCH_CONCURRENCY = 8;

/** The key of a Test firing: it runs even while the automation is paused. */
export const TEST_KEY_PREFIX = "test:";

/**
 * Claims firings waiting to start (`pending`, or `queued` behind a previous run) under a lease
 * and a run id minted at the claim, then starts each one's run. A process that dies after
 * starting a run but before recording it leaves the run id behind: whoever claims the firing
 * next finds that run and records it, rather than starting a second one.
 */
export async function dispatchFirings(app: AppContext, limit: number, onlyId?: string): Promise<number> {
  const claimed = await claimFirings(app, limit, onlyId);
  for (let i = 0; i < claimed.length; i += DISPATCH_CONCURRENCY)
    await Promise.all(claimed.slice(i, i + DISPATCH_CONCURRENCY).map((firing) => dispatchOne(app, firing)));
  return claimed.length;
}

async function claimFirings(app: AppContext, limit: number, onlyId?: string): Promise<FiringRow[]> {
  const now = app.now();
  return app.db.transaction(async (tx) => {
    const open = await tx
      .select({ id: automationDeliveries.id, runId: automationDeliveries.runId })
      .from(automationDeliveries)
      .where(
        and(
          inArray(automationDeliveries.status, ["pending", "queued"]),
          or(isNull(automationDeliveries.leaseUntil), lt(automationDeliveries.leaseUntil, now)),
          onlyId ? eq(automationDeliveries.id, onlyId) : undefined,
        ),
      )
      .orderBy(asc(automationDeliveries.createdAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    const claimed: FiringRow[] = [];
    for (const row of open) {
      const [updated] = await tx
        .update(automationDeliveries)
        .set({ leaseUntil: new Date(now.getTime() + CLAIM_MS), runId: row.runId ?? newId() })
        .where(eq(automationDeliveries.id, row.id))
        .returning();
      claimed.push(updated);
    }
    return claimed;
  });
}

async function dispatchOne(app: AppContext, firing: FiringRow): Promise<void> {
  try {
    await dispatch(app, firing);
  } catch (error) {
    // A database down for now fails no firing: its claim runs out and it is dispatched again.
    if (isDatabaseUnavailable(error)) throw error;
    const detail = isAppError(error) && error.status < 500 ? error.message : "the run could not be started";
    if (!isAppError(error) || error.status >= 500)
      logger.error({ err: error, firingId: firing.id }, "automation firing failed");
    await settleFiring(app.db, firing, { status: "failed", error: detail, firedAt: app.now(), runId: null });
  }
}

async function dispatch(app: AppContext, firing: FiringRow): Promise<void> {
  const started = (await runStates(app.db, [firing.runId!])).get(firing.runId!);
  if (started) {
    const { sessionId, traceId } = started;
    await settleFiring(app.db, firing, {
      status: "started",
      sessionId,
      traceId,
      firedAt: firing.firedAt ?? app.now(),
    });
    return;
  }
  const [automation] = await app.db.select().from(automations).where(eq(automations.id, firing.automationId));
  const test = firing.eventKey.startsWith(TEST_KEY_PREFIX);
  if (!automation || automation.deletedAt || (!automation.isActive && !test)) {
    const why = !automation || automation.deletedAt ? "the automation was deleted" : "the automation is paused";
    await settleFiring(app.db, firing, { status: "skipped", error: why, firedAt: app.now(), runId: null });
    return;
  }
  if (isTestAutomation(automation)) {
    // A test subscription records what a run would be given, and starts nothing.
    const firedAt = app.now();
    await settleFiring(app.db, firing, {
      status: "captured",
      runId: null,
      firedAt,
      error: null,
      ...firingTrigger(automation),
      inputs: capturedInputs({ automation, firing, firedAt }),
    });
    return;
  }
  const action = (automation.target as { action?: AutomationInput["action"] }).action;
  if (action) {
    // A triage or an optimization is background work of its own, not a run: no overlap policy holds it.
    const principal = await ownerPrincipal(app, automation);
    const startedId = await startFiringAction(app, principal, action, {
      runId: firing.runId!,
      payload: firing.payload,
    });
    await settleFiring(app.db, firing, {
      status: "started",
      runId: startedId,
      firedAt: app.now(),
      error: null,
      ...firingTrigger(automation),
    });
    return;
  }
  // A person pressing Test wants a run: the overlap policy governs scheduled firings only.
  if (automation.kind === "schedule" && !test && !(await applyOverlap(app, automation, firing))) return;
  const principal = await ownerPrincipal(app, automation);
  const firedAt = app.now();
  const { body, runs, inputs } = await firingRun(app, principal, { automation, firing, firedAt });
  const run = await startBackgroundRun(app, principal, body, "automation", firing.runId!, runs);
  await settleFiring(app.db, firing, {
    status: "started",
    runId: run.runId,
    sessionId: run.sessionId,
    traceId: run.traceId,
    firedAt,
    error: null,
    // What this run was given, by the trigger as the dispatcher read it (a later edit leaves them).
    ...firingTrigger(automation),
    inputs,
  });
}

/**
 * The overlap policy, when a run this schedule started is still running: `skip` records the
 * firing as skipped, `queue_one` holds it (`queued`, at most one; a second is skipped) until that
 * run ends, `cancel_previous` cancels the run and goes on. True when the firing may start now.
 */
async function applyOverlap(app: AppContext, automation: AutomationRow, firing: FiringRow): Promise<boolean> {
  const running = (
    await app.db
      .select({ runId: automationDeliveries.runId })
      .from(automationDeliveries)
      .where(
        and(
          eq(automationDeliveries.automationId, automation.id),
          eq(automationDeliveries.status, "started"),
          runIsRunning(automationDeliveries.runId),
        ),
      )
  ).map((row) => ({ runId: row.runId! }));
  if (running.length === 0) return true;
  const previous = running.map((r) => r.runId).join(", ");
  const policy = automation.overlapPolicy ?? "skip";
  if (policy === "cancel_previous") {
    for (const { runId } of running) await cancelRun(app, automation.projectId, runId);
    return true;
  }
  if (policy === "queue_one") {
    const [other] = await app.db
      .select({ id: automationDeliveries.id })
      .from(automationDeliveries)
      .where(
        and(
          eq(automationDeliveries.automationId, automation.id),
          eq(automationDeliveries.status, "queued"),
          ne(automationDeliveries.id, firing.id),
        ),
      )
      .limit(1);
    if (!other) {
      await app.db
        .update(automationDeliveries)
        .set({
          status: "queued",
          leaseUntil: new Date(app.now().getTime() + QUEUE_RECHECK_MS),
          error: `waiting for the previous run ${previous} to end`,
        })
        .where(eq(automationDeliveries.id, firing.id));
      return false;
    }
  }
  await settleFiring(app.db, firing, {
    status: "skipped",
    runId: null,
    firedAt: app.now(),
    error:
      policy === "skip"
        ? `the previous run ${previous} was still running (overlap policy skip)`
        : `the previous run ${previous} was still running and a firing was already queued (overlap policy queue_one)`,
  });
  return false;
}

/** The automation runs as the user who made it, with that user's role in the project now. */
async function ownerPrincipal(app: AppContext, automation: AutomationRow) {
  const role = await memberRole(app.db, automation.projectId, automation.createdBy);
  if (!role || !isProjectRole(role))
    throw new ForbiddenError(
      "the user who made this automation is no longer a member of the project; save it again as a member",
      "automation_owner_gone",
    );
  // Running an agent is a member's right, as on the invoke route: a creator made viewer since cannot.
  if (!hasRole(role, "member"))
    throw new ForbiddenError(
      "the user who made this automation is now a viewer, who cannot run agents; save it again as a member",
      "automation_owner_gone",
    );
  return { projectId: automation.projectId, userId: automation.createdBy, role };
}
