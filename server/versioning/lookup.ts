import { and, asc, desc, eq } from "drizzle-orm";
import { BadRequestError, NotFoundError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { artifacts, revisions, variants } from "@/server/db/schema";
import type { DomainKeys } from "./domains";
import type { ArtifactRecord, RevisionRecord, VariantRecord } from "./records";
import type { Ref } from "./references";
import { findOneRevision } from "./revision-select";

/** The largest value of the integer `version` column. */
const MAX_VERSION = 2_147_483_647;

/** Row lookups by reference, scoped to one project and domain; a reference to nothing is a 404 naming it. */
export class Lookup {
  constructor(
    readonly db: Executor,
    readonly projectId: string,
    readonly keys: DomainKeys,
  ) {}

  async artifact(ref: Ref, field = this.keys.ref): Promise<ArtifactRecord> {
    const by = ref.id ? eq(artifacts.id, ref.id) : eq(artifacts.slug, ref.slug!);
    const [row] = await this.db
      .select()
      .from(artifacts)
      .where(and(eq(artifacts.projectId, this.projectId), eq(artifacts.domain, this.keys.name), by));
    if (!row) throw new NotFoundError(`${field} ${describe(ref)} does not exist`);
    return row;
  }

  /** A variant slug is unique per artifact only; without the artifact it must be unambiguous. */
  async variant(ref: Ref, artifactId?: string, field = this.keys.variantRef): Promise<VariantRecord> {
    const by = ref.id ? eq(variants.id, ref.id) : eq(variants.slug, ref.slug!);
    const rows = await this.db
      .select()
      .from(variants)
      .where(
        and(
          eq(variants.projectId, this.projectId),
          eq(variants.domain, this.keys.name),
          by,
          artifactId ? eq(variants.artifactId, artifactId) : undefined,
        ),
      )
      .limit(2);
    if (rows.length === 0) throw new NotFoundError(`${field} ${describe(ref)} does not exist`);
    if (rows.length > 1) {
      throw new BadRequestError(
        `${field}.slug "${ref.slug}" exists in several ${this.keys.name}; add ${this.keys.ref} to say which`,
        "ambiguous_reference",
      );
    }
    return rows[0];
  }

  /** The variant named `default`, or the oldest one when it was renamed away. */
  async defaultVariant(artifact: ArtifactRecord): Promise<VariantRecord> {
    const rows = await this.db
      .select()
      .from(variants)
      .where(eq(variants.artifactId, artifact.id))
      .orderBy(desc(eq(variants.slug, "default")), asc(variants.id))
      .limit(1);
    if (!rows[0]) throw new NotFoundError(`${this.keys.one} "${artifact.slug}" has no variants`);
    return rows[0];
  }

  async revision(ref: Ref, field = this.keys.revisionRef): Promise<RevisionRecord> {
    const row = await findOneRevision(
      this.db,
      eq(revisions.projectId, this.projectId),
      eq(revisions.domain, this.keys.name),
      ref.id ? eq(revisions.id, ref.id) : eq(revisions.slug, ref.slug!),
    );
    if (!row) throw new NotFoundError(`${field} ${describe(ref)} does not exist`);
    return row;
  }

  async revisionById(id: string): Promise<RevisionRecord> {
    return this.revision({ id }, `${this.keys.revision}`);
  }

  /** A given version, or the newest when `version` is absent. */
  async revisionOfVariant(variant: VariantRecord, version?: string): Promise<RevisionRecord> {
    if (!version && variant.headVersion === 0) {
      throw new NotFoundError(`${this.keys.variant} "${variant.slug}" has no revisions yet`);
    }
    const wanted = version ? Number(version) : variant.headVersion;
    // Past the integer column's range no revision can exist; asking the database would be an error.
    const row = wanted <= MAX_VERSION ? await findOneRevision(this.db, eq(revisions.variantId, variant.id), eq(revisions.version, wanted)) : undefined;
    if (!row) throw new NotFoundError(`${this.keys.variant} "${variant.slug}" has no version ${wanted}`);
    return row;
  }
}

export function describe(ref: Ref): string {
  const parts = [ref.id && `id ${ref.id}`, ref.slug && `slug "${ref.slug}"`, ref.version && `version ${ref.version}`];
  return `with ${parts.filter(Boolean).join(", ")}`;
}

export async function latestRevisionOrNull(db: Executor, variantId: string, headVersion: number) {
  if (headVersion === 0) return undefined;
  return findOneRevision(db, eq(revisions.variantId, variantId), eq(revisions.version, headVersion));
}
