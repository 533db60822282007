import { z } from "zod";
import { BadRequestError } from "@/server/core/errors";
import { queryTraces } from "@/server/tracing";
import type { RetrievedContext, Shaped } from "@/server/versioning";

/**
 * The compat API's loadable options of a query retrieve: both default to excluded (a query's
 * content is its filtering; its traces are what running it finds). `windowing` pages the run
 * and goes over the revision's own windowing, as a traces query naming the revision does.
 */
export const queryRetrieveOptions = {
  include_trace_ids: z.boolean().nullish(),
  include_traces: z.boolean().nullish(),
  windowing: z.record(z.string(), z.unknown()).nullish(),
};

/**
 * With `include_trace_ids` or `include_traces`, the revision is run as `POST /api/traces/query`
 * runs it by `query_revision_ref` (same filtering, windowing, 409 for a span-focused revision,
 * read event): `data.trace_ids` and, with `include_traces`, `data.traces` (trees), and
 * `windowing.next` while more remain. A `windowing` without either flag would page nothing: 400.
 */
export async function shapeQueryRetrieved(
  data: Record<string, unknown>,
  options: Record<string, unknown>,
  retrieved: RetrievedContext,
): Promise<Shaped> {
  const withTraces = options.include_traces === true;
  const withIds = options.include_trace_ids === true || (withTraces && options.include_trace_ids !== false);
  if (!withTraces && !withIds) {
    if (options.windowing)
      throw new BadRequestError(
        "windowing pages the query's traces: send include_trace_ids or include_traces with it",
        "windowing_without_traces",
      );
    return { data };
  }
  const page = await queryTraces(
    retrieved.db,
    { projectId: retrieved.projectId, userId: retrieved.userId },
    {
      query_revision_ref: { id: retrieved.revisionId },
      windowing: options.windowing ?? undefined,
      formatting: { focus: "trace" },
    },
  );
  const traces = (page as { traces: { trace_id: string }[] }).traces;
  const next = (page as { windowing?: { next: string } }).windowing;
  return {
    data: {
      ...data,
      ...(withIds ? { trace_ids: traces.map((trace) => trace.trace_id) } : {}),
      ...(withTraces ? { traces } : {}),
    },
    ...(next ? { windowing: next } : {}),
  };
}
