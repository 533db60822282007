import { logger } from "@/server/core/logger";
import type { RunRecord } from "./run-types";

type RunListener = (record: RunRecord) => void | Promise<void>;

const listeners: RunListener[] = [];

/** Subscribes to finished runs (the tracing issue records their spans from here). */
export function onRunFinished(listener: RunListener): void {
  if (!listeners.includes(listener)) listeners.push(listener);
}

export function notifyRunFinished(record: RunRecord): void {
  for (const listener of listeners) {
    Promise.resolve()
      .then(() => listener(record))
      .catch((error: unknown) => logger.error({ err: error, traceId: record.traceId }, "run listener failed"));
  }
}
