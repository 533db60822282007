import { logger } from "@/server/core/logger";
import type { AppContext } from "@/server/core/app-context";
import { recordSpans } from "@/server/tracing";
import { runSpans } from "./run-spans";
import type { RunRecord } from "./run-types";

/**
 * Writes a finished run's spans through the trace store's durable ingest path, under the trace
 * id the run reported. `secrets` (the provider key the run used) are replaced wherever they occur
 * in the spans, so a key a user pasted into a message never reaches the trace store.
 */
export async function recordRunTrace(app: AppContext, record: RunRecord, secrets: string[]): Promise<void> {
  try {
    await recordSpans(
      app.db,
      record.projectId,
      runSpans(record, { captureContent: app.config.agentRuns.traceContent }),
      {
        config: app.config.tracing,
        redact: secrets,
        apiKeyId: record.apiKeyId ?? null,
      },
    );
  } catch (error) {
    logger.error({ err: error, traceId: record.traceId }, "recording the run's trace failed");
  }
}
