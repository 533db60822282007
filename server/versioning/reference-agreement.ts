import { BadRequestError } from "@/server/core/errors";
import type { DomainKeys } from "./domains";
import type { RevisionRecord } from "./records";
import type { RetrieveRefs } from "./references";

/** Redundant references must describe the revision that was found; the first contradiction is named. */
export function checkAgreement(keys: DomainKeys, refs: RetrieveRefs, revision: RevisionRecord): void {
  const checks: [string, string | undefined, string][] = [
    [`${keys.ref}.id`, refs.artifact?.id, revision.artifactId],
    [`${keys.ref}.slug`, refs.artifact?.slug, revision.artifactSlug],
    [`${keys.variantRef}.id`, refs.variant?.id, revision.variantId],
    [`${keys.variantRef}.slug`, refs.variant?.slug, revision.variantSlug],
    [`${keys.variantRef}.version`, refs.variant?.version, String(revision.version)],
    [`${keys.revisionRef}.id`, refs.revision?.id, revision.id],
    [`${keys.revisionRef}.slug`, refs.revision?.slug, revision.slug],
    [`${keys.revisionRef}.version`, refs.revision?.version, String(revision.version)],
  ];
  for (const [field, supplied, actual] of checks) {
    if (supplied !== undefined && supplied !== actual) {
      throw new BadRequestError(
        `${field} "${supplied}" does not match the resolved revision, whose value is "${actual}"`,
        "reference_mismatch",
      );
    }
  }
}
