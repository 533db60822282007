import type { AppContext } from "@/server/core/app-context";
import { heldPrices } from "./held-prices";
import type { PriceOverride } from "./price-override";
import { projectPrices } from "./price-store";

/**
 * How long a project's own prices are used before they are read again, in the background. A
 * price written through this process is read again at once (`forgetPrices`); another process's
 * write counts here within this time.
 */
export const PRICES_READ_MS = 1_000;

type App = Pick<AppContext, "db" | "now">;

/**
 * The project's own model prices, the form `costOf` takes: the read every path that costs a turn
 * uses (the run's cost, the budgets' spend), so a turn reads them at most once. Read once, then
 * read again in the background when older than `PRICES_READ_MS` on the app's clock (the older
 * ones serve meanwhile).
 */
export async function cachedProjectPrices(app: App, projectId: string): Promise<PriceOverride[]> {
  const cached = heldPrices(app.db).get(projectId);
  if (!cached) return readPrices(app, projectId);
  const now = app.now().getTime();
  if (now - cached.readAt > PRICES_READ_MS) {
    cached.readAt = now;
    readPrices(app, projectId).catch(() => undefined);
  }
  return cached.prices;
}

async function readPrices(app: App, projectId: string): Promise<PriceOverride[]> {
  const list = await projectPrices(app.db, projectId);
  heldPrices(app.db).set(projectId, { prices: list, readAt: app.now().getTime() });
  return list;
}
