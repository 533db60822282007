import { rawQuery, type Database } from "@/server/db";
import { isSettleable, writeSettledMany, type SettleCell, type SettledScenario } from "./settle";

/** Scenarios written in one statement at most, and how long the first of a batch waits for others. */
const MAX_BATCH = 100;
const WAIT_MS = 20;

/** A scenario to settle: with `cells` when its record ended it, without when it may have. */
export interface SettleRequest {
  run: SettledScenario["run"];
  scenarioId: string;
  cells?: SettleCell[];
}

/**
 * A worker's scenario settles, written together: one statement, one commit, for every scenario
 * that ended within a few ms, instead of one each. A record that ended its scenario gives its
 * cells. A record that saw other cells of the scenario still open gives none: one of those may
 * have been recorded at the same moment, each record seeing the other open, so the scenario is
 * looked at again, its cells read in one statement with the batch's other such scenarios, and
 * settled when none is open. That read starts after the record committed, so of two records
 * that ran together, the later look sees both (as the scenario-locked settle, one transaction
 * per record, did at three round trips and a lock each).
 *
 * Settling is not on a slot's path and a settle that never happens is made up for (the run's end
 * settles every scenario still running), so holding one back a moment costs nothing but its
 * scenario's status showing that much later. `add` resolves to whether its scenario was
 * settled, and rejects (for its caller to report) when the batch's statements failed.
 */
export function settleBatch(db: Database) {
  let pending: { request: SettleRequest; resolve(settled: boolean): void; reject(error: unknown): void }[] = [];
  let timer: NodeJS.Timeout | undefined;

  const flush = async (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    try {
      // A scenario ends once, but should one come twice, its last cells are the ones to keep.
      const known = new Map<string, SettledScenario>();
      const unknown = new Map<string, SettleRequest>();
      for (const { request } of batch)
        if (request.cells) known.set(request.scenarioId, { ...request, cells: request.cells });
        else unknown.set(request.scenarioId, request);
      for (const id of known.keys()) unknown.delete(id);
      for (const scenario of await readSettleable(db, [...unknown.values()])) known.set(scenario.scenarioId, scenario);
      await writeSettledMany(db, [...known.values()]);
      for (const b of batch) b.resolve(known.has(b.request.scenarioId));
    } catch (error) {
      for (const b of batch) b.reject(error);
    }
  };

  return {
    /** Queues a scenario's settle; `now` writes the batch at once (a slot with nothing next waits on it). */
    add(request: SettleRequest, now = false): Promise<boolean> {
      const settled = new Promise<boolean>((resolve, reject) => pending.push({ request, resolve, reject }));
      if (now || pending.length >= MAX_BATCH) void flush();
      else timer ??= setTimeout(() => void flush(), WAIT_MS);
      return settled;
    },
    flush,
  };
}

/** The cells of scenarios that may have ended, in one read; those with none open, to settle. */
async function readSettleable(db: Database, requests: SettleRequest[]): Promise<SettledScenario[]> {
  if (requests.length === 0) return [];
  const rows = await rawQuery<SettleCell & { scenario_id: string }>(
    db,
    `select scenario_id::text, step_key, status, outputs, latency_ms, tokens, cost_usd from evaluation_results
     where scenario_id = any($1::uuid[])`,
    [`{${requests.map((r) => r.scenarioId).join(",")}}`],
  );
  const cellsOf = new Map<string, SettleCell[]>();
  for (const { scenario_id, ...cell } of rows) {
    const cells = cellsOf.get(scenario_id);
    if (cells) cells.push(cell);
    else cellsOf.set(scenario_id, [cell]);
  }
  return requests.flatMap(({ run, scenarioId }) => {
    const cells = cellsOf.get(scenarioId) ?? [];
    return cells.length > 0 && isSettleable(cells) ? [{ run, scenarioId, cells }] : [];
  });
}
