import { randomUUID } from "node:crypto";
import { processWide } from "@/server/core/process-wide";
import type { Database } from "@/server/db";

/** This process's name on the leases it holds. */
export const PROCESS_LEASE_OWNER = `${process.pid}-${randomUUID().slice(0, 8)}`;

/** The runs this process drives, by id: how a cancel that arrives here stops one at once. */
export const liveRunsOf = processWide<Database, Map<string, (reason: string) => void>>(
  "agent-live-runs",
  () => new Map(),
);
