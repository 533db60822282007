import { z } from "zod";
import { compact } from "@/server/core/compact";
import type { DomainKeys } from "../domains";
import type { ArtifactRecord, RevisionRecord } from "../records";
import { artifactToWire, artifactWireSchema } from "../wire";

/** A simple entity: the artifact's fields, and the data and ids of its default variant's latest revision. */
export function simpleToWire(
  keys: DomainKeys,
  { artifact, revision }: { artifact: ArtifactRecord; revision?: RevisionRecord },
) {
  return compact({
    ...artifactToWire(artifact, keys),
    data: revision?.data,
    variant_id: revision?.variantId,
    revision_id: revision?.id,
    version: revision ? String(revision.version) : undefined,
  });
}

/** The simple entity's schema (the response contract in OpenAPI). */
export function simpleWireSchema() {
  return artifactWireSchema().extend({
    data: z.record(z.string(), z.unknown()).optional(),
    variant_id: z.string().uuid().optional(),
    revision_id: z.string().uuid().optional(),
    version: z.string().optional(),
  });
}
