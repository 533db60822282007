import { setTimeout as sleep } from "node:timers/promises";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import type { AutomationInput } from "../automation-input";
import {
  createAutomation,
  isTestAutomation,
  purgeAutomation,
  queryAutomations,
  type AutomationRow,
} from "../automation-store";
import { lastFirings, queryFirings, type FiringRow } from "../firing-store";

/** The reference polls for the first delivery once a second. */
const POLL_MS = 1_000;

export interface CapturedDelivery {
  firing: FiringRow;
  automation: AutomationRow;
}

/**
 * `POST /api/triggers/subscriptions/test`: the first delivery of the subscription's event type,
 * waited for up to `triggerTestTimeoutMs` (or until the client goes away), else undefined. When
 * active subscriptions of the project already follow that event type (as any of theirs: one made
 * in our own API may follow several; a paused one would never answer), the first delivery of
 * theirs newer than their latest one, and they stay as they are; otherwise a test subscription is
 * made, and purged with its deliveries however the wait ends.
 */
export async function testSubscription(
  app: AppContext,
  principal: Principal,
  input: Extract<AutomationInput, { kind: "event" }>,
  signal: AbortSignal,
): Promise<CapturedDelivery | undefined> {
  const owners = (
    await queryAutomations(app.db, principal.projectId, { kind: "event", follows: input.event_types[0] })
  ).items.filter((row) => row.isActive && !isTestAutomation(row));
  if (owners.length > 0) {
    const latest = await lastFirings(
      app.db,
      principal.projectId,
      owners.map((o) => o.id),
    );
    // UUIDv7 ids: the greatest is the newest firing of them all.
    const after = [...latest.values()]
      .map((f) => f.id)
      .sort()
      .at(-1);
    return firstDelivery(app, owners, after, signal);
  }
  const { row } = await createAutomation(app, principal, { ...input, test: true, is_active: true });
  try {
    return await firstDelivery(app, [row], undefined, signal);
  } finally {
    await purgeAutomation(app, principal.projectId, row.id);
  }
}

/**
 * The oldest firing of `automations` after the firing id `after`, once it has settled (captured,
 * started, skipped or failed). Ids are UUIDv7, in the order firings were made. The wait is on the
 * system clock: it is a real wait, whatever the app's clock says.
 */
async function firstDelivery(
  app: AppContext,
  automations: AutomationRow[],
  after: string | undefined,
  signal: AbortSignal,
): Promise<CapturedDelivery | undefined> {
  const deadline = Date.now() + app.config.triggerTestTimeoutMs;
  for (;;) {
    const {
      items: [firing],
    } = await queryFirings(
      app.db,
      automations[0].projectId,
      { automationIds: automations.map((a) => a.id) },
      { order: "ascending", limit: 1, next: after },
    );
    if (firing && firing.status !== "pending" && firing.status !== "queued")
      return { firing, automation: automations.find((a) => a.id === firing.automationId)! };
    const left = deadline - Date.now();
    if (left <= 0 || signal.aborted) return undefined;
    try {
      await sleep(Math.min(POLL_MS, left), undefined, { signal });
    } catch (error) {
      // The client went away: nobody waits for the answer any more.
      if (signal.aborted) return undefined;
      throw error;
    }
  }
}
