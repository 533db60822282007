import { BadRequestError, ConflictError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { domainKeys, isEmptyRef, resolveRevision, type Ref } from "@/server/versioning";
import { isObject } from "./attributes";
import { checkTraceFiltering } from "./trace-sources";

/** A traces or spans query's own terms. */
export interface QueryTerms {
  filtering?: unknown;
  windowing?: unknown;
  formatting?: { focus?: "trace" | "span"; format?: string };
}

/** The saved query a traces or spans query may name, as a revision of the `queries` domain is named. */
export interface SavedQueryRefs {
  query_ref?: Ref;
  query_variant_ref?: Ref;
  query_revision_ref?: Ref;
}

const QUERIES = domainKeys("queries");

/**
 * The terms of a query that names a saved query (`query_ref`, `query_variant_ref`,
 * `query_revision_ref`, resolved as a retrieve resolves them: a revision, a variant's latest or
 * a version, an artifact's): the revision's filtering and the request's own both hold (`and`),
 * and the revision's windowing applies under the request's (which may page it, narrow it or
 * change its limit). A reference to nothing is a 404, never every trace of the project; a
 * revision saved for the other focus (`formatting.focus`) is a 409, as in the
 * reference implementation.
 */
export async function withSavedQuery(
  db: Executor,
  projectId: string,
  body: QueryTerms & SavedQueryRefs,
  focus: "trace" | "span",
): Promise<QueryTerms> {
  const terms: QueryTerms = { filtering: body.filtering, windowing: body.windowing, formatting: body.formatting };
  const refs = { artifact: body.query_ref, variant: body.query_variant_ref, revision: body.query_revision_ref };
  if (isEmptyRef(refs.artifact) && isEmptyRef(refs.variant) && isEmptyRef(refs.revision)) return terms;
  const { revision } = await resolveRevision(db, projectId, QUERIES, refs);
  const data = revision.data ?? {};
  const savedFocus = isObject(data.formatting) ? data.formatting.focus : undefined;
  if ((savedFocus === "trace" || savedFocus === "span") && savedFocus !== focus)
    throw new ConflictError(
      `query revision ${revision.id} is saved with focus "${savedFocus}"; query it with focus "${savedFocus}"`,
      "focus_conflict",
    );
  try {
    checkTraceFiltering(data.filtering);
  } catch (error) {
    throw new BadRequestError(
      `query revision ${revision.id}: its filtering is not valid: ${(error as Error).message}`,
      "invalid_query",
    );
  }
  const filtering =
    data.filtering === undefined || data.filtering === null
      ? body.filtering
      : body.filtering === undefined || body.filtering === null
        ? data.filtering
        : { operator: "and", conditions: [data.filtering, body.filtering] };
  return { ...terms, filtering, windowing: underRequest(data.windowing, body.windowing) };
}

/** The saved windowing with the request's given fields over it. */
function underRequest(saved: unknown, requested: unknown): unknown {
  if (!isObject(saved)) return requested;
  if (!isObject(requested)) return saved;
  const given = Object.entries(requested).filter(([, value]) => value !== undefined && value !== null);
  return { ...saved, ...Object.fromEntries(given) };
}
