import { drivenRunsEnded } from "@/server/agent-runs";
import type { AppContext } from "@/server/core/app-context";
import { drainIngestQueue } from "@/server/tracing";
import { within } from "./within";

/**
 * What follows an answer, done: every agent run this process drives has recorded its end (its
 * row's status, its trace queued), then the span ingest queue is drained, so the run's record and
 * its trace can be read. The runs' ends are awaited (the promises the app keeps for serverless
 * hosts), bounded by `ms`; nothing here sleeps or polls.
 */
export async function runsRecorded(app: AppContext, ms = 30_000): Promise<void> {
  await within(ms, "the agent runs this process drives to record their end", drivenRunsEnded(app.db));
  await drainIngestQueue(app);
}
