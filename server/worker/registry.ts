import type { AppContext } from "@/server/http/app-context";

export interface RunningWorker {
  stop(): Promise<void>;
}

/** A loop over a table (claims with FOR UPDATE SKIP LOCKED); trace ingest and webhook delivery register here. */
export interface BackgroundWorker {
  name: string;
  start(app: AppContext): RunningWorker;
}

/** Empty until the first background area (trace ingest) lands; the process and its lifecycle are ready for it. */
export const BACKGROUND_WORKERS: BackgroundWorker[] = [];
