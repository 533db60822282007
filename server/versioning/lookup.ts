import { and, asc, eq, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { BadRequestError, NotFoundError } from "@/server/core/errors";
import { preparedQuery, type Executor } from "@/server/db";
import { artifacts, revisions, variants } from "@/server/db/schema";
import { artifactInDomain, childInDomain, roleFlagsParam } from "./domain-scope";
import type { DomainKeys } from "./domains";
import type { ArtifactRecord, RevisionRecord, VariantRecord } from "./records";
import type { Ref } from "./references";
import { revisionColumns, selectRevisions } from "./revision-select";

// Versions are stored as integers; a larger number names no revision (and must not reach SQL).
const MAX_VERSION = 2_147_483_647;

const p = (name: string) => sql.placeholder(name);

/** A slug may name both a row of the domain and a role-flagged workflow (see domain-scope.ts): the own row wins. */
const ownDomainFirst = (domain: AnyColumn) => sql`(${domain} = ${p("domain")}) desc`;

/**
 * The artifact's default variant is its oldest one (`created_at`, then id), as in the compat API:
 * an artifact has no variant until one is created, and the first one created is the default.
 */
export const isDefaultVariant = (variantId: AnyColumn, artifactId: AnyColumn) =>
  eq(
    variantId,
    sql`(select dv.id from variants dv where dv.artifact_id = ${artifactId} order by dv.created_at, dv.id limit 1)`,
  );

const env = {
  revision: alias(revisions, "env_revision"),
  artifact: alias(artifacts, "env_artifact"),
  variant: alias(variants, "env_variant"),
};
const target = { revision: revisions, artifact: artifacts, variant: variants };

/**
 * What an environment's latest revision has deployed under a key, and that revision itself, in one
 * query: `data.references[key][<domain>_revision].id` is joined to the revision it names (entries
 * are stored with ids of existing revisions; see normalize-entry.ts).
 */
const deployedVia = (db: Executor, environment: SQL | undefined) =>
  db
    .select({ environment: revisionColumns(env), target: revisionColumns(target) })
    .from(env.artifact)
    .innerJoin(
      env.variant,
      and(eq(env.variant.artifactId, env.artifact.id), isDefaultVariant(env.variant.id, env.artifact.id)),
    )
    .innerJoin(
      env.revision,
      and(eq(env.revision.variantId, env.variant.id), eq(env.revision.version, env.variant.headVersion)),
    )
    .innerJoin(
      revisions,
      eq(
        revisions.id,
        sql`(${env.revision.data} #>> array['references', ${p("key")}, ${p("revisionKey")}, 'id'])::uuid`,
      ),
    )
    .innerJoin(artifacts, eq(artifacts.id, revisions.artifactId))
    .innerJoin(variants, eq(variants.id, revisions.variantId))
    .where(
      and(
        eq(env.artifact.projectId, p("projectId")),
        eq(env.artifact.domain, "environments"),
        environment,
        eq(revisions.projectId, p("projectId")),
        childInDomain(revisions, p("domain"), p("roleFlags")),
      ),
    )
    .limit(1);

/**
 * One table's rows of the caller's project and domain (with the role-flagged workflows a domain
 * takes in: domain-scope.ts) where `also` holds: the scope every lookup below starts from.
 */
const artifactOfDomain = (...also: SQL[]) =>
  and(eq(artifacts.projectId, p("projectId")), artifactInDomain(artifacts, p("domain"), p("roleFlags")), ...also);
const variantOfDomain = (...also: SQL[]) =>
  and(eq(variants.projectId, p("projectId")), childInDomain(variants, p("domain"), p("roleFlags")), ...also);
const revisionOfDomain = (...also: SQL[]) =>
  and(eq(revisions.projectId, p("projectId")), childInDomain(revisions, p("domain"), p("roleFlags")), ...also);

/**
 * The hot lookups of retrieve, as prepared queries (see server/db/prepared.ts). Exported for the
 * benchmark's minimal floor server, which runs the very same SQL (bench/floor-server/).
 */
export const revisionLookupQueries = {
  artifactById: (db: Executor) =>
    db
      .select()
      .from(artifacts)
      .where(artifactOfDomain(eq(artifacts.id, p("id")))),
  artifactBySlug: (db: Executor) =>
    db
      .select()
      .from(artifacts)
      .where(artifactOfDomain(eq(artifacts.slug, p("slug"))))
      .orderBy(ownDomainFirst(artifacts.domain)),
  variantById: (db: Executor) =>
    db
      .select()
      .from(variants)
      .where(variantOfDomain(eq(variants.id, p("id"))))
      .limit(2),
  variantBySlug: (db: Executor) =>
    db
      .select()
      .from(variants)
      .where(variantOfDomain(eq(variants.slug, p("slug"))))
      .limit(2),
  variantBySlugIn: (db: Executor) =>
    db
      .select()
      .from(variants)
      .where(
        and(
          eq(variants.projectId, p("projectId")),
          eq(variants.artifactId, p("artifactId")),
          eq(variants.slug, p("slug")),
        ),
      )
      .limit(2),
  defaultVariant: (db: Executor) =>
    db
      .select()
      .from(variants)
      .where(eq(variants.artifactId, p("artifactId")))
      .orderBy(asc(variants.createdAt), asc(variants.id))
      .limit(1),
  revisionById: (db: Executor) =>
    selectRevisions(db)
      .where(revisionOfDomain(eq(revisions.id, p("id"))))
      .limit(1),
  revisionBySlug: (db: Executor) =>
    selectRevisions(db)
      .where(revisionOfDomain(eq(revisions.slug, p("slug"))))
      .limit(1),
  latestOfArtifactById: (db: Executor) =>
    selectRevisions(db)
      .where(
        artifactOfDomain(
          eq(artifacts.id, p("id")),
          isDefaultVariant(variants.id, artifacts.id),
          eq(revisions.version, variants.headVersion),
        ),
      )
      .limit(1),
  latestOfArtifactBySlug: (db: Executor) =>
    selectRevisions(db)
      .where(
        artifactOfDomain(
          eq(artifacts.slug, p("slug")),
          isDefaultVariant(variants.id, artifacts.id),
          eq(revisions.version, variants.headVersion),
        ),
      )
      .orderBy(ownDomainFirst(artifacts.domain))
      .limit(1),
  inVariantAt: (db: Executor) =>
    selectRevisions(db)
      .where(revisionOfDomain(eq(revisions.variantId, p("variantId")), eq(revisions.version, p("version"))))
      .limit(1),
  latestOfVariant: (db: Executor) =>
    selectRevisions(db)
      .where(revisionOfDomain(eq(revisions.variantId, p("variantId")), eq(revisions.version, variants.headVersion)))
      .limit(1),
  deployedViaEnvironmentId: (db: Executor) => deployedVia(db, eq(env.artifact.id, p("id"))),
  deployedViaEnvironmentSlug: (db: Executor) => deployedVia(db, eq(env.artifact.slug, p("slug"))),
  revisionByVersion: (db: Executor) =>
    selectRevisions(db)
      .where(and(eq(revisions.variantId, p("variantId")), eq(revisions.version, p("version"))))
      .limit(1),
};

/** Row lookups by reference, scoped to one project and domain; a reference to nothing is a 404 naming it. */
export class Lookup {
  constructor(
    readonly db: Executor,
    readonly projectId: string,
    readonly keys: DomainKeys,
  ) {}

  private get scope() {
    return { projectId: this.projectId, domain: this.keys.name, roleFlags: roleFlagsParam(this.keys) };
  }

  async artifact(ref: Ref, field = this.keys.ref): Promise<ArtifactRecord> {
    const [row] = ref.id
      ? await preparedQuery(this.db, "artifactById", revisionLookupQueries.artifactById).execute({
          ...this.scope,
          id: ref.id,
        })
      : await preparedQuery(this.db, "artifactBySlug", revisionLookupQueries.artifactBySlug).execute({
          ...this.scope,
          slug: ref.slug,
        });
    if (!row) throw new NotFoundError(`${field} ${describe(ref)} does not exist`);
    return row;
  }

  /** A variant slug is unique per artifact only; without the artifact it must be unambiguous. */
  async variant(ref: Ref, artifactId?: string, field = this.keys.variantRef): Promise<VariantRecord> {
    let rows: VariantRecord[];
    if (ref.id) {
      rows = (
        await preparedQuery(this.db, "variantById", revisionLookupQueries.variantById).execute({
          ...this.scope,
          id: ref.id,
        })
      ).filter((v) => !artifactId || v.artifactId === artifactId);
    } else if (artifactId) {
      rows = await preparedQuery(this.db, "variantBySlugIn", revisionLookupQueries.variantBySlugIn).execute({
        projectId: this.projectId,
        artifactId,
        slug: ref.slug,
      });
    } else {
      rows = await preparedQuery(this.db, "variantBySlug", revisionLookupQueries.variantBySlug).execute({
        ...this.scope,
        slug: ref.slug,
      });
    }
    if (rows.length === 0) throw new NotFoundError(`${field} ${describe(ref)} does not exist`);
    if (rows.length > 1) {
      throw new BadRequestError(
        `${field}.slug "${ref.slug}" exists in several ${this.keys.name}; add ${this.keys.ref} to say which`,
        "ambiguous_reference",
      );
    }
    return rows[0];
  }

  /** The oldest variant (see isDefaultVariant); 404 while the artifact has none. */
  async defaultVariant(artifact: ArtifactRecord): Promise<VariantRecord> {
    const row = await this.defaultVariantIfAny(artifact);
    if (!row)
      throw new NotFoundError(
        `${this.keys.one} "${artifact.slug}" has no variants yet: create one (POST /api/${this.keys.name}/variants/) or commit data`,
        "no_variant",
      );
    return row;
  }

  /** The default variant, or undefined while the artifact has none. */
  async defaultVariantIfAny(artifact: ArtifactRecord): Promise<VariantRecord | undefined> {
    const [row] = await preparedQuery(this.db, "defaultVariant", revisionLookupQueries.defaultVariant).execute({
      artifactId: artifact.id,
    });
    return row;
  }

  async revision(ref: Ref, field = this.keys.revisionRef): Promise<RevisionRecord> {
    const [row] = ref.id
      ? await preparedQuery(this.db, "revisionById", revisionLookupQueries.revisionById).execute({
          ...this.scope,
          id: ref.id,
        })
      : await preparedQuery(this.db, "revisionBySlug", revisionLookupQueries.revisionBySlug).execute({
          ...this.scope,
          slug: ref.slug,
        });
    if (!row) throw new NotFoundError(`${field} ${describe(ref)} does not exist`);
    return row as RevisionRecord;
  }

  /**
   * The newest revision of an artifact's default variant in one query; undefined when that
   * shortcut does not apply (no such artifact, variant or revision), and the caller takes the
   * step-by-step path that also explains what is missing.
   */
  async latestOfArtifact(ref: Ref): Promise<RevisionRecord | undefined> {
    const [row] = ref.id
      ? await preparedQuery(this.db, "latestOfArtifactById", revisionLookupQueries.latestOfArtifactById).execute({
          ...this.scope,
          id: ref.id,
        })
      : await preparedQuery(this.db, "latestOfArtifactBySlug", revisionLookupQueries.latestOfArtifactBySlug).execute({
          ...this.scope,
          slug: ref.slug,
        });
    return row as RevisionRecord | undefined;
  }

  /** A variant's revision (newest without `version`) in one query, by variant id; undefined on any miss. */
  async inVariant(variantId: string, version?: string): Promise<RevisionRecord | undefined> {
    if (version && Number(version) > MAX_VERSION) return undefined;
    const [row] = version
      ? await preparedQuery(this.db, "inVariantAt", revisionLookupQueries.inVariantAt).execute({
          ...this.scope,
          variantId,
          version: Number(version),
        })
      : await preparedQuery(this.db, "latestOfVariant", revisionLookupQueries.latestOfVariant).execute({
          ...this.scope,
          variantId,
        });
    return row as RevisionRecord | undefined;
  }

  /**
   * The revision of this domain deployed under `key` in the latest revision of an environment, and
   * that environment revision, in one query; undefined on any miss (the caller then takes the
   * step-by-step path that explains what is missing).
   */
  async deployed(
    environment: Ref,
    key: string,
  ): Promise<{ environment: RevisionRecord; target: RevisionRecord } | undefined> {
    const values = { ...this.scope, key, revisionKey: this.keys.revision };
    const [row] = environment.id
      ? await preparedQuery(
          this.db,
          "deployedViaEnvironmentId",
          revisionLookupQueries.deployedViaEnvironmentId,
        ).execute({ ...values, id: environment.id })
      : await preparedQuery(
          this.db,
          "deployedViaEnvironmentSlug",
          revisionLookupQueries.deployedViaEnvironmentSlug,
        ).execute({ ...values, slug: environment.slug });
    return row as { environment: RevisionRecord; target: RevisionRecord } | undefined;
  }

  /** A given version, or the newest when `version` is absent. */
  async revisionOfVariant(variant: VariantRecord, version?: string): Promise<RevisionRecord> {
    const wanted = version ? Number(version) : variant.headVersion;
    const row = wanted <= MAX_VERSION ? await revisionAt(this.db, variant.id, wanted) : undefined;
    if (!row && !version) throw new NotFoundError(`${this.keys.variant} "${variant.slug}" has no revisions yet`);
    if (!row) throw new NotFoundError(`${this.keys.variant} "${variant.slug}" has no version ${wanted}`);
    return row;
  }
}

export async function revisionAt(
  db: Executor,
  variantId: string,
  version: number,
): Promise<RevisionRecord | undefined> {
  const [row] = await preparedQuery(db, "revisionByVersion", revisionLookupQueries.revisionByVersion).execute({
    variantId,
    version,
  });
  return row as RevisionRecord | undefined;
}

export function describe(ref: Ref): string {
  const parts = [ref.id && `id ${ref.id}`, ref.slug && `slug "${ref.slug}"`, ref.version && `version ${ref.version}`];
  return `with ${parts.filter(Boolean).join(", ")}`;
}

/** The head revision; head_version 0 is a version 0 when that row exists, else no revision yet. */
export async function latestRevisionOrNull(db: Executor, variantId: string, headVersion: number) {
  return revisionAt(db, variantId, headVersion);
}
