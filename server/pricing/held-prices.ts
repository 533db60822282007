import { processWide } from "@/server/core/process-wide";
import type { Executor } from "@/server/db";
import type { PriceOverride } from "./price-override";

export interface HeldPrices {
  prices: PriceOverride[];
  /** When they were read (the app's clock, ms). */
  readAt: number;
}

/** The prices `cachedProjectPrices` holds: one map per database in the process (shared by Next.js's route bundles). */
export const heldPrices = processWide<object, Map<string, HeldPrices>>("project-prices", () => new Map());

/** After a write of the project's prices through `db`: the next read of this process reads them again. */
export function forgetPrices(db: Executor, projectId: string): void {
  heldPrices(db).delete(projectId);
}
