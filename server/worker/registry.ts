import type { AppContext } from "@/server/http/app-context";
import { spanIngestWorker } from "@/server/tracing/ingest/worker";
import { webhookWorker } from "@/server/webhooks/worker";
import { evaluationWorker } from "@/server/evaluations";

export interface RunningWorker {
  stop(): Promise<void>;
}

/** A loop over a table (claims with FOR UPDATE SKIP LOCKED); trace ingest and webhook delivery register here. */
export interface BackgroundWorker {
  name: string;
  /** Runs until stopped: claims work, wakes on LISTEN/NOTIFY (PostgreSQL) or a poll. */
  start(app: AppContext): RunningWorker;
  /**
   * One bounded pass for hosts without long-lived processes (the cron route on Vercel): handles
   * at most `limit` items and returns how many it handled.
   */
  drain(app: AppContext, limit: number): Promise<number>;
}

/** Every background area adds its worker here; the worker process, the app process and the cron route run this list. */
export const BACKGROUND_WORKERS: BackgroundWorker[] = [spanIngestWorker, webhookWorker, evaluationWorker];
