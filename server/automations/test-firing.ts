import type { AppContext } from "@/server/core/app-context";
import { newId } from "@/server/core/ids";
import { firingTrigger, getFiring, insertFirings, type FiringRow } from "./firing-store";
import { getLiveAutomation } from "./automation-store";
import { dispatchFirings, TEST_KEY_PREFIX } from "./dispatch-pass";

/**
 * The Test button: one firing now, recorded like any other and started in this request (even
 * while the automation is paused), so the answer names its run and session. Its payload is
 * `sample` (a schedule's is its fire time).
 */
export async function fireTest(
  app: AppContext,
  projectId: string,
  id: string,
  sample: Record<string, unknown> = {},
): Promise<FiringRow> {
  const automation = await getLiveAutomation(app.db, projectId, id);
  const now = app.now();
  const [firing] = await insertFirings(app.db, [
    {
      projectId,
      automationId: automation.id,
      ...firingTrigger(automation),
      eventKey: `${TEST_KEY_PREFIX}${newId()}`,
      status: "pending",
      scheduledAt: automation.kind === "schedule" ? now : null,
      payload: automation.kind === "schedule" ? { scheduled_at: now.toISOString(), ...sample } : sample,
      createdAt: now,
    },
  ]);
  await dispatchFirings(app, 1, firing.id);
  return getFiring(app.db, projectId, firing.id);
}
