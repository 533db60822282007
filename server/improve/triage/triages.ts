import type { AppContext } from "@/server/core/app-context";
import { newId } from "@/server/core/ids";
import type { Executor, Database } from "@/server/db";
import type { Scope } from "@/server/versioning";
import { checkEvidence } from "./evidence";
import { HEURISTIC_NOTE } from "./groups";
import { resolveTriageModel } from "./model-grouping";
import { findFailureMode, findTriage, insertTriage, markCancelled, modesOf, pageTriages } from "./store";
import { failureModeToWire, triageToWire, type FailureModeWire, type StartTriageBody, type TriageWire } from "./wire";

/**
 * Queues a triage (202): what the evidence names is checked now (404 for an unknown run,
 * monitor, alert or queue; 400 for a malformed trace filter), and so is the model (its provider
 * must be reachable through the project's connections), so a triage that cannot run is refused
 * rather than failed later. The background worker does the rest.
 */
export async function startTriage(
  app: AppContext,
  scope: Scope,
  body: StartTriageBody,
  options: { id?: string } = {},
): Promise<TriageWire> {
  await checkEvidence(app, scope.projectId, body.evidence);
  if (body.model) await resolveTriageModel(app, scope.projectId, body.model);
  const row = await insertTriage(app.db, {
    id: options.id ?? newId(),
    projectId: scope.projectId,
    createdById: scope.userId,
    status: "queued",
    method: body.model ? "model" : "heuristic",
    methodNote: body.model ? null : HEURISTIC_NOTE,
    evidence: body.evidence as Record<string, unknown>,
    model: body.model ?? null,
    maxExamplesPerMode: body.max_examples_per_mode,
    budgetUsd: body.budget_usd !== undefined ? Number(body.budget_usd) : null,
    createdAt: app.now(),
  });
  // A caller that names the id (an automation's firing, retried after a crash) gets the triage it started.
  return row ? triageToWire(row, []) : getTriage(app.db, scope.projectId, options.id!);
}

/**
 * What startTriage checks, for an automation that will start this triage when it fires: as
 * startTriage, except that a monitor's alert need not exist yet (the firing brings it).
 */
export async function checkTriageStart(app: AppContext, scope: Scope, body: StartTriageBody): Promise<void> {
  await checkEvidence(app, scope.projectId, body.evidence, { alertMayCome: true });
  if (body.model) await resolveTriageModel(app, scope.projectId, body.model);
}

export async function getTriage(db: Executor, projectId: string, id: string): Promise<TriageWire> {
  const row = await findTriage(db, projectId, id);
  return triageToWire(row, await modesOf(db, [row.id]));
}

/** A project's triages, newest first; `next_cursor` pages on. */
export async function listTriages(
  db: Executor,
  projectId: string,
  page: { limit: number; cursor?: string },
): Promise<{ triages: TriageWire[]; next_cursor?: string }> {
  const { rows, next } = await pageTriages(db, projectId, page);
  const modes = await modesOf(
    db,
    rows.map((r) => r.id),
  );
  return {
    triages: rows.map((row) =>
      triageToWire(
        row,
        modes.filter((m) => m.triageId === row.id),
      ),
    ),
    ...(next ? { next_cursor: next } : {}),
  };
}

/** Cancels a queued or running triage (409 `triage_ended` once it ended); a running worker stops at its next batch. */
export async function cancelTriage(db: Database, scope: Scope, id: string, now = new Date()): Promise<TriageWire> {
  await markCancelled(db, scope.projectId, id, now);
  return getTriage(db, scope.projectId, id);
}

export async function getFailureMode(db: Executor, projectId: string, id: string): Promise<FailureModeWire> {
  return failureModeToWire(await findFailureMode(db, projectId, id));
}
