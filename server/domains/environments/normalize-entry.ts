import { BadRequestError, isAppError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { DEPLOYABLE, domainKeys, domainOfSingular, refSchema, resolveRevision, revisionReferences, type RetrieveRefs } from "@/server/versioning";

/**
 * An environment entry names one revision of an application, workflow or evaluator, e.g.
 * `{"application_revision": {"id": ...}}`. It is stored complete (ids, slugs, version), so events
 * and later retrieves never depend on slugs that could be reused.
 */
export async function normalizeEntry(db: Executor, projectId: string, key: string, entry: Record<string, unknown>) {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    throw new BadRequestError(`references["${key}"] must be an object such as {"application_revision": {"id": "..."}}`, "invalid_environment_entry");
  }
  const revisionKey = Object.keys(entry).find((k) => k.endsWith("_revision") || k.endsWith("_revision_ref"));
  const one = revisionKey?.replace(/_revision(_ref)?$/, "");
  const domain = one ? domainOfSingular(one) : undefined;
  if (!domain || !DEPLOYABLE.has(domain)) {
    throw new BadRequestError(
      `references["${key}"] must name an application_revision, workflow_revision or evaluator_revision`,
      "invalid_environment_entry",
    );
  }
  const keys = domainKeys(domain);
  const pick = (k: string) => {
    const raw = entry[k] ?? entry[`${k}_ref`];
    if (raw === undefined) return undefined;
    const parsed = refSchema.safeParse(raw);
    if (!parsed.success) throw new BadRequestError(`references["${key}"].${k} is not a reference`, "invalid_environment_entry");
    return parsed.data;
  };
  const refs: RetrieveRefs = { artifact: pick(keys.one), variant: pick(keys.variant), revision: pick(keys.revision) };
  try {
    const { revision } = await resolveRevision(db, projectId, keys, refs);
    return revisionReferences(keys, revision);
  } catch (error) {
    if (isAppError(error)) {
      throw new (error.constructor as typeof BadRequestError)(`references["${key}"]: ${error.message}`, error.code);
    }
    throw error;
  }
}
