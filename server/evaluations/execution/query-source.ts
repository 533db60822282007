import { BadRequestError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { checkTraceFiltering } from "@/server/tracing";
import type { RevisionRecord } from "@/server/versioning";
import type { Step } from "../model/run-data";
import { lookupRevision, revisionIdOf } from "./step-targets";

/** Traces one query step may evaluate in one go: past it, a batch run without `windowing.limit` is refused. */
export const MAX_QUERY_TRACES = 10_000;

/** A saved query (a `queries` revision's data): which spans match, and over which window. */
export interface SavedQuery {
  revisionId: string;
  filtering: unknown;
  oldest?: Date;
  newest?: Date;
  limit?: number;
}

/** Reads a query revision's `data: {filtering, windowing: {oldest, newest, limit}}`; a bad one is a 400 naming it. */
export function readSavedQuery(revision: RevisionRecord): SavedQuery {
  const data = revision.data ?? {};
  const windowing = (data.windowing ?? {}) as Record<string, unknown>;
  const fail = (what: string): never => {
    throw new BadRequestError(`query revision ${revision.id}: ${what}`, "invalid_query");
  };
  try {
    checkTraceFiltering(data.filtering);
  } catch (error) {
    fail(`data.filtering is not valid: ${(error as Error).message}`);
  }
  const time = (name: "oldest" | "newest") => {
    const value = windowing[name];
    if (value === undefined || value === null) return undefined;
    const date = new Date(String(value));
    return Number.isNaN(date.getTime()) ? fail(`data.windowing.${name} is not a timestamp`) : date;
  };
  const limit = windowing.limit;
  if (limit !== undefined && limit !== null && (!Number.isInteger(limit) || (limit as number) < 1))
    fail("data.windowing.limit must be a positive integer");
  return {
    revisionId: revision.id,
    filtering: data.filtering,
    oldest: time("oldest"),
    newest: time("newest"),
    limit: typeof limit === "number" ? Math.min(limit, MAX_QUERY_TRACES) : undefined,
  };
}

export async function savedQueryOf(db: Executor, projectId: string, step: Step): Promise<SavedQuery> {
  const id = revisionIdOf(step, ["query_revision"]);
  const { revision } = await lookupRevision(db, projectId, ["queries"], id, "query revision");
  return readSavedQuery(revision);
}

/**
 * Whether the filtering's top level requires `trace_type is invocation`. A live evaluation
 * needs it (as in the reference implementation): it keeps annotation traces (people's scores) out
 * of the traces it scores.
 */
export function selectsInvocations(filtering: unknown): boolean {
  const f = filtering as { operator?: string; conditions?: unknown[] } | null | undefined;
  if (!f || (f.operator ?? "and") !== "and" || !Array.isArray(f.conditions)) return false;
  return f.conditions.some((c) => {
    const condition = c as { field?: unknown; operator?: unknown; value?: unknown };
    return (
      condition.field === "trace_type" && (condition.operator ?? "is") === "is" && condition.value === "invocation"
    );
  });
}
