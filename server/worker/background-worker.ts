import type { AppContext } from "@/server/core/app-context";

export interface RunningWorker {
  stop(): Promise<void>;
}

/**
 * A loop over a table (claims with FOR UPDATE SKIP LOCKED). Areas with background work (trace
 * ingest, webhook delivery) export one; the composition root (server/boot/workers.ts) lists them.
 */
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
