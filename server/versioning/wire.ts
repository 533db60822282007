import { z } from "zod";
import { compact } from "@/server/core/compact";
import { isoTimestampSchema, toIso } from "@/server/core/time";
import { DEPLOYABLE, domainKeys, type DomainKeys } from "./domains";
import type { ArtifactRecord, RevisionRecord, VariantRecord } from "./records";
import type { ResolvedData } from "./embeds";
import type { Resolution } from "./resolve-revision";
import { revisionReferences } from "./revision-events";

const iso = (d: Date | null) => (d ? toIso(d) : null);

/** Stored flags with the domain's role flags over them (see DomainKeys.roleFlags). */
const flagsOf = (stored: Record<string, boolean> | undefined, keys?: DomainKeys) => ({ ...stored, ...keys?.roleFlags });

export function artifactToWire(artifact: ArtifactRecord, keys?: DomainKeys) {
  return compact({
    id: artifact.id,
    slug: artifact.slug,
    name: artifact.name,
    description: artifact.description,
    flags: flagsOf(artifact.flags, keys),
    tags: artifact.tags,
    meta: artifact.meta,
    created_at: toIso(artifact.createdAt),
    created_by_id: artifact.createdBy,
    updated_at: iso(artifact.updatedAt),
    updated_by_id: artifact.updatedBy,
    deleted_at: iso(artifact.deletedAt),
  });
}

/** `atVersionZero`: the variant's only revision is version 0 (`variantsAtVersionZero`), so its version is "0". */
export function variantToWire(keys: DomainKeys, variant: VariantRecord, atVersionZero = false) {
  return compact({
    id: variant.id,
    slug: variant.slug,
    name: variant.name,
    description: variant.description,
    flags: flagsOf(variant.flags, keys),
    tags: variant.tags,
    meta: variant.meta,
    [keys.artifactId]: variant.artifactId,
    version: variant.headVersion > 0 || atVersionZero ? String(variant.headVersion) : null,
    created_at: toIso(variant.createdAt),
    created_by_id: variant.createdBy,
    deleted_at: iso(variant.deletedAt),
  });
}

/** Log entries leave out `data` (the record was selected without it). */
export function revisionToWire(keys: DomainKeys, revision: RevisionRecord) {
  const createdAt = toIso(revision.createdAt);
  // The other names after compact: spread in, they would hide the computed keys from the type.
  return Object.assign(
    compact({
      id: revision.id,
      slug: revision.slug,
      version: String(revision.version),
      name: revision.name,
      description: revision.description,
      flags: flagsOf(revision.flags, keys),
      tags: revision.tags,
      meta: revision.meta,
      author: revision.authorId,
      date: createdAt,
      message: revision.message,
      data: revision.data,
      [keys.artifactId]: revision.artifactId,
      [keys.artifactSlug]: revision.artifactSlug,
      [keys.variantId]: revision.variantId,
      [keys.variantSlug]: revision.variantSlug,
      created_at: createdAt,
      updated_at: iso(revision.updatedAt),
      deleted_at: iso(revision.deletedAt),
    }),
    otherParentNames(keys, revision),
  );
}

/**
 * A revision's artifact and variant under the compat API's other names for them, beside the
 * domain's own (`application_id`, `application_variant_slug`): the generic `artifact_*`/`variant_*`
 * and, for the workflow family (applications and evaluators are flagged workflows there), `workflow_*`.
 */
function otherParentNames(keys: DomainKeys, revision: RevisionRecord): Record<string, string> {
  const copies: Record<string, string> = {};
  for (const names of otherParentKeys(keys)) {
    copies[names.artifactId] = revision.artifactId;
    copies[names.artifactSlug] = revision.artifactSlug;
    copies[names.variantId] = revision.variantId;
    copies[names.variantSlug] = revision.variantSlug;
  }
  return copies;
}

const GENERIC_PARENT_KEYS = {
  artifactId: "artifact_id",
  artifactSlug: "artifact_slug",
  variantId: "variant_id",
  variantSlug: "variant_slug",
};
const WORKFLOW_PARENT_KEYS = domainKeys("workflows");
type ParentNames = Pick<DomainKeys, "artifactId" | "artifactSlug" | "variantId" | "variantSlug">;
const otherParentKeys = (keys: DomainKeys): ParentNames[] => [
  GENERIC_PARENT_KEYS,
  ...(DEPLOYABLE.has(keys.name) ? [WORKFLOW_PARENT_KEYS] : []),
];

/** What a retrieve used: the resolved references, and the environment and key when it went through one. */
export function retrievalInfo(keys: DomainKeys, resolution: Resolution, envKeys: DomainKeys) {
  const references: Record<string, unknown> = revisionReferences(keys, resolution.revision);
  if (!resolution.environment) return { references };
  return {
    references: { ...references, ...revisionReferences(envKeys, resolution.environment.revision) },
    key: resolution.environment.key,
    // The compat API's clients read the key here.
    selector: { key: resolution.environment.key },
  };
}

/** What a resolve did: each embed where it stood, the distinct revisions it read, and what failed under a lenient policy. */
export function resolutionInfo(resolved: ResolvedData) {
  const used = new Map<unknown, Record<string, unknown>>();
  for (const e of resolved.embeds) {
    const target = Object.values(e.references).at(-1) as { id?: string } | undefined;
    if (!used.has(target?.id)) used.set(target?.id, e.references);
  }
  return {
    embeds: resolved.embeds,
    embeds_resolved: resolved.embeds.length,
    references_used: [...used.values()],
    depth_reached: Math.max(0, ...resolved.embeds.map((e) => e.depth)),
    errors: resolved.errors,
  };
}

// The wire records' schemas (the response contracts in OpenAPI), beside the functions that make them.

const uuid = z.string().uuid();
const userData = z.record(z.string(), z.unknown());
const headerSchema = {
  id: uuid,
  slug: z.string(),
  name: z.string().optional(),
  description: z.string().optional(),
  flags: z.record(z.string(), z.boolean()),
  tags: userData,
  meta: userData,
};

export function artifactWireSchema() {
  return z.strictObject({
    ...headerSchema,
    name: z.string(),
    created_at: isoTimestampSchema,
    created_by_id: uuid.optional(),
    updated_at: isoTimestampSchema.optional(),
    updated_by_id: uuid.optional(),
    deleted_at: isoTimestampSchema.optional(),
  });
}

export function variantWireSchema(keys: DomainKeys) {
  return z.strictObject({
    ...headerSchema,
    name: z.string(),
    [keys.artifactId]: uuid,
    version: z.string().optional().describe("The newest revision's version; absent before the first commit"),
    created_at: isoTimestampSchema,
    created_by_id: uuid.optional(),
    deleted_at: isoTimestampSchema.optional(),
  });
}

/** `data` is absent from log entries. */
export function revisionWireSchema(keys: DomainKeys) {
  return z.strictObject({
    ...headerSchema,
    version: z.string(),
    author: uuid.optional(),
    date: isoTimestampSchema,
    message: z.string().optional(),
    data: userData.optional(),
    ...parentCopiesSchema(keys),
    created_at: isoTimestampSchema,
    updated_at: isoTimestampSchema.optional(),
    deleted_at: isoTimestampSchema.optional(),
  });
}

function parentCopiesSchema(keys: DomainKeys) {
  const fields: Record<string, z.ZodType> = {};
  for (const names of [keys, ...otherParentKeys(keys)]) {
    fields[names.artifactId] = uuid;
    fields[names.artifactSlug] = z.string();
    fields[names.variantId] = uuid;
    fields[names.variantSlug] = z.string();
  }
  return fields;
}

const refWire = z.strictObject({ id: uuid, slug: z.string() });

/** `revisionReferences`: the artifact, variant and revision of one revision. */
export function revisionReferencesSchema(keys: DomainKeys) {
  return z.strictObject({
    [keys.one]: refWire,
    [keys.variant]: refWire,
    [keys.revision]: refWire.extend({ version: z.string() }),
  });
}

export function retrievalInfoSchema(keys: DomainKeys, envKeys: DomainKeys) {
  const own = revisionReferencesSchema(keys);
  return z.union([
    z.strictObject({ references: own }),
    z.strictObject({
      references: own.extend(revisionReferencesSchema(envKeys).shape),
      key: z.string(),
      selector: z.strictObject({ key: z.string() }),
    }),
  ]);
}

export const resolutionInfoSchema = z.strictObject({
  embeds: z.array(
    z.strictObject({
      path: z.string(),
      references: z.record(z.string(), z.unknown()),
      selector: z.strictObject({ path: z.string() }).optional(),
      depth: z.number().int(),
    }),
  ),
  embeds_resolved: z.number().int(),
  references_used: z.array(z.record(z.string(), z.unknown())),
  depth_reached: z.number().int(),
  errors: z.array(z.strictObject({ path: z.string(), code: z.string(), detail: z.string() })),
});
