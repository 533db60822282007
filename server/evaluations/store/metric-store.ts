import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { SchemaValidationError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Executor } from "@/server/db";
import { evaluationMetrics } from "@/server/db/schema";
import type { MetricsRow } from "../model/rows";
import { jsonContains } from "@/server/core/json-contains";
import { windowClause, type Windowing } from "@/server/core/windowing";
import { oneOrMany, UNPAGED_CELLS } from "./entity-filters";
import { openRunForWrite } from "./run-store";

const m = evaluationMetrics;

export interface MetricsInput {
  run_id: string;
  scenario_id?: string | null;
  timestamp?: string | null;
  interval?: number | null;
  status?: string | null;
  data?: Record<string, unknown> | null;
  flags?: Record<string, boolean> | null;
  tags?: Record<string, unknown> | null;
  meta?: Record<string, unknown> | null;
}

/** Upserts on the shape's partial unique index: global, variational (scenario) or temporal (timestamp). */
export async function upsertMetrics(db: Executor, projectId: string, inputs: MetricsInput[]): Promise<MetricsRow[]> {
  inputs.forEach((input, i) => {
    if (input.scenario_id && input.timestamp) {
      throw new SchemaValidationError(
        [{ path: `metrics[${i}]`, message: "scenario_id and timestamp are both set" }],
        "a metrics row is global, per scenario or per time window: set scenario_id or timestamp, not both",
      );
    }
  });
  for (const runId of new Set(inputs.map((i) => i.run_id))) await openRunForWrite(db, projectId, runId);
  const out: MetricsRow[] = [];
  const now = new Date();
  for (const input of inputs) {
    const shape = input.scenario_id
      ? "scenario_id is not null and timestamp is null"
      : input.timestamp
        ? "timestamp is not null and scenario_id is null"
        : "scenario_id is null and timestamp is null";
    const target = input.scenario_id ? [m.runId, m.scenarioId] : input.timestamp ? [m.runId, m.timestamp] : [m.runId];
    const values = {
      status: input.status ?? "pending",
      data: input.data ?? null,
      interval: input.interval ?? null,
      flags: input.flags ?? null,
      tags: input.tags ?? null,
      meta: input.meta ?? null,
      updatedAt: now,
    };
    const [row] = await db
      .insert(m)
      .values({
        id: newId(),
        projectId,
        runId: input.run_id,
        scenarioId: input.scenario_id ?? null,
        timestamp: input.timestamp ? new Date(input.timestamp) : null,
        createdAt: now,
        ...values,
      })
      .onConflictDoUpdate({ target, targetWhere: sql.raw(shape), set: values })
      .returning();
    out.push(row);
  }
  return out;
}

export async function deleteMetrics(db: Executor, projectId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ runId: m.runId })
    .from(m)
    .where(and(eq(m.projectId, projectId), inArray(m.id, ids)));
  for (const runId of new Set(rows.map((x) => x.runId))) await openRunForWrite(db, projectId, runId);
  return (
    await db
      .delete(m)
      .where(and(eq(m.projectId, projectId), inArray(m.id, ids)))
      .returning({ id: m.id })
  ).map((x) => x.id);
}

export interface MetricsFilter {
  ids?: string[] | null;
  run_id?: string | null;
  run_ids?: string[] | null;
  scenario_id?: string | null;
  /** A list narrows to those scenarios; `true` / `false` means per-scenario rows / the others. */
  scenario_ids?: string[] | boolean | null;
  timestamp?: string | null;
  timestamps?: string[] | boolean | null;
  interval?: number | null;
  intervals?: number[] | null;
  status?: string | null;
  statuses?: string[] | null;
  tags?: Record<string, unknown> | null;
  flags?: Record<string, unknown> | null;
  meta?: Record<string, unknown> | null;
}

function presence(
  column: typeof m.scenarioId | typeof m.timestamp,
  value: unknown[] | boolean | null | undefined,
  one: unknown,
) {
  if (typeof value === "boolean") return value ? isNotNull(column) : isNull(column);
  return oneOrMany<unknown>(column, one, value);
}

export async function queryMetrics(
  db: Executor,
  projectId: string,
  filter: MetricsFilter = {},
  windowing?: Windowing | null,
): Promise<MetricsRow[]> {
  const page = windowClause(m, windowing ?? {}, "descending", UNPAGED_CELLS);
  return db
    .select()
    .from(m)
    .where(
      and(
        eq(m.projectId, projectId),
        oneOrMany(m.id, undefined, filter.ids),
        oneOrMany(m.runId, filter.run_id, filter.run_ids),
        presence(m.scenarioId, filter.scenario_ids, filter.scenario_id),
        presence(
          m.timestamp,
          typeof filter.timestamps === "boolean" ? filter.timestamps : filter.timestamps?.map((t) => new Date(t)),
          filter.timestamp ? new Date(filter.timestamp) : filter.timestamp,
        ),
        oneOrMany(m.interval, filter.interval, filter.intervals),
        oneOrMany(m.status, filter.status, filter.statuses),
        jsonContains(m.tags, filter.tags),
        jsonContains(m.flags, filter.flags),
        jsonContains(m.meta, filter.meta),
        ...page.conditions,
      ),
    )
    .orderBy(page.orderBy)
    .limit(page.limit);
}
