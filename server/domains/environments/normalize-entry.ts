import { BadRequestError, isAppError, type AppError, type ErrorCode } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import {
  DEPLOYABLE,
  domainKeys,
  domainOfSingular,
  refSchema,
  resolveRevisionBySlugAndVersion,
  revisionReferences,
  type Ref,
  type RetrieveRefs,
} from "@/server/versioning";

/**
 * An environment entry names one revision of an application, workflow or evaluator, e.g.
 * `{"application_revision": {"id": ...}}`, or (as in embeds) an artifact slug and version,
 * `{"application_revision": {"slug": "my-app", "version": "2"}}`. Such an entry is stored complete
 * (ids, slugs, version), so events and later retrieves never depend on slugs that could be reused.
 * An entry that names no revision (`{"application": {...}, "application_variant": {...}}`, or `{}`)
 * is stored as sent, as the compat API stores it; a retrieve then follows its references.
 */
export async function normalizeEntry(
  db: Executor,
  projectId: string,
  key: string,
  entry: Record<string, unknown>,
  field = `references["${key}"]`,
) {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
    throw new BadRequestError(
      `${field} must be an object such as {"application_revision": {"id": "..."}}`,
      "invalid_environment_entry",
    );
  }
  const families = new Set(Object.keys(entry).map((k) => k.replace(/_ref$/, "").replace(/_(revision|variant)$/, "")));
  const domains = [...families].map((one) => domainOfSingular(one));
  if (domains.some((d) => !d || !DEPLOYABLE.has(d)) || domains.length > 1) {
    throw new BadRequestError(
      `${field} must name one application, workflow or evaluator (its _revision, _variant or artifact reference); it has ${Object.keys(entry).join(", ")}`,
      "invalid_environment_entry",
    );
  }
  if (domains.length === 0) return entry;
  const keys = domainKeys(domains[0]!);
  const pick = (k: string): Ref | undefined => {
    const raw = entry[k] ?? entry[`${k}_ref`];
    if (raw === undefined || raw === null) return undefined;
    const parsed = refSchema.safeParse(raw);
    if (!parsed.success) throw new BadRequestError(`${field}.${k} is not a reference`, "invalid_environment_entry");
    return parsed.data;
  };
  const refs: RetrieveRefs = { artifact: pick(keys.one), variant: pick(keys.variant), revision: pick(keys.revision) };
  if (!refs.revision?.id && !refs.revision?.slug && !refs.revision?.version) return entry;
  try {
    const { revision } = await resolveRevisionBySlugAndVersion(db, projectId, keys, refs);
    return revisionReferences(keys, revision);
  } catch (error) {
    if (isAppError(error)) {
      // The same class again (a 404 stays a 404), its message prefixed with the field.
      throw new (error.constructor as new (detail: string, code: ErrorCode) => AppError)(
        `${field}: ${error.message}`,
        error.code,
      );
    }
    throw error;
  }
}
