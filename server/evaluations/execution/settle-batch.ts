import type { Database } from "@/server/db";
import { writeSettledMany, type SettledScenario } from "./settle";

/** Scenarios written in one statement at most, and how long the first of a batch waits for others. */
const MAX_BATCH = 100;
const WAIT_MS = 20;

/**
 * A worker's scenario settles (the ones a record ended, with their cells), written together: one
 * statement, one commit, for every scenario that ended within a few ms, instead of one each.
 * Settling is not on a slot's path and a settle that never happens is made up for (the run's end
 * settles every scenario still running), so holding one back a moment costs nothing but its
 * scenario's status showing that much later. `add` resolves once its scenario is written, and
 * rejects (for its caller to report) when the batch's statement failed.
 */
export function settleBatch(db: Database) {
  let pending: { scenario: SettledScenario; resolve(): void; reject(error: unknown): void }[] = [];
  let timer: NodeJS.Timeout | undefined;

  const flush = async (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    try {
      // A scenario ends once, but should one come twice, its last cells are the ones to keep.
      const latest = new Map(batch.map((b) => [b.scenario.scenarioId, b.scenario]));
      await writeSettledMany(db, [...latest.values()]);
      for (const b of batch) b.resolve();
    } catch (error) {
      for (const b of batch) b.reject(error);
    }
  };

  return {
    /** Queues a scenario's settle; `now` writes the batch at once (a slot with nothing next waits on it). */
    add(scenario: SettledScenario, now = false): Promise<void> {
      const written = new Promise<void>((resolve, reject) => pending.push({ scenario, resolve, reject }));
      if (now || pending.length >= MAX_BATCH) void flush();
      else timer ??= setTimeout(() => void flush(), WAIT_MS);
      return written;
    },
    flush,
  };
}
