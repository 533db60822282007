import type { AppContext } from "@/server/core/app-context";
import { NotFoundError } from "@/server/core/errors";
import type { Database } from "@/server/db";
import { liveRunsOf } from "./live-runs";
import { requestCancel } from "./run-lease";
import { findAgentRun, findAgentRunSoon, runStatus } from "./run-queries";
import type { AgentRunRow } from "./run-store";
import { noticeRun, onRunNotice, RUN_CANCEL_CHANNEL, RUN_EVENTS_CHANNEL } from "./run-wakeups";

/** How long a cancel waits for the run to record its end before answering with the run as it is. */
const CANCEL_WAIT_MS = 10_000;

/**
 * Stops a running run and its upstream model request, wherever it runs: directly when this
 * process drives it, else through a notification its process listens to (and its next heartbeat
 * reads the flag, should the notification be missed). Idempotent: an ended run is returned as
 * it is, and a second cancel of a running one only waits again.
 */
export async function cancelRun(app: AppContext, projectId: string, runId: string): Promise<AgentRunRow> {
  const row = await findAgentRunSoon(app.db, projectId, runId);
  if (!row) throw new NotFoundError(`Run ${runId} not found`, "run_not_found");
  if (row.status !== "running") return row;
  if (await requestCancel(app.db, projectId, runId)) {
    const local = liveRunsOf(app.db).get(runId);
    if (local) local("cancelled");
    else await noticeRun(app.db, RUN_CANCEL_CHANNEL, runId);
    await waitForEnd(app.db, runId, CANCEL_WAIT_MS);
  }
  return (await findAgentRun(app.db, projectId, runId)) ?? row;
}

async function waitForEnd(db: Database, runId: string, timeoutMs: number): Promise<void> {
  let wake: () => void = () => undefined;
  const stop = await onRunNotice(db, RUN_EVENTS_CHANNEL, runId, () => wake());
  const deadline = Date.now() + timeoutMs;
  try {
    while ((await runStatus(db, runId)) === "running" && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        wake = () => (clearTimeout(timer), resolve());
      });
    }
  } finally {
    stop();
  }
}
