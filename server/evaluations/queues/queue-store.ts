import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { ConflictError, SchemaValidationError } from "@/server/core/errors";
import { newId } from "@/server/core/ids";
import type { Executor } from "@/server/db";
import { evaluationQueues } from "@/server/db/schema";
import { movedToRun } from "../model/moved-to-run";
import type { QueueRow } from "../model/rows";
import { jsonContains } from "@/server/core/json-contains";
import { toPage, windowClause, type Windowing } from "@/server/core/windowing";
import { oneOrMany, UNPAGED_RUNS } from "../store/entity-filters";
import { openRunForWrite } from "../store/run-store";

const q = evaluationQueues;

export interface QueueData {
  user_ids?: string[][] | null;
  scenario_ids?: string[] | null;
  step_keys?: string[] | null;
  batch_size?: number | null;
  batch_offset?: number | null;
}

export interface QueueInput {
  id?: string | null;
  run_id?: string | null;
  name?: string | null;
  description?: string | null;
  status?: string | null;
  flags?: { is_default?: boolean | null; is_sequential?: boolean | null } | null;
  tags?: Record<string, unknown> | null;
  meta?: Record<string, unknown> | null;
  data?: QueueData | null;
}

const FILTERS = ["user_ids", "scenario_ids", "step_keys", "batch_size", "batch_offset"] as const;

/** A default queue covers the whole run: it may carry no filter (reference §8.1). */
function checkDefault(input: QueueInput, index: number) {
  if (!input.flags?.is_default) return;
  const set = FILTERS.filter((f) => input.data?.[f] !== undefined && input.data?.[f] !== null);
  if (set.length) {
    throw new SchemaValidationError(
      set.map((f) => ({
        path: `queues[${index}].data.${f}`,
        message: "a default queue covers the whole run and takes no filter",
      })),
      `a default queue cannot carry ${set.join(", ")}; create a non-default queue to assign part of the run`,
    );
  }
}

/** Sequential when asked, or implied by a batch size or offset. */
const flagsOf = (input: QueueInput, previous?: Record<string, boolean>) => ({
  is_default: Boolean(input.flags?.is_default ?? previous?.is_default),
  is_sequential:
    Boolean(input.flags?.is_sequential ?? previous?.is_sequential) ||
    input.data?.batch_size != null ||
    input.data?.batch_offset != null,
});

export async function createQueues(
  db: Executor,
  scope: { projectId: string; userId: string },
  inputs: QueueInput[],
): Promise<QueueRow[]> {
  inputs.forEach(checkDefault);
  const out: QueueRow[] = [];
  for (const input of inputs) {
    await openRunForWrite(db, scope.projectId, input.run_id!);
    if (input.flags?.is_default) {
      const [existing] = await db
        .select({ id: q.id })
        .from(q)
        .where(and(eq(q.runId, input.run_id!), sql`(${q.flags} ->> 'is_default')::boolean`));
      if (existing)
        throw new ConflictError(
          `run ${input.run_id} already has its default queue (${existing.id}); a run has at most one`,
          "default_queue_exists",
        ).structured({ queue_id: existing.id });
    }
    const now = new Date();
    const [row] = await db
      .insert(q)
      .values({
        id: newId(),
        projectId: scope.projectId,
        runId: input.run_id!,
        name: input.name ?? null,
        description: input.description ?? null,
        status: input.status ?? "pending",
        flags: flagsOf(input),
        tags: input.tags ?? null,
        meta: input.meta ?? null,
        data: (input.data ?? null) as Record<string, unknown> | null,
        createdAt: now,
        updatedAt: now,
        createdById: scope.userId,
      })
      .returning();
    out.push(row);
  }
  return out;
}

export async function editQueues(db: Executor, projectId: string, inputs: QueueInput[]): Promise<QueueRow[]> {
  const out: QueueRow[] = [];
  for (const [i, input] of inputs.entries()) {
    const [row] = await db
      .select()
      .from(q)
      .where(and(eq(q.projectId, projectId), eq(q.id, input.id!)));
    if (!row) continue;
    if (input.run_id && input.run_id !== row.runId) throw movedToRun("queue", row.id, row.runId);
    await openRunForWrite(db, projectId, row.runId);
    if (row.flags.is_default && input.flags?.is_default === false) {
      throw new ConflictError(
        `queue ${row.id} is its run's default queue and cannot be demoted`,
        "default_queue_demotion",
      ).structured({ queue_id: row.id });
    }
    checkDefault({ ...input, flags: { is_default: input.flags?.is_default ?? row.flags.is_default } }, i);
    const [edited] = await db
      .update(q)
      .set({
        name: input.name ?? row.name,
        description: input.description ?? row.description,
        status: input.status ?? row.status,
        flags: flagsOf(input, row.flags),
        tags: input.tags ?? row.tags,
        meta: input.meta ?? row.meta,
        data: (input.data ?? row.data) as Record<string, unknown> | null,
        updatedAt: new Date(),
      })
      .where(eq(q.id, row.id))
      .returning();
    out.push(edited);
  }
  return out;
}

/** Hard delete; a default queue (also in a bulk delete) is a 409: it lives as long as its run. */
export async function deleteQueues(db: Executor, projectId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(q)
    .where(and(eq(q.projectId, projectId), inArray(q.id, ids)));
  const defaults = rows.filter((r) => r.flags.is_default);
  if (defaults.length)
    throw new ConflictError(
      `queue ${defaults.map((d) => d.id).join(", ")} is a run's default queue and cannot be deleted`,
      "default_queue_delete",
    ).structured({ queue_ids: defaults.map((d) => d.id) });
  for (const runId of new Set(rows.map((r) => r.runId))) await openRunForWrite(db, projectId, runId);
  if (rows.length === 0) return [];
  return (
    await db
      .delete(q)
      .where(
        inArray(
          q.id,
          rows.map((r) => r.id),
        ),
      )
      .returning({ id: q.id })
  ).map((r) => r.id);
}

export interface QueueFilter {
  ids?: string[] | null;
  run_id?: string | null;
  run_ids?: string[] | null;
  user_id?: string | null;
  user_ids?: string[] | null;
  flags?: Record<string, unknown> | null;
  tags?: Record<string, unknown> | null;
  meta?: Record<string, unknown> | null;
  name?: string | null;
  description?: string | null;
  include_archived?: boolean | null;
}

export async function queryQueues(
  db: Executor,
  projectId: string,
  filter: QueueFilter = {},
  windowing?: Windowing | null,
): Promise<{ items: QueueRow[]; next?: string }> {
  const page = windowClause(q, windowing ?? {}, "descending", UNPAGED_RUNS);
  const users = [...(filter.user_ids ?? []), ...(filter.user_id ? [filter.user_id] : [])];
  const rows = await db
    .select()
    .from(q)
    .where(
      and(
        eq(q.projectId, projectId),
        oneOrMany(q.id, undefined, filter.ids),
        oneOrMany(q.runId, filter.run_id, filter.run_ids),
        jsonContains(q.flags, filter.flags),
        jsonContains(q.tags, filter.tags),
        jsonContains(q.meta, filter.meta),
        filter.name ? sql`${q.name} ilike ${`%${filter.name}%`}` : undefined,
        filter.description ? sql`${q.description} ilike ${`%${filter.description}%`}` : undefined,
        filter.include_archived ? undefined : isNull(q.deletedAt),
        users.length
          ? sql`exists (select 1 from jsonb_array_elements(coalesce(${q.data} -> 'user_ids', '[]'::jsonb)) lane where lane ?| array[${sql.join(
              users.map((u) => sql`${u}`),
              sql`, `,
            )}]::text[])`
          : undefined,
        ...page.conditions,
      ),
    )
    .orderBy(page.orderBy)
    .limit(page.limit + 1);
  return toPage(rows, page.limit);
}
