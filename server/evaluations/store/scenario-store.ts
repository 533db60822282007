import { and, eq } from "drizzle-orm";
import { BadRequestError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Executor } from "@/server/db";
import { evaluationScenarios } from "@/server/db/schema";
import { movedToRun } from "../model/moved-to-run";
import type { ScenarioRow } from "../model/rows";
import { toPage, windowClause, type Windowing } from "@/server/core/windowing";
import { cellConditions, deleteCellRows, type CellFilter } from "./cell-rows";
import { UNPAGED_CELLS } from "./entity-filters";
import { openRunForWrite } from "./run-store";

const s = evaluationScenarios;

export interface ScenarioInput {
  id?: string | null;
  run_id?: string | null;
  status?: string | null;
  interval?: number | null;
  timestamp?: string | null;
  flags?: Record<string, boolean> | null;
  tags?: Record<string, unknown> | null;
  meta?: Record<string, unknown> | null;
}

export async function createScenarios(
  db: Executor,
  projectId: string,
  inputs: ScenarioInput[],
): Promise<ScenarioRow[]> {
  if (inputs.length === 0) return [];
  for (const runId of new Set(inputs.map((i) => i.run_id!))) await openRunForWrite(db, projectId, runId);
  const now = new Date();
  return db
    .insert(s)
    .values(
      inputs.map((i) => ({
        id: newId(),
        projectId,
        runId: i.run_id!,
        status: i.status ?? "pending",
        interval: i.interval ?? null,
        timestamp: i.timestamp ? new Date(i.timestamp) : null,
        flags: i.flags ?? null,
        tags: i.tags ?? null,
        meta: i.meta ?? null,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning();
}

/** Edits status, flags, tags, meta, interval and timestamp; `run_id` cannot move. */
export async function editScenarios(db: Executor, projectId: string, inputs: ScenarioInput[]): Promise<ScenarioRow[]> {
  const out: ScenarioRow[] = [];
  for (const input of inputs) {
    if (!input.id) throw new BadRequestError("every scenario to edit needs its id", "missing_id");
    const [row] = await db
      .select()
      .from(s)
      .where(and(eq(s.projectId, projectId), eq(s.id, input.id)));
    if (!row) continue;
    if (input.run_id && input.run_id !== row.runId) throw movedToRun("scenario", row.id, row.runId);
    await openRunForWrite(db, projectId, row.runId);
    const [edited] = await db
      .update(s)
      .set({
        status: input.status ?? row.status,
        interval: input.interval ?? row.interval,
        timestamp: input.timestamp ? new Date(input.timestamp) : row.timestamp,
        flags: input.flags ?? row.flags,
        tags: input.tags ?? row.tags,
        meta: input.meta ?? row.meta,
        updatedAt: new Date(),
      })
      .where(eq(s.id, row.id))
      .returning();
    out.push(edited);
  }
  return out;
}

export async function deleteScenarios(db: Executor, projectId: string, ids: string[]): Promise<string[]> {
  return deleteCellRows(db, s, projectId, ids);
}

export type ScenarioFilter = CellFilter;

export async function queryScenarios(
  db: Executor,
  projectId: string,
  filter: ScenarioFilter = {},
  windowing?: Windowing | null,
): Promise<{ items: ScenarioRow[]; next?: string }> {
  const page = windowClause(s, windowing ?? {}, "ascending", UNPAGED_CELLS);
  const rows = await db
    .select()
    .from(s)
    .where(and(...cellConditions(s, projectId, filter), ...page.conditions))
    .orderBy(page.orderBy)
    .limit(page.limit + 1);
  return toPage(rows, page.limit);
}
