import type { AppContext } from "@/server/core/app-context";
import { startWakeLoop, type BackgroundWorker } from "@/server/worker";
import { runTriage } from "./run-triage";
import { claimTriages } from "./store";

/**
 * How often an idle worker looks for triages. It polls: a triage is a few model calls long, and
 * a queued one waiting two seconds costs nothing next to them.
 */
const POLL_MS = 2_000;
/** Triages one pass claims and runs side by side. */
const PER_PASS = 2;

/** One pass at the app's clock: claims open triages (new, or abandoned by a dead worker) and runs them. */
export async function triagePass(app: AppContext, limit = PER_PASS): Promise<number> {
  const claimed = await claimTriages(app.db, app.now(), limit);
  await Promise.all(claimed.map((row) => runTriage(app, row)));
  return claimed.length;
}

export const triageWorker: BackgroundWorker = {
  name: "improve-triages",
  start: (app) => startWakeLoop("improve-triages", () => triagePass(app), POLL_MS),
  drain: (app, limit) => triagePass(app, limit),
};
