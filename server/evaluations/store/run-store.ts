import { and, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import { NotFoundError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import { jsonContains } from "@/server/core/json-contains";
import { toPage, windowClause, type Page, type Windowing } from "@/server/core/windowing";
import { containsText, type Executor } from "@/server/db";
import { evaluationRuns } from "@/server/db/schema";
import type { Scope } from "@/server/versioning";
import { ClosedRunError } from "../model/closed-run-error";
import { readRunData, type StoredRunData } from "../model/run-data";
import { runFlags, stepReferences, USER_FLAGS } from "../model/run-flags";
import type { EvaluationRunRow } from "../model/rows";
import { UNPAGED_RUNS } from "./entity-filters";

export interface RunInput {
  name?: string | null;
  description?: string | null;
  status?: string | null;
  flags?: Record<string, boolean | null | undefined> | null;
  tags?: Record<string, unknown> | null;
  meta?: Record<string, unknown> | null;
  data?: RunDataInput | null;
  /** Created active (a client-driven run, already executing); otherwise a start makes it so. */
  active?: boolean;
}

/** Run data as a request gives it: a field left out or null keeps (or defaults) the stored one. */
export type RunDataInput = { [K in keyof StoredRunData]?: StoredRunData[K] | null };

const runs = evaluationRuns;
const inProject = (projectId: string, id: string) => and(eq(runs.projectId, projectId), eq(runs.id, id));

export function storedData(data: RunInput["data"], previous?: StoredRunData): StoredRunData {
  const merged = {
    ...(previous ?? {}),
    ...Object.fromEntries(Object.entries(data ?? {}).filter(([, v]) => v !== null && v !== undefined)),
  } as StoredRunData;
  return { ...merged, steps: merged.steps ?? [], repeats: merged.repeats ?? 1 };
}

export async function insertEvaluationRun(db: Executor, scope: Scope, input: RunInput): Promise<EvaluationRunRow> {
  const data = storedData(input.data);
  const now = new Date();
  const [row] = await db
    .insert(runs)
    .values({
      id: newId(),
      projectId: scope.projectId,
      name: input.name ?? null,
      description: input.description ?? null,
      status: input.status ?? "pending",
      flags: runFlags(data.steps, {
        ...input.flags,
        is_active: input.active ?? false,
        is_closed: input.flags?.is_closed ?? false,
      }),
      tags: input.tags ?? null,
      meta: input.meta ?? null,
      data: data as unknown as Record<string, unknown>,
      references: stepReferences(data.steps),
      createdAt: now,
      updatedAt: now,
      createdById: scope.userId,
    })
    .returning();
  return row;
}

/** The whole run, its inline source rows included: for what mints or edits them. */
export async function findEvaluationRun(
  db: Executor,
  projectId: string,
  id: string,
): Promise<EvaluationRunRow | undefined> {
  const [row] = await db.select().from(runs).where(inProject(projectId, id));
  return row;
}

/**
 * A run as its readers show it: `data` without the rows given inline (`testcases`, `trace_ids`),
 * which no wire shows, only their counts. Those rows can be most of the run, and a run's page or
 * a CI job polls it while it runs: every poll read, sent and parsed them only to drop them (a
 * run of 1,000 inline testcases: 0.32 ms of the database per read before, 0.15 after), and a
 * list of runs did so for each run.
 */
export type RunOutline = EvaluationRunRow & { inlineTestcases: number | null; inlineTraces: number | null };

const outlineColumns = {
  ...getTableColumns(runs),
  data: sql<EvaluationRunRow["data"]>`${runs.data} - 'testcases' - 'trace_ids'`.mapWith(runs.data),
  inlineTestcases: sql<number | null>`jsonb_array_length(${runs.data} -> 'testcases')`.mapWith(Number),
  inlineTraces: sql<number | null>`jsonb_array_length(${runs.data} -> 'trace_ids')`.mapWith(Number),
};

/** The outline of a whole row (one a write returned), as `outlineColumns` reads it. */
export function outlineOf(run: EvaluationRunRow | RunOutline): RunOutline {
  if ("inlineTestcases" in run) return run;
  const { testcases, trace_ids, ...data } = (run.data ?? {}) as Record<string, unknown>;
  const count = (rows: unknown) => (Array.isArray(rows) ? rows.length : null);
  return {
    ...run,
    data: data as EvaluationRunRow["data"],
    inlineTestcases: count(testcases),
    inlineTraces: count(trace_ids),
  };
}

export async function findRunOutline(db: Executor, projectId: string, id: string): Promise<RunOutline | undefined> {
  const [row] = await db.select(outlineColumns).from(runs).where(inProject(projectId, id));
  return row;
}

export async function getRun(db: Executor, projectId: string, id: string): Promise<EvaluationRunRow> {
  const row = await findEvaluationRun(db, projectId, id);
  if (!row) throw new NotFoundError(`evaluation run ${id} does not exist in this project`);
  return row;
}

/** Loads a run for a write: missing is a 404, closed is the 409 of the closed-run guard. */
export async function openRunForWrite(db: Executor, projectId: string, id: string): Promise<EvaluationRunRow> {
  const run = await getRun(db, projectId, id);
  if (run.flags.is_closed) throw new ClosedRunError(run.id);
  return run;
}

/**
 * Edits a run: fields left out or null keep their value (reference §2.6); `flags` replaces the
 * user flags, and the derived ones are recomputed from the steps.
 */
export async function editRun(
  db: Executor,
  scope: Scope,
  id: string,
  input: RunInput,
): Promise<{ before: EvaluationRunRow; after: EvaluationRunRow }> {
  const before = await openRunForWrite(db, scope.projectId, id);
  const data = storedData(input.data, readRunData(before.data));
  const userFlags = Object.fromEntries(USER_FLAGS.map((f) => [f, input.flags?.[f] ?? before.flags[f]]));
  const [after] = await db
    .update(runs)
    .set({
      name: input.name ?? before.name,
      description: input.description ?? before.description,
      status: input.status ?? before.status,
      tags: input.tags ?? before.tags,
      meta: input.meta ?? before.meta,
      flags: runFlags(data.steps, userFlags, before.flags.is_queue),
      data: data as unknown as Record<string, unknown>,
      references: stepReferences(data.steps),
      updatedAt: new Date(),
      updatedById: scope.userId,
    })
    .where(eq(runs.id, id))
    .returning();
  return { before, after };
}

export async function setRunFlags(
  db: Executor,
  projectId: string,
  ids: string[],
  flags: Record<string, boolean>,
  status?: string,
): Promise<EvaluationRunRow[]> {
  if (ids.length === 0) return [];
  return db
    .update(runs)
    .set({
      flags: sql`${runs.flags} || ${JSON.stringify(flags)}::jsonb`,
      ...(status ? { status } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(runs.projectId, projectId), inArray(runs.id, ids)))
    .returning()
    .then((rows) => rows.sort((a, b) => a.id.localeCompare(b.id)));
}

export async function deleteRuns(db: Executor, projectId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .delete(runs)
    .where(and(eq(runs.projectId, projectId), inArray(runs.id, ids)))
    .returning({ id: runs.id });
  return rows.map((r) => r.id);
}

export interface EvaluationRunFilter {
  ids?: string[] | null;
  name?: string | null;
  description?: string | null;
  flags?: Record<string, unknown> | null;
  tags?: Record<string, unknown> | null;
  meta?: Record<string, unknown> | null;
  status?: string | null;
  statuses?: string[] | null;
  references?: Record<string, unknown>[] | null;
}

export async function queryRuns(
  db: Executor,
  projectId: string,
  filter: EvaluationRunFilter = {},
  windowing?: Windowing | null,
): Promise<Page<RunOutline>> {
  const page = windowClause(runs, windowing ?? {}, "descending", UNPAGED_RUNS);
  const statuses = [...(filter.statuses ?? []), ...(filter.status ? [filter.status] : [])];
  const rows = await db
    .select(outlineColumns)
    .from(runs)
    .where(
      and(
        eq(runs.projectId, projectId),
        filter.ids
          ? inArray(runs.id, filter.ids.length ? filter.ids : ["00000000-0000-0000-0000-000000000000"])
          : undefined,
        filter.name ? containsText(runs.name, filter.name) : undefined,
        filter.description ? containsText(runs.description, filter.description) : undefined,
        jsonContains(runs.flags, filter.flags),
        jsonContains(runs.tags, filter.tags),
        jsonContains(runs.meta, filter.meta),
        statuses.length ? inArray(runs.status, statuses) : undefined,
        // Containment of the whole list: a run matches when it carries every reference asked for.
        filter.references?.length ? jsonContains(runs.references, filter.references) : undefined,
        ...page.conditions,
      ),
    )
    .orderBy(page.orderBy)
    .limit(page.limit + 1);
  return toPage(rows, page.limit);
}
