import type { AppContext } from "@/server/core/app-context";
import { isAppError } from "@/server/core/errors";
import { logger } from "@/server/core/logger";
import { isDatabaseUnavailable } from "@/server/db";
import { collectItems } from "./evidence";
import { heuristicGroups, mergeGroups, modesOfGroups, type Group } from "./groups";
import { BATCH_SIZE, groupBatch, ModelGroupingError, resolveTriageModel } from "./model-grouping";
import { finishUnderLease, saveUnderLease, TRIAGE_LEASE_MS, type TriageRecord } from "./store";
import { usdText, type Evidence, type TriageItem } from "./wire";

/**
 * Runs a claimed triage to its end, from where it stands: collects the failures once (kept in
 * the row), then groups them batch by batch, saving the groups and the spend after each batch
 * under the lease, so a worker that takes over after a crash goes on at the next batch. A lost
 * lease (taken over, or cancelled) stops it without another write.
 */
export async function runTriage(app: AppContext, row: TriageRecord): Promise<void> {
  const heartbeat = setInterval(() => {
    saveUnderLease(app.db, row, app.now(), {}).catch((error: unknown) =>
      logger.warn({ err: error, triage: row.id }, "renewing a triage's lease failed"),
    );
  }, TRIAGE_LEASE_MS / 3);
  try {
    await advance(app, row);
  } catch (error) {
    // A database out for now fails nothing: the lease runs out and another pass resumes.
    if (isDatabaseUnavailable(error)) throw error;
    const known = isAppError(error) || error instanceof ModelGroupingError;
    if (!known) logger.error({ err: error, triage: row.id }, "triage failed");
    await finishUnderLease(app.db, row, app.now(), {
      status: "failed",
      modes: [],
      fields: { error: known ? (error as Error).message : "the triage failed; see the server log" },
    });
  } finally {
    clearInterval(heartbeat);
  }
}

async function advance(app: AppContext, row: TriageRecord): Promise<void> {
  let items = row.items as TriageItem[] | null;
  if (!items) {
    items = await collectItems(app, row.projectId, row.evidence as Evidence);
    const batches = row.method === "model" ? Math.ceil(items.length / BATCH_SIZE) : 0;
    const progress = { examined: 0, total: items.length, batches_done: 0, batches_total: batches };
    const stored = items as unknown as Record<string, unknown>[];
    if (!(await saveUnderLease(app.db, row, app.now(), { items: stored, progress }))) return;
    row = { ...row, items: stored, progress };
  }
  if (row.method === "heuristic") {
    await finishUnderLease(app.db, row, app.now(), {
      status: "succeeded",
      modes: modesOfGroups(heuristicGroups(items), items, row.maxExamplesPerMode),
      fields: { progress: { ...row.progress, examined: items.length } },
    });
    return;
  }
  await groupWithModel(app, row, items);
}

async function groupWithModel(app: AppContext, row: TriageRecord, items: TriageItem[]): Promise<void> {
  const connection = await resolveTriageModel(app, row.projectId, row.model!);
  const total = Math.ceil(items.length / BATCH_SIZE);
  let done = Number(row.progress.batches_done ?? 0);
  let groups = row.partial as unknown as Group[];
  let spend = row.spendUsd;
  let dearest = Number(row.progress.dearest_batch_usd ?? 0);
  const claimed = new Set(groups.flatMap((g) => g.items));
  const progress = () => ({
    examined: Math.min(done * BATCH_SIZE, items.length),
    total: items.length,
    batches_done: done,
    batches_total: total,
    dearest_batch_usd: dearest,
  });
  let stopped = false;
  while (done < total) {
    // A batch starts only while the spend so far plus the dearest batch yet stays within the budget.
    if (row.budgetUsd !== null && spend + dearest > row.budgetUsd) {
      stopped = true;
      break;
    }
    const offset = done * BATCH_SIZE;
    const result = await groupBatch(app, row.projectId, connection, {
      items: items.slice(offset, offset + BATCH_SIZE),
      offset,
      known: groups,
      triageId: row.id,
    });
    groups = mergeGroups(groups, result.groups, claimed);
    spend += result.costUsd;
    dearest = Math.max(dearest, result.costUsd);
    done++;
    const saved = await saveUnderLease(app.db, row, app.now(), {
      partial: groups as unknown as Record<string, unknown>[],
      progress: progress(),
      spendUsd: spend,
    });
    if (!saved) return;
  }
  const examined = progress().examined;
  const unplaced = items.map((_, i) => i).filter((i) => i < examined && !claimed.has(i));
  if (unplaced.length)
    groups = [
      ...groups,
      { name: "Not placed by the model", description: "Failures the model left out of every mode", items: unplaced },
    ];
  await finishUnderLease(app.db, row, app.now(), {
    status: "succeeded",
    modes: modesOfGroups(groups, items, row.maxExamplesPerMode),
    fields: {
      progress: progress(),
      spendUsd: spend,
      partial: groups as unknown as Record<string, unknown>[],
      ...(stopped
        ? {
            stopReason: "budget",
            note: `Stopped at the budget of $${usdText(row.budgetUsd!)} after ${done} of ${total} batches ($${usdText(spend)} spent): ${examined} of ${items.length} failures grouped`,
          }
        : {}),
    },
  });
}
