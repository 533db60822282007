import { BadRequestError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { loadTraceSources, matchingTraceIds, storedTraceId } from "@/server/tracing";
import type { Step, StoredRunData } from "../model/run-data";
import { MAX_QUERY_TRACES, savedQueryOf } from "./query-source";
import { lookupRevision } from "./step-targets";

export interface SourceItem {
  testcaseId?: string;
  /** The trace the row comes from (wire form), for query and trace inputs. */
  traceId?: string;
  inputs: Record<string, unknown>;
  /** What the source trace gave: scored as is when the run has no application step. */
  outputs?: unknown;
}

/** Input steps with no references that take their rows from the run's data. */
export const isTestcasesStep = (s: Step) => s.key === "testcases" || s.key === "testset-direct";
export const isTracesStep = (s: Step) => s.key === "traces" || s.key === "query-direct";

/** A queue run whose rows are pushed by id after it starts (no trace ids or testcases given inline). */
export function takesPushedRows(data: StoredRunData): boolean {
  const inputs = data.steps.filter((s) => s.type === "input");
  return (
    inputs.length > 0 &&
    inputs.every((s) => (isTracesStep(s) && !data.trace_ids?.length) || (isTestcasesStep(s) && !data.testcases?.length))
  );
}

/** A live tick's window: the traces of the query steps that started within it. */
export interface TickWindow {
  oldest: Date;
  newest: Date;
}

/**
 * The rows a run evaluates: every testcase of its testset revisions, the testcases given inline,
 * the traces its saved queries match (over the query's own window, or a live tick's), and the
 * traces given by id. Each problem is a 400 naming it.
 */
export async function sourceItems(
  db: Executor,
  projectId: string,
  data: StoredRunData,
  tick?: TickWindow,
): Promise<SourceItem[]> {
  const items: SourceItem[] = [];
  for (const step of data.steps.filter((s) => s.type === "input")) {
    const testset = step.references.testset_revision?.id;
    if (testset) {
      const { revision } = await lookupRevision(db, projectId, ["testsets"], testset, "testset revision");
      const rows = (revision.data?.testcases ?? []) as { id: string; data?: Record<string, unknown> }[];
      if (rows.length === 0)
        throw new BadRequestError(
          `testset revision ${testset} has no testcases; commit some rows first`,
          "empty_testset",
        );
      for (const row of rows) items.push({ testcaseId: row.id, inputs: row.data ?? {} });
    } else if (step.references.query_revision) {
      items.push(...(await queryItems(db, projectId, step, tick)));
    } else if (isTestcasesStep(step)) {
      for (const row of data.testcases ?? []) items.push({ inputs: row });
    } else if (isTracesStep(step)) {
      items.push(...(await traceItems(db, projectId, data.trace_ids ?? [])));
    }
  }
  return items;
}

async function queryItems(db: Executor, projectId: string, step: Step, tick?: TickWindow): Promise<SourceItem[]> {
  const query = await savedQueryOf(db, projectId, step);
  const limit = query.limit ?? MAX_QUERY_TRACES;
  const ids = await matchingTraceIds(db, projectId, query.filtering, {
    oldest: tick?.oldest ?? query.oldest,
    newest: tick?.newest ?? query.newest,
    limit: query.limit || tick ? limit : limit + 1,
  });
  if (ids.length > limit)
    throw new BadRequestError(
      `query revision ${query.revisionId} matches more than ${MAX_QUERY_TRACES} traces; narrow its filtering or set data.windowing (oldest, newest, limit)`,
      "too_many_traces",
    );
  return traceItems(db, projectId, ids);
}

/** The traces by id, in the order given; an id that names no trace of the project is a 400. */
export async function traceItems(db: Executor, projectId: string, traceIds: string[]): Promise<SourceItem[]> {
  if (traceIds.length === 0) return [];
  const sources = new Map((await loadTraceSources(db, projectId, traceIds)).map((s) => [storedTraceId(s.traceId), s]));
  const missing = traceIds.filter((id) => !sources.has(storedTraceId(id)));
  if (missing.length)
    throw new BadRequestError(
      `no trace ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ""} in this project (spans are queryable once ingest has written them)`,
      "unknown_trace",
    );
  const seen = new Set<string>();
  const items: SourceItem[] = [];
  for (const raw of traceIds) {
    const source = sources.get(storedTraceId(raw))!;
    if (seen.has(source.traceId)) continue;
    seen.add(source.traceId);
    items.push({ traceId: source.traceId, inputs: source.inputs, outputs: source.outputs });
  }
  return items;
}
