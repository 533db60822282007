import { NotFoundError, isAppError } from "@/server/core/errors";
import type { Database } from "@/server/db";
import { createSimple, domainKeys, Lookup, type Scope } from "@/server/versioning";
import { HUMAN_FEEDBACK_URI } from "@/shared/evaluator-uris";
import { isObject } from "../attributes";

const EVALUATORS = { keys: domainKeys("evaluators") };

/**
 * An annotation naming its evaluator by a slug the project has no evaluator for creates that
 * evaluator, as the reference implementation's annotations do: a human-feedback evaluator
 * (`svc:custom:feedback:v0`) named after the slug, whose outputs schema is the shape of the
 * annotation's data, so the feedback shows up under an evaluator people can find and reuse. An
 * existing evaluator of that slug is left as it is; a reference by id never creates one.
 */
export async function ensureAnnotationEvaluator(
  db: Database,
  scope: Scope,
  references: Record<string, unknown> | undefined,
  data: Record<string, unknown>,
): Promise<void> {
  const ref = references?.evaluator;
  if (!isObject(ref) || ref.id !== undefined || typeof ref.slug !== "string" || !ref.slug) return;
  try {
    await new Lookup(db, scope.projectId, EVALUATORS.keys).artifact({ slug: ref.slug });
    return;
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  try {
    await createSimple(db, scope, EVALUATORS, {
      slug: ref.slug,
      name: ref.slug,
      data: { uri: HUMAN_FEEDBACK_URI, schemas: { outputs: schemaOf(data) } },
    });
  } catch (error) {
    // Two annotations naming the same new slug at once: the other one created it.
    if (!isAppError(error) || error.code !== "slug_taken") throw error;
  }
}

/** The JSON Schema of a value's shape (types and properties; every present key required). */
export function schemaOf(value: unknown): Record<string, unknown> {
  if (value === null) return { type: "null" };
  if (Array.isArray(value)) return value.length ? { type: "array", items: schemaOf(value[0]) } : { type: "array" };
  if (typeof value === "number") return { type: Number.isInteger(value) ? "integer" : "number" };
  if (typeof value === "string" || typeof value === "boolean") return { type: typeof value };
  if (isObject(value)) {
    const properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, schemaOf(v)]));
    return { type: "object", properties, required: Object.keys(properties) };
  }
  return {};
}
